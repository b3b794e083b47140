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
export async function startCountingProxy(serverUrl: string): Promise<{
  port: number;
  /** `url` (a database on the proxied server) as reached through the proxy. */
  urlFor(url: string): string;
  counts(): WireCounts;
  close(): Promise<void>;
}> {
  const target = pgTarget(serverUrl);
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
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.searchParams.delete("host");
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    counts: () => ({ ...totals }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Where a connection URL's server listens: its Unix socket when the URL names a socket folder (`?host=/tmp`). */
function pgTarget(url: string): { host: string; port: number } | { path: string } {
  const u = new URL(url);
  const port = Number(u.port || 5432);
  const socketDir = u.searchParams.get("host");
  return socketDir?.startsWith("/") ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: u.hostname, port };
}
