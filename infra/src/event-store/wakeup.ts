import { EventEmitter } from "node:events";
import type pg from "pg";
import type { Logger } from "../logger.ts";
import { listenWithReconnect } from "./listener.ts";
import { notifierFor } from "./notifier.ts";

export const WAKEUP_CHANNEL = "skyward_events";
/** One empty NOTIFY, however many wake-ups were asked for meanwhile. */
const wakeOnce = () => [""];

/**
 * Tells subscribers that new events were committed. In-process listeners hear it at once; other processes through a
 * NOTIFY: sent by the append's own statement when its store has `notify` (change-notices.ts appendNotifications,
 * issue 26), otherwise after the commit, coalesced so that a burst of appends costs one NOTIFY in flight, sent with
 * the other NOTIFYs of the moment (notifier.ts).
 */
export class Wakeup {
  private readonly emitter = new EventEmitter();

  constructor(private readonly pool?: pg.Pool) {
    this.emitter.setMaxListeners(100);
  }

  /** `notified`: the other processes were told by the append's own statement (EventStore's `notify`): local only. */
  ping(options: { notified?: boolean } = {}): void {
    this.emitter.emit("wake");
    // In the pool's one NOTIFY statement of this tick, with the append's change notice (notifier.ts); a lost
    // wake-up costs latency only: the subscribers poll the feed as well.
    if (this.pool && !options.notified) notifierFor(this.pool).request(WAKEUP_CHANNEL, wakeOnce);
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
    return listenWithReconnect(url, {
      channel: WAKEUP_CHANNEL,
      applicationName: "skyward-wakeup",
      onNotification: () => this.emitter.emit("wake"),
      onLost: (error) =>
        options.logger?.warn({ err: error }, "wake-up listener lost its connection; reconnecting"),
      onBack: () => {
        options.logger?.info("wake-up listener reconnected");
        this.emitter.emit("wake");
      },
    });
  }
}
