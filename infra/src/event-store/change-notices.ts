import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type pg from "pg";
import { type AppendNotifications, EventStore } from "./event-store.ts";
import { listenWithReconnect } from "./listener.ts";
import { notifierFor } from "./notifier.ts";
import { WAKEUP_CHANNEL } from "./wakeup.ts";

export const CHANGES_CHANNEL = "skyward_changes";
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; keys are split across notices below that. */
const PAYLOAD_BYTES = 7000;

/** Keys changed by another process (stream ids, or names a cache chose), or "all" when notices may have been missed. */
export type ChangeListener = (keys: readonly string[] | "all") => void;

interface Notice {
  o: string;
  k: string[];
}

/**
 * Tells the other processes on the same database which keys (stream ids, search pages, sessions) changed, so that
 * their in-memory copies are dropped at once rather than at the end of a time to live. Sent by NOTIFY after the
 * change committed, coalesced so that a burst of changes costs one round trip in flight, with the other NOTIFYs of
 * the moment (notifier.ts); an append's own notice goes in its statement when its store has `notify`
 * (appendNotifications). A process hears its own notices and ignores them.
 */
export class ChangeNotices {
  private readonly emitter = new EventEmitter();
  private readonly origin = randomUUID();
  private queued = new Set<string>();

  constructor(private readonly pool: pg.Pool) {
    this.emitter.setMaxListeners(100);
  }

  /** Announces keys whose change has committed. */
  announce(keys: readonly string[]): void {
    for (const key of keys) this.queued.add(key);
    if (this.queued.size === 0) return;
    // In the pool's one NOTIFY statement of this tick, with the append's wake-up (notifier.ts), the keys queued
    // until it is written; a lost notice costs freshness only: the listeners' time to live still applies.
    notifierFor(this.pool).request(CHANGES_CHANNEL, this.takeQueued);
  }

  /** The payloads announcing `keys` (each below PostgreSQL's NOTIFY limit), for a statement that sends them itself. */
  payloadsOf(keys: readonly string[]): string[] {
    return keys.length > 0 ? this.payloads([...keys]) : [];
  }

  /** The queued keys' payloads, the queue emptied. */
  private readonly takeQueued = (): string[] => {
    const payloads = this.queued.size > 0 ? this.payloads([...this.queued]) : [];
    this.queued = new Set();
    return payloads;
  };

  private payloads(keys: string[]): string[] {
    const out: string[] = [];
    let chunk: string[] = [];
    let bytes = 0;
    for (const key of keys) {
      const size = Buffer.byteLength(key) + 3;
      if (chunk.length > 0 && bytes + size > PAYLOAD_BYTES) {
        out.push(JSON.stringify({ o: this.origin, k: chunk } satisfies Notice));
        chunk = [];
        bytes = 0;
      }
      chunk.push(key);
      bytes += size;
    }
    if (chunk.length > 0) out.push(JSON.stringify({ o: this.origin, k: chunk } satisfies Notice));
    return out;
  }

  /** Called with the keys other processes changed, and with "all" whenever notices may have been missed. */
  onChange(listener: ChangeListener): () => void {
    this.emitter.on("change", listener);
    return () => this.emitter.off("change", listener);
  }

  private emit(keys: readonly string[] | "all"): void {
    this.emitter.emit("change", keys);
  }

  /**
   * Listens on a dedicated connection, reconnecting with backoff after it breaks (a database restart): between
   * the break and the new LISTEN notices are lost, so listeners are told "all" at both ends of the gap.
   */
  async listen(
    url: string,
    options: { retryMs?: number; maxRetryMs?: number } = {},
  ): Promise<() => Promise<void>> {
    return listenWithReconnect(url, {
      ...options,
      channel: CHANGES_CHANNEL,
      applicationName: "skyward-change-notices",
      onNotification: (payload) => {
        const notice = parseNotice(payload);
        if (notice && notice.o !== this.origin) this.emit(notice.k);
      },
      onLost: () => this.emit("all"),
      onBack: () => this.emit("all"),
    });
  }
}

function parseNotice(payload: string): Notice | null {
  try {
    const value = JSON.parse(payload) as Partial<Notice>;
    if (typeof value.o !== "string" || !Array.isArray(value.k)) return null;
    return { o: value.o, k: value.k.filter((k): k is string => typeof k === "string") };
  } catch {
    return null;
  }
}

/**
 * The NOTIFYs an append sends in its own statement (EventStore's `notify` option, issue 26): the feed's wake-up and
 * its streams' change notice, as Wakeup.ping and shareAppends would send them after its commit. NOTIFY is
 * transactional, so they are heard only once the append has committed; one statement and one transaction less per
 * append. It costs the append's commit PostgreSQL's NOTIFY lock (one committer at a time, across its WAL flush).
 */
export function appendNotifications(notices: ChangeNotices): AppendNotifications {
  return (streamIds) => [
    { channel: WAKEUP_CHANNEL, payload: "" },
    ...notices.payloadsOf(streamIds).map((payload) => ({ channel: CHANGES_CHANNEL, payload })),
  ];
}

/**
 * Shares this process's appends with the others and theirs with this one: every committed append announces its
 * streams (unless its own statement did), and another process's announced streams are no longer trusted by this
 * process's folds.
 */
export function shareAppends(notices: ChangeNotices): () => void {
  const stopAnnouncing = EventStore.onAppend((streamIds, announced) => {
    if (!announced) notices.announce(streamIds);
  });
  const stopHearing = notices.onChange((keys) => EventStore.changedElsewhere(keys));
  return () => {
    stopAnnouncing();
    stopHearing();
  };
}
