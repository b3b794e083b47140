import net from "node:net";

/** What passed through a counting proxy: round trips and bytes each way, over every connection. */
export interface WireCounts {
  roundTrips: number;
  bytesToServer: number;
  bytesToClient: number;
}

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: each time the server starts answering after the client
 * sent something, one exchange has completed. A pipelined batch (many statements sent before reading) is one round
 * trip, as it costs one network wait; a figure no machine's speed changes (issue 26).
 */
export async function startCountingProxy(
  target: { host: string; port: number } | { path: string },
): Promise<{ port: number; counts(): WireCounts; close(): Promise<void> }> {
  const totals: WireCounts = { roundTrips: 0, bytesToServer: 0, bytesToClient: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = "path" in target ? net.connect(target.path) : net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    // Whether the client has sent since the server last answered on this connection.
    let awaitingAnswer = false;
    client.on("data", (chunk: Buffer) => {
      totals.bytesToServer += chunk.length;
      awaitingAnswer = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      totals.bytesToClient += chunk.length;
      if (awaitingAnswer) {
        totals.roundTrips++;
        awaitingAnswer = false;
      }
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    counts: () => ({ ...totals }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
