import type pg from "pg";

/**
 * LISTEN on a dedicated connection that survives the server: a lost connection (restart, kill) is opened again with
 * backoff. Notifications sent between the loss and the new LISTEN are missed, so `onLost` and `onBack` tell the
 * caller both ends of that gap. The first connection must succeed; the returned function stops listening.
 */
export async function listenWithReconnect(
  url: string,
  options: {
    channel: string;
    applicationName: string;
    onNotification: (payload: string) => void;
    onLost?: (error: Error) => void;
    onBack?: () => void;
    retryMs?: number;
    maxRetryMs?: number;
  },
): Promise<() => Promise<void>> {
  const { default: pgModule } = await import("pg");
  const retryMs = options.retryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5000;
  let current: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;
  // Closing a connection that already broke fails again: nothing is left to release.
  const close = (client: pg.Client) => client.end().catch(() => {});

  const lose = (client: pg.Client, error: Error) => {
    if (client !== current || stopped) return;
    current = null;
    void close(client);
    options.onLost?.(error);
    reconnectLater();
  };
  const connect = async (): Promise<void> => {
    const client = new pgModule.Client({ connectionString: url, application_name: options.applicationName });
    client.on("error", (error: Error) => lose(client, error));
    client.on("end", () => lose(client, new Error("connection ended")));
    client.on("notification", (message) => {
      if (message.channel === options.channel) options.onNotification(message.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${options.channel}`);
    } catch (error) {
      await close(client);
      throw error;
    }
    // Only a listening connection is current: errors of one that never got there are the caller's to retry.
    if (stopped) await close(client);
    else current = client;
  };
  const reconnectLater = () => {
    const delay = Math.min(retryMs * 2 ** failures++, maxRetryMs);
    retry = setTimeout(() => {
      retry = null;
      if (stopped) return;
      connect().then(
        () => {
          if (current === null) return; // lost again at once: its 'error' scheduled the next try
          failures = 0;
          options.onBack?.();
        },
        () => {
          if (!stopped) reconnectLater();
        },
      );
    }, delay);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const client = current;
    current = null;
    if (client) await close(client);
  };
}
