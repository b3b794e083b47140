import { EventEmitter } from "node:events";
import type pg from "pg";
import type { Logger } from "../logger.ts";

export const WAKEUP_CHANNEL = "skyward_events";

/**
 * Tells subscribers that new events were committed. In-process listeners hear it at once; other processes
 * through a NOTIFY sent after the commit (never inside the append, which would serialise commits), coalesced so
 * that a burst of appends costs one NOTIFY in flight.
 */
export class Wakeup {
  private readonly emitter = new EventEmitter();
  private inFlight = false;
  private pending = false;

  constructor(private readonly pool?: pg.Pool) {
    this.emitter.setMaxListeners(100);
  }

  ping(): void {
    this.emitter.emit("wake");
    if (!this.pool) return;
    if (this.inFlight) {
      this.pending = true;
      return;
    }
    this.inFlight = true;
    this.pool
      .query(`SELECT pg_notify('${WAKEUP_CHANNEL}', '')`)
      .catch(() => {})
      .finally(() => {
        this.inFlight = false;
        if (this.pending) {
          this.pending = false;
          this.ping();
        }
      });
  }

  /** Called on every wake-up, local or from another process (see `listen`). */
  onWake(listener: () => void): () => void {
    this.emitter.on("wake", listener);
    return () => this.emitter.off("wake", listener);
  }

  /**
   * Relays NOTIFYs from other processes to local listeners on a dedicated connection. A lost connection (server
   * restart or kill) is opened again with backoff, and local listeners are woken once it is back, since NOTIFYs
   * sent meanwhile were missed. The first connection must succeed.
   */
  async listen(
    url: string,
    options: { logger?: Pick<Logger, "warn" | "info"> } = {},
  ): Promise<() => Promise<void>> {
    const { default: pgModule } = await import("pg");
    let current: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | null = null;
    let failures = 0;

    const lose = (client: pg.Client, error: Error) => {
      if (client !== current || stopped) return;
      current = null;
      client.end().catch(() => {});
      options.logger?.warn({ err: error }, "wake-up listener lost its connection; reconnecting");
      reconnectLater();
    };
    const connect = async (): Promise<void> => {
      const client = new pgModule.Client({ connectionString: url, application_name: "skyward-wakeup" });
      client.on("error", (error: Error) => lose(client, error));
      client.on("end", () => lose(client, new Error("connection ended")));
      client.on("notification", () => this.emitter.emit("wake"));
      try {
        await client.connect();
        await client.query(`LISTEN ${WAKEUP_CHANNEL}`);
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      // Only a listening connection is current: errors of one that never got there are the caller's to retry.
      if (stopped) await client.end().catch(() => {});
      else current = client;
    };
    const reconnectLater = () => {
      const delay = Math.min(100 * 2 ** failures++, 5000);
      retry = setTimeout(() => {
        retry = null;
        if (stopped) return;
        connect().then(
          () => {
            if (current === null) return; // lost again at once: its 'error' scheduled the next try
            failures = 0;
            options.logger?.info("wake-up listener reconnected");
            this.emitter.emit("wake");
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
      await current?.end().catch(() => {});
      current = null;
    };
  }
}
