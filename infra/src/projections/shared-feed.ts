import { comparePositions, type FeedPosition } from "@skyward/contracts/position";
import type { EventStore } from "../event-store/event-store.ts";
import type { StoredEvent } from "../event-store/types.ts";
import type { Wakeup } from "../event-store/wakeup.ts";

const positionOf = (e: StoredEvent): FeedPosition => ({ tx: e.transactionId, gp: e.globalPosition });

/** A read of the feed: its events, and whether later events are held back by a running transaction (null: unknown). */
export interface FeedPage {
  events: StoredEvent[];
  pending: boolean | null;
}

/** How long a head found by a read is trusted without a wake-up, so a missed one costs a poll, never a stall. */
const HEAD_KEPT_MS = 100;

/**
 * One read of the feed for every projector of a process. The feed only grows at its end (an event still hidden
 * behind a running transaction sorts after every event already readable), so the events read after a position
 * stay the next events after it: projectors at the same place share one query and the recent window in memory.
 *
 * With the process's wake-ups (`wakeup`), a read that found the head with nothing held back answers the projectors
 * that come to the same place after it, until the next wake-up (an append committed here, or another process's
 * NOTIFY) or HEAD_KEPT_MS: projectors that finish a batch at different moments ask the database once, not each
 * (issue 26: feed reads were about 2.6 statements of a booking flow). A wake-up during a read keeps its answer from
 * being trusted, as the append that woke it may have committed after the read's snapshot.
 */
export class SharedFeed {
  /** Contiguous events of the feed, the first one being the next after `windowStart`. */
  private window: StoredEvent[] = [];
  private windowStart: FeedPosition | null = null;
  private readonly inflight = new Map<string, Promise<FeedPage>>();
  private readonly pendingChecks = new Map<string, Promise<boolean>>();
  /** Wake-ups heard so far. */
  private wakes = 0;
  /** The head as a read found it (nothing beyond, nothing held back), the wake-ups counted before it, and until when. */
  private head: { at: FeedPosition; wakes: number; until: number } | null = null;
  private readonly stopWaking: () => void;
  /** Whether heads are kept: only with the wake-ups that end them. */
  private readonly keepsHead: boolean;

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 5000,
    wakeup?: Pick<Wakeup, "onWake">,
  ) {
    this.keepsHead = wakeup !== undefined;
    this.stopWaking =
      wakeup?.onWake(() => {
        this.wakes++;
        this.head = null;
      }) ?? (() => {});
  }

  /** Stops hearing the wake-ups. */
  close(): void {
    this.stopWaking();
  }

  /**
   * The next events of the feed after `after`, at most `limit`, with data for every type; and whether events lie
   * beyond them that the feed cannot deliver yet (null: not known), known when they were read from the database now,
   * or when the head found since the last wake-up lies right after them.
   */
  read(after: FeedPosition, limit: number): Promise<FeedPage> {
    const index = this.indexAfter(after);
    if (index >= 0 && index < this.window.length) {
      const events = this.window.slice(index, index + limit);
      const last = events.at(-1) as StoredEvent;
      const atHead = events.length < limit && this.headAt(positionOf(last));
      return Promise.resolve({ events, pending: atHead ? false : null });
    }
    if (this.headAt(after)) return Promise.resolve({ events: [], pending: false });
    const key = `${after.tx}-${after.gp}-${limit}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      const wakes = this.wakes;
      pending = this.store.readFeedPage(after, limit);
      this.inflight.set(key, pending);
      pending.then(
        ({ events, pending: heldBack }) => {
          this.inflight.delete(key);
          this.remember(after, events);
          if (this.keepsHead && !heldBack && events.length < limit && wakes === this.wakes) {
            const last = events.at(-1);
            this.head = { at: last ? positionOf(last) : after, wakes, until: Date.now() + HEAD_KEPT_MS };
          }
        },
        () => this.inflight.delete(key),
      );
    }
    return pending;
  }

  /** Whether `at` is the head a read found, with no wake-up since and not too long ago. */
  private headAt(at: FeedPosition): boolean {
    const head = this.head;
    return (
      head !== null &&
      head.wakes === this.wakes &&
      Date.now() < head.until &&
      comparePositions(head.at, at) === 0
    );
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
