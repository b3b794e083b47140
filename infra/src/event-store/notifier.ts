import type pg from "pg";

/**
 * This process's NOTIFYs to the others on one pool, sent together (issue 26): what is asked for in one tick goes as
 * one statement. An append asks for two, its wake-up (Wakeup, for the feed's readers) and its streams' change notice
 * (ChangeNotices, for the other processes' caches), and they were two statements, two transactions and two round
 * trips per append, about 2.8 of a booking flow's 20 statements. While one statement is in flight, what is asked
 * meanwhile waits and goes together in the next, as each of the two did on its own before. A store with `notify`
 * sends its appends' two in the append's own statement instead (change-notices.ts appendNotifications); the rest
 * (search pages, sessions, settings announced) still come here.
 *
 * A channel's payloads are taken when the statement is written (`take`), so a burst of asks costs one payload list.
 */
export class Notifier {
  private readonly pending = new Map<string, () => readonly string[]>();
  private scheduled = false;
  private inFlight = false;

  constructor(private readonly pool: pg.Pool) {}

  /** Asks for NOTIFYs on `channel`, whose payloads `take` gives when they are sent (none: nothing is sent). */
  request(channel: string, take: () => readonly string[]): void {
    this.pending.set(channel, take);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight || this.pending.size === 0) return;
    this.scheduled = true;
    // After the current tick, so that what it asks for on every channel goes in one statement.
    queueMicrotask(() => {
      this.scheduled = false;
      this.send();
    });
  }

  private send(): void {
    if (this.inFlight) return;
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, take] of this.pending)
      for (const payload of take()) {
        channels.push(channel);
        payloads.push(payload);
      }
    this.pending.clear();
    if (channels.length === 0) return;
    this.inFlight = true;
    statements++;
    this.pool
      .query(
        "SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) AS n(channel, payload)",
        [channels, payloads],
      )
      // A lost NOTIFY costs latency or freshness only: the listeners poll the feed, and caches have a time to live.
      .catch(() => {})
      .finally(() => {
        this.inFlight = false;
        this.schedule();
      });
  }
}

let statements = 0;
/** How many NOTIFY statements this process has sent (tests). */
export const notifyStatements = (): number => statements;

const notifiers = new WeakMap<pg.Pool, Notifier>();

/** The one notifier of a pool: every sender of NOTIFYs on it shares its statements. */
export function notifierFor(pool: pg.Pool): Notifier {
  let notifier = notifiers.get(pool);
  if (!notifier) {
    notifier = new Notifier(pool);
    notifiers.set(pool, notifier);
  }
  return notifier;
}
