import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { stampVersion, storedVersion, upcastEvent } from "@skyward/contracts/event-versions";
import type { FeedPosition } from "@skyward/contracts/position";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import { metrics } from "../telemetry/metrics.ts";
import { traced } from "../telemetry/tracing.ts";
import {
  PartialReappendError,
  RestoredDatabaseError,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from "./errors.ts";
import type { AppendResult, ExpectedVersion, StoredEvent, StreamAppend } from "./types.ts";
import type { Wakeup } from "./wakeup.ts";

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_position: number;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: StoredEvent["metadata"];
  recorded_at: Date;
}

/** A row as read: its data upcast from the version it was written at to its type's current one (event-versions.ts). */
const toStored = (r: EventRow): StoredEvent => ({
  globalPosition: BigInt(r.global_position),
  transactionId: BigInt(r.transaction_id),
  streamId: r.stream_id,
  streamPosition: r.stream_position,
  eventId: r.event_id,
  type: r.event_type,
  data: upcastEvent(r.event_type, r.data, storedVersion(r.metadata)),
  metadata: r.metadata,
  recordedAt: r.recorded_at,
});

const EVENT_COLUMNS = `global_position::text, transaction_id::text, stream_id, stream_position, event_id, event_type,
  data, metadata, recorded_at`;

const APPEND =
  "SELECT stream_id, version, transaction_id::text, last_global_position::text FROM es.append($1::jsonb)";
/** APPEND and the hold's record deleted in the same statement: both commit, or neither. */
const APPEND_RELEASING_HOLD = `WITH released AS (DELETE FROM app.supplier_holds WHERE attempt_id = $2::uuid)
  SELECT stream_id, version, transaction_id::text, last_global_position::text FROM es.append($1::jsonb)`;
/** APPEND with its NOTIFYs (channels $2, payloads $3) sent by the same statement (es.append_notify, migration 110). */
const APPEND_NOTIFYING = `SELECT stream_id, version, transaction_id::text, last_global_position::text
  FROM es.append_notify($1::jsonb, $2::text[], $3::text[])`;
/** APPEND_RELEASING_HOLD with its NOTIFYs (channels $3, payloads $4). */
const APPEND_RELEASING_HOLD_NOTIFYING = `WITH released AS (DELETE FROM app.supplier_holds WHERE attempt_id = $2::uuid)
  SELECT stream_id, version, transaction_id::text, last_global_position::text
    FROM es.append_notify($1::jsonb, $3::text[], $4::text[])`;

/** Commands in one group at most: each is a subtransaction, and a backend keeps 64 of them before it overflows. */
const MAX_GROUP = 32;
/**
 * Groups in flight at once. One at a time serialised every append of the process behind one round trip (fewer flows/s
 * in two alternating pairs on a loaded machine); with two, 16 connections appended 0.36 of raw INSERTs against 0.45
 * without grouping, with four 0.43 against 0.40 (event-store bench, one run each). Groups lock every stream they
 * append to in stream order before any command of theirs (es.append_group_each, migration 101), as an append alone
 * does, so concurrent groups and appends wait for each other without deadlocking.
 */
const MAX_IN_FLIGHT = 4;
/** SQLSTATE of the statement PostgreSQL failed to break a deadlock, and how often an append alone is sent in all. */
const DEADLOCK_DETECTED = "40P01";
const DEADLOCK_ATTEMPTS = 3;
/**
 * How long an append that lost a deadlock waits before it is sent again, doubled on each try, ±50 % at random. Sent at
 * once, it could take back the stream's row before the transaction it lost to woke up to lock it (a row whose locker
 * aborted is free to the first that comes, not to the one that waited), and deadlock with it again: with the waiter's
 * backend stopped (SIGSTOP) across the first deadlock the retry deadlocked a second time, and a whole CI run on a loaded
 * machine failed an append with the deadlock after its three tries.
 */
const DEADLOCK_BACKOFF_MS = 20;
/**
 * What waits is spread over the free slots in groups of at least this many commands: one group runs while another
 * waits for its commit to reach the disk, and no command goes alone (es.append, a commit of its own) while others wait.
 * With 16 appending loops and set-based groups (es.append_set), one group of 16 appended 0.56 and 0.55 of raw INSERTs,
 * groups spread over the free slots 0.60-0.68 (two runs of alternating rounds, 2 s each, on a loaded 2-core machine).
 * With groups as one statement (then a JSON document, now APPEND_LEAN), groups of at least 8 (two of 8 for 16
 * waiting) appended 0.74 and 0.66 of raw INSERTs, of at least 4 (four of 4) 0.63 and 0.60, and es.append_group's 0.49
 * and 0.49 (event-store bench, three builds alternating); the booking flow, whose appends rarely wait four deep, was
 * unchanged (1.00 flows/s).
 */
const MIN_GROUP = 8;
const APPEND_GROUP = `SELECT command_index, stream, stream_version, tx::text, gp::text, error_code, error_detail,
    error_message FROM es.append_group($1::jsonb)`;
/** APPEND_GROUP with its NOTIFYs (channels $2, payloads $3), sent when any command appended (migration 110). */
const APPEND_GROUP_NOTIFYING = `SELECT command_index, stream, stream_version, tx::text, gp::text, error_code,
    error_detail, error_message FROM es.append_group_notify($1::jsonb, $2::text[], $3::text[])`;

/**
 * A group's appends in one plain statement (issue 26), for a group whose commands write to distinct streams
 * (mergeChains merges the chains at one stream): 0.28 ms of PostgreSQL's CPU for one command and 0.50-0.60 ms for
 * eight, one connection, against 0.48-0.56 ms for four through es.append_group (a subtransaction around es.append_set's
 * five PL/pgSQL statements) and 0.54-0.90 ms through the JSON document it replaced, walked by five CTEs (a raw INSERT
 * with its commit: 0.12-0.15 ms). A stream a command names with no events (n = 0) is only checked against its expected
 * version, without a lock, as es.append checks it; several commands may check one stream, none may write to a stream
 * another checks. It writes only when every command passes: a stream whose expected version or order guard fails is not
 * moved, no event is inserted (so no position is taken), no supplier hold is released, and es.append_refused (migration
 * 113) fails the statement with SQLSTATE SKFB1, so nothing it wrote is kept; a retry of events already stored fails on
 * their unique ids. The group then goes through APPEND_GROUP, which answers each command exactly. Streams are created
 * or locked in stream order, as every append locks them, and each written stream's events are positioned in command
 * order. Streams: ids $1, types $2, expected $3, event counts $4, commands $5 (1-based); events: stream ids $6, places
 * in their stream's append $7 (1-based), ids $8, types $9, data $10, metadata $11; the NOTIFYs' channels $12 and
 * payloads $13 (empty for none), sent with the commit; the supplier holds the appends record ($14, app.supplier_holds),
 * forgotten with them. A row per written stream (no command: its version, the transaction and the stream's last global
 * position) and per stream checked (its command and version).
 */
const APPEND_LEAN = `WITH c AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[])
                    AS c(stream_id, stream_type, expected, n, cmd)
  ),
  moved AS (
    INSERT INTO es.streams AS s (stream_id, stream_type, version, last_tx)
    SELECT c.stream_id, c.stream_type, c.n, pg_current_xact_id() FROM c WHERE c.n > 0 ORDER BY c.stream_id
    ON CONFLICT ON CONSTRAINT streams_pkey DO UPDATE
       SET version = s.version + EXCLUDED.version, last_tx = EXCLUDED.last_tx
     WHERE s.last_tx <= EXCLUDED.last_tx
       AND es.expected_holds((SELECT c.expected FROM c WHERE c.stream_id = s.stream_id AND c.n > 0), s.version)
    RETURNING s.stream_id, s.version
  ),
  checked AS (
    SELECT c.cmd, c.stream_id, coalesce((SELECT s.version FROM es.streams s WHERE s.stream_id = c.stream_id), 0) AS version,
           c.expected
      FROM c WHERE c.n = 0
  ),
  passed AS (
    SELECT (SELECT count(*) FROM c JOIN moved m USING (stream_id) WHERE es.expected_holds(c.expected, m.version - c.n))
         + (SELECT count(*) FROM checked k WHERE es.expected_holds(k.expected, k.version))
         = cardinality($1::text[]) AS ok
  ),
  inserted AS (
    INSERT INTO es.events (stream_id, stream_position, event_id, event_type, data, metadata)
    SELECT e.stream_id, m.version - c.n + e.ord, e.event_id, e.event_type, e.data, e.metadata
      FROM unnest($6::text[], $7::int[], $8::uuid[], $9::text[], $10::jsonb[], $11::jsonb[])
             AS e(stream_id, ord, event_id, event_type, data, metadata)
      JOIN c ON c.stream_id = e.stream_id AND c.n > 0 JOIN moved m ON m.stream_id = e.stream_id
     WHERE (SELECT ok FROM passed)
     ORDER BY c.cmd, e.stream_id, e.ord
    RETURNING es.events.stream_id, global_position
  ),
  released AS (DELETE FROM app.supplier_holds WHERE attempt_id = ANY($14::uuid[]) AND (SELECT ok FROM passed)),
  notified AS (SELECT count(pg_notify(n.channel, n.payload)) FROM unnest($12::text[], $13::text[]) AS n(channel, payload))
SELECT NULL::int AS cmd, m.stream_id, m.version, pg_current_xact_id()::text AS transaction_id,
       l.gp::text AS last_global_position
  FROM moved m
       LEFT JOIN (SELECT i.stream_id, max(i.global_position) AS gp FROM inserted i GROUP BY i.stream_id) l USING (stream_id),
       notified
 WHERE CASE WHEN (SELECT ok FROM passed) THEN true ELSE es.append_refused() END
UNION ALL
SELECT k.cmd, k.stream_id, k.version, NULL, NULL FROM checked k WHERE (SELECT ok FROM passed)`;

interface AppendedRow {
  stream_id: string;
  version: number;
  transaction_id: string | null;
  last_global_position: string | null;
}

/** es.append_group's answer: a stream's row of a command, or the command's refusal. */
interface GroupRow {
  command_index: number;
  stream: string | null;
  stream_version: number | null;
  tx: string | null;
  gp: string | null;
  error_code: string | null;
  error_detail: string | null;
  error_message: string | null;
}

/** A stream's append as the statements take it. */
interface PayloadAppend {
  stream_id: string;
  stream_type: string | undefined;
  expected: string;
  events: { event_id: string; event_type: string; data: unknown; metadata: unknown }[];
}

/** One command's appends, as sent. */
interface PendingCommand {
  list: readonly StreamAppend[];
  payload: readonly PayloadAppend[];
  releasingHold: string | null;
  /** Its ticket, when it handed out the states it leaves its streams at (AppendOptions.folded). */
  ticket: Ticket | null;
  /** The unanswered appends it was decided after (AppendOptions.after). */
  after: readonly Ticket[];
}

interface PendingAppend extends PendingCommand {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * The NOTIFYs an append of events to `streamIds` sends to the other processes (the feed's wake-up, the streams' change
 * notice: change-notices.ts appendNotifications). With EventStore's `notify` option they go in the append's own
 * statement, delivered by PostgreSQL when its transaction commits and never when it rolls back (issue 26).
 */
export type AppendNotifications = (
  streamIds: readonly string[],
) => readonly { channel: string; payload: string }[];

export interface AppendOptions {
  /** The supplier hold (app.supplier_holds attempt id) whose booking this append records: forgotten with it. */
  releasingHold?: string;
  /**
   * The states the append leaves its streams at, as its command folded them. From the moment it is handed to the
   * store, a fold of one of these streams that accepts `unsettled` answers that state, with this append's ticket; once
   * it commits, each is kept as its stream's fold (no read for the next trusted fold); when it fails, forgotten.
   */
  folded?: readonly FoldedAfter<unknown>[];
  /**
   * The tickets of the unanswered appends whose states this one was decided on (EventStore.fold with `unsettled`). It
   * goes in the same statement as them, after them, or once they have committed, and is refused (wrong expected
   * version, so its command runs again) when one of them fails: its expected versions were theirs.
   */
  after?: readonly AppendTicket[];
}

/** A state an append leaves a stream at (AppendOptions.folded). */
export interface FoldedAfter<State> extends FoldRequest<State>, Folded<State> {}

/** An append handed to the store and not yet answered, whose states others may decide on (AppendOptions.after). */
export interface AppendTicket {
  readonly outcome: "pending" | "committed" | "failed";
}

class Ticket implements AppendTicket {
  outcome: AppendTicket["outcome"] = "pending";
  /** Settles once it is answered (`outcome` then says how). */
  readonly settled: Promise<void>;
  private end: () => void = () => {};

  constructor(readonly folded: readonly FoldedAfter<unknown>[]) {
    this.settled = new Promise((resolve) => {
      this.end = resolve;
    });
  }

  settle(committed: boolean): void {
    this.outcome = committed ? "committed" : "failed";
    this.end();
  }

  /** What an append decided after this one is refused with when this one failed: the version it expected is not. */
  refusal(): WrongExpectedVersionError {
    const [first] = this.folded;
    return new WrongExpectedVersionError(first?.streamId ?? "?", first?.version ?? 0, -1);
  }
}

function encodeExpected(expected: ExpectedVersion): string {
  if (typeof expected === "number") {
    if (!Number.isInteger(expected) || expected < 0) throw new Error(`invalid expected version ${expected}`);
    return String(expected);
  }
  return expected;
}

function parseExpected(value: string): ExpectedVersion {
  return /^\d+$/.test(value) ? Number(value) : (value as ExpectedVersion);
}

/** A stream to fold, with what folds it: `fold`'s arguments (its evolve a method, so any state's request fits). */
export interface FoldRequest<State> {
  streamId: string;
  evolve(state: State, event: StoredEvent): State;
  initial: State;
}

/** A stream's folded state and the version it was folded to. */
export interface Folded<State> {
  state: State;
  version: number;
}

/** A folded state, and the append stamp it is known current at. */
interface CachedFold {
  initial: unknown;
  state: unknown;
  version: number;
  stamp: number;
}

/**
 * Every append of this process (any EventStore) takes the next stamp; each stream remembers its last. A fold known
 * current at a stamp no older than its stream's last append has missed no append of this process. Streams another
 * process announced (ChangeNotices) are stamped the same way, so a trusted fold reads them again.
 */
let appendStamp = 0;
/** Streams forgotten from appendStamps count as appended at the newest stamp forgotten. */
let forgottenStamp = 0;
const appendStamps = new LRUCache<string, number>({
  max: 50_000,
  dispose: (stamp, _streamId, reason) => {
    if (reason === "evict") forgottenStamp = Math.max(forgottenStamp, stamp);
  },
});

function stampAppended(streamIds: readonly string[]): void {
  appendStamp++;
  for (const id of streamIds) appendStamps.set(id, appendStamp);
}

const lastAppendStamp = (streamId: string) => appendStamps.get(streamId) ?? forgottenStamp;

/**
 * Told the streams of every append that wrote events, by any EventStore of this process; `announced` when the append's
 * own statement told the other processes (the store's `notify` option), so nobody announces them again.
 */
export type AppendListener = (streamIds: readonly string[], announced: boolean) => void;
const appendListeners = new Set<AppendListener>();

/** PostgreSQL-backed event store (DESIGN.md section 3). Every append is one function call, so it is atomic. */
export class EventStore {
  /**
   * Listens to the appends of this process (caches of rarely written streams drop what an append changed);
   * returns the function that stops listening.
   */
  static onAppend(listener: AppendListener): () => void {
    appendListeners.add(listener);
    return () => appendListeners.delete(listener);
  }

  /**
   * Streams another process appended to (or "all", when its notices may have been missed): no fold of this
   * process trusts its memory of them any more. Append listeners are not told, so nothing is announced again.
   */
  static changedElsewhere(streamIds: readonly string[] | "all"): void {
    if (streamIds !== "all") {
      stampAppended(streamIds);
      return;
    }
    appendStamp++;
    forgottenStamp = appendStamp;
    appendStamps.clear();
  }

  /** Folded states by evolve function and stream, so a long stream (a company balance) is read from where it was. */
  private readonly folds = new WeakMap<object, LRUCache<string, CachedFold>>();

  /**
   * Per stream, the state the last unanswered append handed to the store leaves it at (AppendOptions.folded), with
   * its ticket: what a fold that accepts `unsettled` answers.
   */
  private readonly unsettled = new Map<string, { ticket: Ticket; fold: FoldedAfter<unknown> }>();

  /** Streams whose state an unanswered append has handed out (`unsettled`); none once every append is answered. */
  get unsettledStreams(): number {
    return this.unsettled.size;
  }

  /** Appends waiting for a group in flight to end (groupCommit). */
  private waiting: PendingAppend[] = [];
  /** Groups (or single appends) in flight. */
  private inFlight = 0;
  /** Whether a send of what waits is scheduled (sendSoon). */
  private sendScheduled = false;

  /**
   * `groupCommit`: appends that arrive while MAX_IN_FLIGHT are in flight wait for one to end and then go together,
   * one statement and one transaction for all of them (es.append_group), each with its own checks and answer (issue
   * 26). For a store on a pool; never on a client inside the caller's transaction. `notify`: the NOTIFYs of each
   * append go in its own statement (the wake-up's and the append listeners' own are then not sent again).
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly wakeup?: Wakeup,
    private readonly foldCacheSize = 5000,
    private readonly options: { groupCommit?: boolean; notify?: AppendNotifications } = {},
  ) {}

  /** The channels and payloads of the NOTIFYs for appends to `lists`' streams with events; null when none. */
  private notificationsOf(
    lists: readonly (readonly StreamAppend[])[],
  ): { channels: string[]; payloads: string[] } | null {
    if (!this.options.notify) return null;
    const written = [
      ...new Set(lists.flatMap((l) => l.filter((a) => a.events.length > 0).map((a) => a.streamId))),
    ];
    if (written.length === 0) return null;
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const { channel, payload } of this.options.notify(written)) {
      channels.push(channel);
      payloads.push(payload);
    }
    return channels.length > 0 ? { channels, payloads } : null;
  }

  private foldsOf(evolve: object): LRUCache<string, CachedFold> {
    let byStream = this.folds.get(evolve);
    if (!byStream) {
      byStream = new LRUCache({ max: this.foldCacheSize });
      this.folds.set(evolve, byStream);
    }
    return byStream;
  }

  private keepFold(evolve: object, streamId: string, fold: CachedFold): void {
    this.foldsOf(evolve).set(streamId, fold);
  }

  /**
   * A stream folded with `evolve` from `initial`, and the version it was folded to. Only the events after the
   * last fold of the same stream (same evolve and initial) are read: stored events never change.
   *
   * `trusted`: when no append of this process has touched the stream since it was folded or remembered, the folded
   * state is answered without a read. Only for a stream the caller then appends to at the version answered: a
   * state another process has moved on from is refused there (wrong expected version), and read afresh on retry.
   *
   * `unsettled` (with `trusted`): when an append of this process not yet answered leaves the stream at a state it
   * handed over (AppendOptions.folded), that state is answered with the append's ticket, `after`. The caller decides
   * on it without waiting for the commit and must give the ticket to its own append (AppendOptions.after), which is
   * then refused if that append fails (issue 26: a company's issues decide one after the other and commit together).
   */
  async fold<State>(
    streamId: string,
    evolve: (state: State, event: StoredEvent) => State,
    initial: State,
    options: { trusted?: boolean; unsettled?: boolean } = {},
  ): Promise<Folded<State> & { after?: AppendTicket }> {
    const request = { streamId, evolve, initial };
    if (options.trusted && options.unsettled) {
      const pending = this.unsettled.get(streamId);
      if (pending && pending.fold.evolve === evolve && pending.fold.initial === initial)
        return { state: pending.fold.state as State, version: pending.fold.version, after: pending.ticket };
    }
    const base = this.lastFold(request);
    if (options.trusted && base && base.stamp >= lastAppendStamp(streamId))
      return { state: base.state as State, version: base.version };
    const stamp = appendStamp;
    const events = await this.readStream(streamId, { fromPosition: (base?.version ?? 0) + 1 });
    return this.foldOn(request, base, events, stamp);
  }

  /** The stream's last fold in this process with the same evolve and initial state; null when none is kept. */
  private lastFold(request: FoldRequest<unknown>): CachedFold | null {
    const cached = this.foldsOf(request.evolve).get(request.streamId);
    return cached && cached.initial === request.initial ? cached : null;
  }

  /** The events read past `base` (its stream's last fold, or none) folded on and kept as the stream's last fold. */
  private foldOn<State>(
    request: FoldRequest<State>,
    base: CachedFold | null,
    events: readonly StoredEvent[],
    stamp: number,
  ): Folded<State> {
    let state = (base?.state ?? request.initial) as State;
    for (const event of events) state = request.evolve(state, event);
    const version = events.at(-1)?.streamPosition ?? base?.version ?? 0;
    this.keepFold(request.evolve, request.streamId, { initial: request.initial, state, version, stamp });
    return { state, version };
  }

  /**
   * Several streams folded as `fold` folds each (not trusted: every one read past its last fold in this process),
   * all read in one statement (issue 26: the itinerary mail's job read again, whole, the bookings its sweep had just
   * read in the same process; folded here, it reads only what was appended since). Answers each request's state and
   * version through the function it resolves with.
   */
  async foldStreams(
    requests: readonly FoldRequest<unknown>[],
  ): Promise<<State>(request: FoldRequest<State>) => Folded<State>> {
    const stamp = appendStamp;
    const bases = requests.map((request) => this.lastFold(request));
    const { rows } = await this.pool.query<EventRow & { request: string }>(
      `SELECT w.request::text AS request, ${EVENT_COLUMNS}
         FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS w(sid, from_position, request)
         JOIN es.events e ON e.stream_id = w.sid AND e.stream_position >= w.from_position
        ORDER BY w.request, e.stream_position`,
      [requests.map((r) => r.streamId), bases.map((base) => (base?.version ?? 0) + 1)],
    );
    const read = requests.map((): StoredEvent[] => []);
    for (const row of rows) read[Number(row.request) - 1]?.push(toStored(row));
    const folded = new Map<FoldRequest<unknown>, Folded<unknown>>(
      requests.map((request, i) => [
        request,
        this.foldOn(request, bases[i] ?? null, read[i] as StoredEvent[], stamp),
      ]),
    );
    return <State>(request: FoldRequest<State>) => {
      const answer = folded.get(request as FoldRequest<unknown>);
      if (!answer) throw new Error(`stream ${request.streamId} was not asked to be folded`);
      return answer as Folded<State>;
    };
  }

  /**
   * Writes the appends atomically (one statement; with groupCommit, possibly shared with other commands' appends,
   * each checked and answered on its own). `releasingHold`: the id of the supplier hold this append records
   * (app.supplier_holds, see command-service's supplier-holds.ts); its record is deleted by the same statement, so it
   * ends exactly when the append commits and stays when the append fails, without a statement of its own (issue 26).
   */
  async append(
    appends: StreamAppend | readonly StreamAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const list = Array.isArray(appends) ? (appends as readonly StreamAppend[]) : [appends as StreamAppend];
    // Each stream's version is checked once per call: a stream named twice would collide on its positions.
    const named = new Set<string>();
    for (const { streamId } of list) {
      if (named.has(streamId))
        throw new Error(`stream ${streamId} appears twice in one append: give it one StreamAppend`);
      named.add(streamId);
    }
    // Causation is never left empty: the first event of an append is caused by the request or job that decided it
    // (its correlation id), every other event of the same append by that first event.
    let rootEventId: string | null = null;
    const payload = list.map((a) => ({
      stream_id: a.streamId,
      stream_type: a.streamType ?? a.streamId.split("-")[0],
      expected: encodeExpected(a.expected),
      events: a.events.map((e) => {
        const eventId = e.event_id ?? randomUUID();
        const causation = e.metadata.causation_id ?? rootEventId ?? e.metadata.correlation_id;
        rootEventId ??= eventId;
        const metadata =
          e.metadata.causation_id === causation ? e.metadata : { ...e.metadata, causation_id: causation };
        return {
          event_id: eventId,
          event_type: e.type,
          data: e.data,
          metadata: stampVersion(e.type, metadata),
        };
      }),
    }));
    const after = (options.after ?? []) as readonly Ticket[];
    const failed = after.find((t) => t.outcome === "failed");
    if (failed) throw this.refused(metrics.start(), failed.refusal());
    const folded = options.folded ?? [];
    const ticket = folded.length > 0 ? new Ticket(folded) : null;
    if (ticket) for (const fold of folded) this.unsettled.set(fold.streamId, { ticket, fold });
    const command: PendingCommand = {
      list,
      payload,
      releasingHold: options.releasingHold ?? null,
      ticket,
      after,
    };
    if (!this.options.groupCommit) {
      try {
        const failed = await failedAmong(after);
        if (failed) throw this.refused(metrics.start(), failed.refusal());
        const result = await this.appendAlone(command);
        this.settle(command, result);
        return result;
      } catch (error) {
        this.settle(command, null);
        throw error;
      }
    }
    // An append waiting on another is sent when that one is answered (by this store or another).
    for (const t of after) if (t.outcome === "pending") void t.settled.then(() => this.sendSoon());
    return new Promise<AppendResult>((resolve, reject) => {
      this.waiting.push({
        ...command,
        resolve: (result) => {
          this.settle(command, result);
          resolve(result);
        },
        reject: (error) => {
          this.settle(command, null);
          reject(error);
        },
      });
      this.sendSoon();
    });
  }

  /**
   * An append answered (`result`, or null when it failed): the states it handed out are kept as their streams' folds
   * when it committed them, and forgotten when it failed, with any state decided after them; the appends waiting
   * after it are then refused.
   */
  private settle(command: PendingCommand, result: AppendResult | null): void {
    const { ticket } = command;
    if (ticket?.outcome !== "pending") return;
    for (const fold of ticket.folded) {
      const pending = this.unsettled.get(fold.streamId);
      if (result) {
        const kept = this.lastFold(fold);
        if (result.versions[fold.streamId] === fold.version && (!kept || kept.version <= fold.version))
          this.keepFold(fold.evolve, fold.streamId, {
            initial: fold.initial,
            state: fold.state,
            version: fold.version,
            stamp: appendStamp,
          });
        if (pending?.ticket === ticket) this.unsettled.delete(fold.streamId);
      } else if (pending && pending.fold.version >= fold.version) {
        this.unsettled.delete(fold.streamId);
      }
    }
    ticket.settle(result !== null);
    if (result) return;
    const doomed = this.waiting.filter((c) => c.after.includes(ticket));
    if (doomed.length === 0) return;
    this.waiting = this.waiting.filter((c) => !doomed.includes(c));
    for (const c of doomed) c.reject(this.refused(metrics.start(), ticket.refusal()));
  }

  /**
   * Sends what waits once this turn of the event loop has run, so that the appends of every command a turn resumed
   * (a group's commands, answered together, append again together) go as one group rather than the first alone.
   */
  private sendSoon(): void {
    if (this.sendScheduled) return;
    this.sendScheduled = true;
    setImmediate(() => {
      this.sendScheduled = false;
      this.sendWaiting();
    });
  }

  /**
   * Sends what waits, spread evenly over the free slots in groups of at least MIN_GROUP, unless MAX_IN_FLIGHT groups
   * are in flight already (the first of them to end sends the next): below that, an append goes at the end of the
   * event loop's turn (sendSoon), alone unless more commands appended in the same turn.
   */
  private sendWaiting(): void {
    const free = MAX_IN_FLIGHT - this.inFlight;
    if (free <= 0 || this.waiting.length === 0) return;
    const count = Math.min(free, Math.ceil(this.waiting.length / MIN_GROUP));
    const size = Math.min(MAX_GROUP, Math.ceil(this.waiting.length / count));
    const groups: PendingAppend[][] = [];
    const placed = new Map<Ticket, PendingAppend[]>();
    const left: PendingAppend[] = [];
    const waiting = this.waiting;
    this.waiting = [];
    for (const command of waiting) {
      const failed = command.after.find((t) => t.outcome === "failed");
      if (failed) {
        command.reject(this.refused(metrics.start(), failed.refusal()));
        continue;
      }
      const group = groupFor(command, placed, groups, count, size);
      if (!group) {
        left.push(command);
        continue;
      }
      group.push(command);
      if (command.ticket) placed.set(command.ticket, group);
    }
    this.waiting = [...left, ...this.waiting];
    for (const group of groups) {
      this.inFlight++;
      void this.appendGroup(group).finally(() => {
        this.inFlight--;
        this.sendSoon();
      });
    }
  }

  /**
   * One command's appends in one statement (es.append), its hold released in the same statement. A statement that
   * PostgreSQL chose to break a deadlock wrote nothing and is sent again (every append locks its streams in one order,
   * so none is expected; this keeps a lock taken elsewhere from ever answering an agent with a 500).
   */
  private async appendAlone({ list, payload, releasingHold }: PendingCommand): Promise<AppendResult> {
    let rows: AppendedRow[] | undefined;
    const started = metrics.start();
    const notifying = this.notificationsOf([list]);
    const json = JSON.stringify(payload);
    const statement: [string, unknown[]] = notifying
      ? releasingHold
        ? [APPEND_RELEASING_HOLD_NOTIFYING, [json, releasingHold, notifying.channels, notifying.payloads]]
        : [APPEND_NOTIFYING, [json, notifying.channels, notifying.payloads]]
      : releasingHold
        ? [APPEND_RELEASING_HOLD, [json, releasingHold]]
        : [APPEND, [json]];
    for (let attempt = 1; rows === undefined; attempt++) {
      try {
        rows = (
          await traced("event-store append", { "skyward.streams": list.length }, () =>
            this.pool.query<AppendedRow>(...statement),
          )
        ).rows;
      } catch (error) {
        if ((error as { code?: string }).code === DEADLOCK_DETECTED && attempt < DEADLOCK_ATTEMPTS) {
          await sleep(DEADLOCK_BACKOFF_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
          continue;
        }
        throw this.refused(started, translateError(error));
      }
    }
    return this.appended(started, list, rows, notifying !== null);
  }

  /**
   * Several commands' appends in one statement and one transaction (es.append_group): each answered on its own, a
   * refusal failing that command alone. When the statement itself fails (a lost connection, a deadlock with another
   * process's group), each command is appended again alone: its event ids make a repeat of one that committed a no-op.
   */
  private async appendGroup(group: readonly PendingAppend[]): Promise<void> {
    const [only] = group;
    if (group.length === 1 && only) {
      await this.appendAlone(only).then(only.resolve, only.reject);
      return;
    }
    const started = metrics.start();
    const notifying = this.notificationsOf(group.map((c) => c.list));
    // The group as one JSON document for es.append_group (APPEND_LEAN takes arrays): written once, and only if sent.
    let written: string | undefined;
    const json = () => {
      written ??= groupJson(group);
      return written;
    };
    const exactly = () =>
      notifying
        ? this.pool.query<GroupRow>(APPEND_GROUP_NOTIFYING, [json(), notifying.channels, notifying.payloads])
        : this.pool.query<GroupRow>(APPEND_GROUP, [json()]);
    const notices = [notifying?.channels ?? [], notifying?.payloads ?? []];
    let rows: GroupRow[];
    try {
      rows = await traced("event-store append group", { "skyward.commands": group.length }, async () => {
        const sent = mergeChains(group);
        if (!sent) return (await exactly()).rows;
        const fallback = async () => (await exactly()).rows;
        const holds = group.flatMap((c) => (c.releasingHold ? [c.releasingHold] : []));
        return this.pool
          .query<LeanRow>(APPEND_LEAN, [...leanArrays(sent), ...notices, holds])
          .then(({ rows: streams }) => chainAnswers(group, streams.map(asGroupRow)), fallback);
      });
    } catch {
      // Each after the appends of the group it was decided after.
      await Promise.all(
        group.map(async (c) => {
          const failed = await failedAmong(c.after);
          if (failed) c.reject(this.refused(started, failed.refusal()));
          else await this.appendAlone(c).then(c.resolve, c.reject);
        }),
      );
      return;
    }
    group.forEach((command, i) => {
      const own = rows.filter((r) => r.command_index === i + 1);
      const refusal = own.find((r) => r.error_code !== null);
      if (refusal) {
        command.reject(
          this.refused(
            started,
            translateError({
              code: refusal.error_code,
              detail: refusal.error_detail ?? undefined,
              message: refusal.error_message ?? undefined,
            }),
          ),
        );
        return;
      }
      command.resolve(
        this.appended(
          started,
          command.list,
          own.flatMap((r) =>
            r.stream === null
              ? []
              : [
                  {
                    stream_id: r.stream,
                    version: r.stream_version ?? 0,
                    transaction_id: r.tx,
                    last_global_position: r.gp,
                  },
                ],
          ),
          notifying !== null,
        ),
      );
    });
  }

  /** A refused or failed append, counted; answers the error to throw. */
  private refused(started: ReturnType<typeof metrics.start>, error: unknown): unknown {
    metrics.appended(
      started,
      error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError
        ? "conflict"
        : "error",
      0,
    );
    return error;
  }

  /**
   * A command's answer from its rows: each stream's version and the last position; those who listen are told
   * (`announced`: its statement told the other processes already).
   */
  private appended(
    started: ReturnType<typeof metrics.start>,
    list: readonly StreamAppend[],
    rows: readonly AppendedRow[],
    announced: boolean,
  ): AppendResult {
    metrics.appended(
      started,
      "ok",
      list.reduce((n, a) => n + a.events.length, 0),
    );
    const versions: Record<string, number> = {};
    let position: FeedPosition | null = null;
    for (const row of rows) {
      versions[row.stream_id] = Number(row.version);
      if (row.transaction_id && row.last_global_position) {
        const candidate = { tx: BigInt(row.transaction_id), gp: BigInt(row.last_global_position) };
        if (!position || candidate.gp > position.gp) position = candidate;
      }
    }
    if (position) {
      this.wakeup?.ping({ notified: announced });
      const written = list.filter((a) => a.events.length > 0).map((a) => a.streamId);
      stampAppended(written);
      for (const listener of appendListeners) listener(written, announced);
    }
    return { versions, position };
  }

  /** Events of one stream in order, from a stream position (1 = the first event). */
  async readStream(
    streamId: string,
    options: { fromPosition?: number; maxCount?: number } = {},
  ): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es.events WHERE stream_id = $1 AND stream_position >= $2
        ORDER BY stream_position LIMIT $3`,
      [streamId, options.fromPosition ?? 1, options.maxCount ?? null],
    );
    return rows.map(toStored);
  }

  /** Several whole streams in one round trip, each in order; a stream with no events maps to []. */
  async readStreams(streamIds: readonly string[]): Promise<Map<string, StoredEvent[]>> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es.events WHERE stream_id = ANY($1) ORDER BY stream_id, stream_position`,
      [streamIds],
    );
    const streams = new Map<string, StoredEvent[]>(streamIds.map((id) => [id, []]));
    for (const row of rows) streams.get(row.stream_id)?.push(toStored(row));
    return streams;
  }

  /**
   * The next events of the global feed after `after`, in commit-safe order: only transactions older than every
   * transaction still running are read, so an event that commits late is never skipped. Events whose type is
   * not in `types` come without data (the caller still moves its checkpoint past them).
   */
  async readFeed(after: FeedPosition, limit: number, types?: readonly string[]): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT global_position::text, transaction_id::text, stream_id, stream_position, event_id, event_type,
              CASE WHEN $4::text[] IS NULL OR event_type = ANY($4) THEN data END AS data,
              CASE WHEN $4::text[] IS NULL OR event_type = ANY($4) THEN metadata END AS metadata, recorded_at
         FROM es.events e
        WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
          AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        -- Qualified: a bare name would sort by the text-cast output column (lexicographic, no index).
        ORDER BY e.transaction_id, e.global_position
        LIMIT $3`,
      [after.tx.toString(), after.gp.toString(), limit, types ?? null],
    );
    return rows.map(toStored);
  }

  /**
   * readFeed (every type, with data) and hasPendingAfter in one statement, on one snapshot: the next events after
   * `after`, and whether events lie beyond them that the feed cannot deliver yet. The live projectors read the head
   * of the feed this way, so a short page tells them to sleep without a second look and a second question (issue 26).
   * For reads near the head only: the pending check scans from `after`. Not an EXISTS, for hasPendingAfter's
   * reason: without statistics on es.events (a new or restored database before autovacuum analyzes it) that was
   * planned as a sequential scan of the whole log on every look at the head: 0.6-0.9 ms at 6,800 events in the
   * booking flow, growing with the log (feed-plans.test.ts).
   */
  async readFeedPage(
    after: FeedPosition,
    limit: number,
  ): Promise<{ events: StoredEvent[]; pending: boolean }> {
    const { rows } = await this.pool.query<EventRow & { pending: boolean }>(
      `SELECT p.pending, v.global_position, v.transaction_id, v.stream_id, v.stream_position, v.event_id,
              v.event_type, v.data, v.metadata, v.recorded_at
         FROM (SELECT (SELECT true FROM es.events
                        WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
                          AND transaction_id >= pg_snapshot_xmin(pg_current_snapshot())
                        ORDER BY transaction_id, global_position LIMIT 1) IS NOT NULL AS pending) p
         LEFT JOIN LATERAL (
           SELECT global_position::text, transaction_id::text, stream_id, stream_position, event_id, event_type,
                  data, metadata, recorded_at, e.transaction_id AS sort_tx, e.global_position AS sort_gp
             FROM es.events e
            WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
              AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY e.transaction_id, e.global_position
            LIMIT $3) v ON true
        ORDER BY v.sort_tx, v.sort_gp`,
      [after.tx.toString(), after.gp.toString(), limit],
    );
    return {
      pending: rows[0]?.pending ?? false,
      // Without events the one row carries the pending flag only.
      events: rows.filter((r) => r.event_id !== null).map(toStored),
    };
  }

  /**
   * Whether committed events lie after `after` that the feed cannot deliver yet because an older transaction (any
   * writer's, a projector's included) is still running: a subscriber should look again in a moment, not sleep.
   * Not an EXISTS: PostgreSQL drops the ORDER BY of one, and the pool's generic plan (db.ts), guessing that a third
   * of the log follows any position, then scanned all of it where nothing follows (feed-plans.test.ts: 35 ms at
   * 100,000 events, on every look of every projector at the head). The ORDER BY keeps it on the feed's index.
   */
  async hasPendingAfter(after: FeedPosition): Promise<boolean> {
    const { rows } = await this.pool.query<{ pending: boolean }>(
      `SELECT (SELECT true FROM es.events WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
                ORDER BY transaction_id, global_position LIMIT 1) IS NOT NULL AS pending`,
      [after.tx.toString(), after.gp.toString()],
    );
    return rows[0]?.pending ?? false;
  }

  /** The newest feed position a subscriber can reach now. */
  async headPosition(): Promise<FeedPosition | null> {
    const { rows } = await this.pool.query<{ tx: string; gp: string }>(
      `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    const row = rows[0];
    return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : null;
  }

  /** Refuses a database whose transaction counter is behind its stored events (DESIGN.md section 3). */
  async assertNotRestored(): Promise<void> {
    const { rows } = await this.pool.query<{ next: string; stored: string | null }>(
      `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next,
              (SELECT max(transaction_id)::text FROM es.events) AS stored`,
    );
    const row = rows[0];
    if (row?.stored && BigInt(row.stored) >= BigInt(row.next))
      throw new RestoredDatabaseError(row.next, row.stored);
  }
}

/**
 * A group as es.append_group takes it: each command's appends and hold, and the places (1 = the first) of the commands
 * of the group it was decided after, so it is refused when one of them is (migration 115).
 */
function groupJson(group: readonly PendingCommand[]): string {
  const places = new Map(group.flatMap((c, i) => (c.ticket ? [[c.ticket, i + 1] as const] : [])));
  return JSON.stringify(
    group.map((c) => {
      const after = c.after.flatMap((t) => places.get(t) ?? []);
      return { appends: c.payload, release_hold: c.releasingHold, ...(after.length > 0 ? { after } : {}) };
    }),
  );
}

/** The first of `tickets` that failed, once every one of them is answered; undefined when all committed. */
async function failedAmong(tickets: readonly Ticket[]): Promise<Ticket | undefined> {
  await Promise.all(tickets.map((t) => t.settled));
  return tickets.find((t) => t.outcome === "failed");
}

/**
 * The group of this send a waiting append goes in, or null when it waits for a later one. One decided after unanswered
 * appends goes in their group, after them: the group's statement appends its commands in order, holding its streams
 * locked from the first to the last, and refuses one whose predecessor it refused (groupJson). After an append in
 * flight or left waiting, it waits for its answer. Any other fills the groups in order, `size` each, `count` at most.
 */
function groupFor(
  command: PendingAppend,
  placed: ReadonlyMap<Ticket, PendingAppend[]>,
  groups: PendingAppend[][],
  count: number,
  size: number,
): PendingAppend[] | null {
  let within: PendingAppend[] | undefined;
  for (const t of command.after) {
    if (t.outcome === "committed") continue;
    const group = placed.get(t);
    if (!group || (within && within !== group)) return null;
    within = group;
  }
  if (within) return within.length < MAX_GROUP ? within : null;
  const last = groups.at(-1);
  if (last && last.length < size) return last;
  if (groups.length >= count) return null;
  const group: PendingAppend[] = [];
  groups.push(group);
  return group;
}

/** Each command's appends as a group's statement takes them (mergeChains). */
type SentPayloads = readonly (readonly PayloadAppend[])[];

/**
 * A group's appends as APPEND_LEAN writes them, or null when the group goes through es.append_group, which answers
 * each command on its own. APPEND_LEAN writes each stream once and checks a stream only no command writes:
 * a stream several commands write (a chain of turns at one balance, each decided on the state the one before it
 * leaves: AppendOptions.after) is written once, with their events in command order, in the first one's appends. That
 * holds when the first one's expected version tells the version each next one leaves and each next one expects
 * exactly that (or any): the statement checks the first, and the rest then hold. Through es.append_group such a
 * chain cost about 3 ms of PostgreSQL's CPU per group, against about 1 ms as one statement (issue 26). Null, too,
 * for a command that names no stream.
 */
function mergeChains(group: readonly PendingCommand[]): SentPayloads | null {
  const written = new Map<string, { append: PayloadAppend; version: number | null }>();
  const checked = new Set<string>();
  const sent: PayloadAppend[][] = [];
  for (const command of group) {
    if (command.payload.length === 0) return null;
    const own: PayloadAppend[] = [];
    sent.push(own);
    for (const a of command.payload) {
      const n = a.events.length;
      if (n === 0) {
        checked.add(a.stream_id);
        own.push(a);
        continue;
      }
      const first = written.get(a.stream_id);
      if (!first) {
        const from = a.expected === "no_stream" ? 0 : /^[0-9]+$/.test(a.expected) ? Number(a.expected) : null;
        const append = { ...a, events: [...a.events] };
        written.set(a.stream_id, { append, version: from === null ? null : from + n });
        own.push(append);
        continue;
      }
      if (first.version === null || (a.expected !== "any" && a.expected !== String(first.version)))
        return null;
      first.append.events.push(...a.events);
      first.version += n;
    }
  }
  for (const streamId of checked) if (written.has(streamId)) return null;
  return sent;
}

/** APPEND_LEAN's row: a stream written (no command: the stream has one row) or a command's stream checked. */
type LeanRow = AppendedRow & { cmd: number | null };

/** A row of APPEND_LEAN as es.append_group answers it. */
const asGroupRow = (r: LeanRow): GroupRow => ({
  command_index: r.cmd ?? 0,
  stream: r.stream_id,
  stream_version: Number(r.version),
  tx: r.transaction_id,
  gp: r.last_global_position,
  error_code: null,
  error_detail: null,
  error_message: null,
});

/**
 * The answers to each command of a group sent as mergeChains wrote it, from the statement's rows: a stream written
 * (a row with its transaction) answers the version after the command's own events (for a stream several commands
 * wrote, its version less the events of the commands after it) and the stream's last global position in the
 * transaction (a read model that has reached it has every one of them); a stream only checked answers its command's
 * row.
 */
function chainAnswers(group: readonly PendingCommand[], rows: readonly GroupRow[]): GroupRow[] {
  const written = new Map(rows.flatMap((r) => (r.tx !== null && r.stream !== null ? [[r.stream, r]] : [])));
  // Per stream, the events of the commands not yet answered below.
  const later = new Map<string, number>();
  for (const command of group)
    for (const a of command.payload) later.set(a.stream_id, (later.get(a.stream_id) ?? 0) + a.events.length);
  return group.flatMap((command, i) =>
    command.payload.map((a) => {
      const checked = a.events.length === 0;
      const row = checked
        ? rows.find((r) => r.command_index === i + 1 && r.stream === a.stream_id)
        : written.get(a.stream_id);
      if (!row) throw new Error(`the group's statement did not answer for stream ${a.stream_id}`);
      if (checked) return row;
      const after = (later.get(a.stream_id) ?? 0) - a.events.length;
      later.set(a.stream_id, after);
      return { ...row, command_index: i + 1, stream_version: (row.stream_version ?? 0) - after };
    }),
  );
}

/** APPEND_LEAN's arrays of a group ($1 to $11, the fields below in that order): its streams, then their events. */
function leanArrays(sent: SentPayloads): unknown[][] {
  const streams = {
    ids: [] as string[],
    types: [] as (string | undefined)[],
    expected: [] as string[],
    counts: [] as number[],
    commands: [] as number[],
  };
  const events = {
    streams: [] as string[],
    places: [] as number[],
    ids: [] as string[],
    types: [] as string[],
    data: [] as string[],
    metadata: [] as string[],
  };
  sent.forEach((own, i) => {
    for (const a of own) {
      streams.ids.push(a.stream_id);
      streams.types.push(a.stream_type);
      streams.expected.push(a.expected);
      streams.counts.push(a.events.length);
      streams.commands.push(i + 1);
      a.events.forEach((e, place) => {
        events.streams.push(a.stream_id);
        events.places.push(place + 1);
        events.ids.push(e.event_id);
        events.types.push(e.event_type);
        events.data.push(JSON.stringify(e.data));
        events.metadata.push(JSON.stringify(e.metadata));
      });
    }
  });
  return [...Object.values(streams), ...Object.values(events)];
}

function translateError(error: unknown): unknown {
  const e = error as { code?: string; detail?: string; message?: string };
  if (e.code === "P0001" && e.detail) {
    const d = JSON.parse(e.detail) as { stream_id: string; expected: string; actual: number };
    return new WrongExpectedVersionError(d.stream_id, parseExpected(d.expected), Number(d.actual));
  }
  if (e.code === "P0002" && e.detail)
    return new PartialReappendError((JSON.parse(e.detail) as { stream_id: string }).stream_id);
  if (e.code === "40001")
    return new StreamOrderConflictError(/stream (\S+)/.exec(e.message ?? "")?.[1] ?? null);
  return error;
}
