import { comparePositions, type FeedPosition } from "@skyward/contracts/position";
import type { EventStore } from "../event-store/event-store.ts";
import type { StoredEvent } from "../event-store/types.ts";

const positionOf = (e: StoredEvent): FeedPosition => ({ tx: e.transactionId, gp: e.globalPosition });

/** A read of the feed: its events, and whether later events are held back by a running transaction (null: unknown). */
export interface FeedPage {
  events: StoredEvent[];
  pending: boolean | null;
}

/**
 * One read of the feed for every projector of a process. The feed only grows at its end (an event still hidden
 * behind a running transaction sorts after every event already readable), so the events read after a position
 * stay the next events after it: projectors at the same place share one query and the recent window in memory.
 */
export class SharedFeed {
  /** Contiguous events of the feed, the first one being the next after `windowStart`. */
  private window: StoredEvent[] = [];
  private windowStart: FeedPosition | null = null;
  private readonly inflight = new Map<string, Promise<FeedPage>>();
  private readonly pendingChecks = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 5000,
  ) {}

  /**
   * The next events of the feed after `after`, at most `limit`, with data for every type; and, when they were read
   * from the database now rather than from the window, whether events lie beyond them that the feed cannot deliver
   * yet (null: not known).
   */
  read(after: FeedPosition, limit: number): Promise<FeedPage> {
    const index = this.indexAfter(after);
    if (index >= 0 && index < this.window.length)
      return Promise.resolve({ events: this.window.slice(index, index + limit), pending: null });
    const key = `${after.tx}-${after.gp}-${limit}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.store.readFeedPage(after, limit);
      this.inflight.set(key, pending);
      pending.then(
        ({ events }) => {
          this.inflight.delete(key);
          this.remember(after, events);
        },
        () => this.inflight.delete(key),
      );
    }
    return pending;
  }

  /** EventStore.hasPendingAfter, asked once for the projectors waiting at the same place at the same time. */
  hasPendingAfter(after: FeedPosition): Promise<boolean> {
    const key = `${after.tx}-${after.gp}`;
    let pending = this.pendingChecks.get(key);
    if (!pending) {
      pending = this.store.hasPendingAfter(after);
      this.pendingChecks.set(key, pending);
      const forget = () => this.pendingChecks.delete(key);
      pending.then(forget, forget);
    }
    return pending;
  }

  /** Index in the window of the first event after `after`; -1 when `after` is not a place in the window. */
  private indexAfter(after: FeedPosition): number {
    if (!this.windowStart) return -1;
    if (comparePositions(after, this.windowStart) === 0) return 0;
    for (let i = this.window.length - 1; i >= 0; i--) {
      const c = comparePositions(positionOf(this.window[i] as StoredEvent), after);
      if (c === 0) return i + 1;
      if (c < 0) return -1;
    }
    return -1;
  }

  private remember(after: FeedPosition, events: readonly StoredEvent[]): void {
    if (events.length === 0) return;
    const last = this.window.at(-1);
    const end = last ? positionOf(last) : this.windowStart;
    if (end && comparePositions(after, end) === 0) {
      this.window.push(...events);
    } else if (!end || comparePositions(after, end) > 0) {
      // Not adjacent to the window (a projector far ahead): start a new window there.
      this.window = [...events];
      this.windowStart = after;
    } else {
      return; // a read behind the window end (a projector catching up) is not kept
    }
    const excess = this.window.length - this.capacity;
    if (excess > 0) {
      this.windowStart = positionOf(this.window[excess - 1] as StoredEvent);
      this.window = this.window.slice(excess);
    }
  }
}
