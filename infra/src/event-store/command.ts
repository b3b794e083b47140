import { setTimeout as sleep } from "node:timers/promises";
import type { EventMetadata } from "@skyward/contracts/metadata";
import { DomainError } from "../http/errors.ts";
import { isRefusal } from "../refusal.ts";
import { traced } from "../telemetry/tracing.ts";
import { StreamOrderConflictError, WrongExpectedVersionError } from "./errors.ts";
import type { AppendTicket, EventStore, FoldedAfter, FoldRequest } from "./event-store.ts";
import { jsonCopy } from "./json-copy.ts";
import type { AppendResult, NewEvent, StoredEvent, StreamAppend } from "./types.ts";

export interface Loaded<State> {
  state: State;
  /** Stream version the state was folded from (0 = no stream). */
  version: number;
}

export interface CommandContext {
  /**
   * Reads a stream and folds it; the version read becomes the expected version of `appendTo`. `trusted` (for a
   * stream this command appends to at the version loaded): on the first attempt a state this process knows to be
   * current, or the state an unanswered append of this process leaves the stream at, is taken without a read
   * (EventStore.fold's `trusted` and `unsettled`: the command's append then goes with or after that one, and is
   * refused if that one fails); a retry always reads.
   */
  load<State>(
    streamId: string,
    evolve: (state: State, event: StoredEvent) => State,
    initial: State,
    options?: { trusted?: boolean },
  ): Promise<Loaded<State>>;
  /** A stream this command creates (appends with "no_stream"): its initial state at version 0, without a read. */
  fresh<State>(
    streamId: string,
    evolve: (state: State, event: StoredEvent) => State,
    initial: State,
  ): Loaded<State>;
}

/**
 * What a decision on one stream appends: its events (each with `metadata`) at the version the stream was loaded (0:
 * it does not exist yet), or nothing when nothing was decided, so a command decided once before writes nothing.
 */
export function decidedAppends(
  streamId: string,
  version: number,
  events: readonly { type: string; data: unknown }[],
  metadata: EventMetadata,
): StreamAppend[] {
  if (events.length === 0) return [];
  return [
    {
      streamId,
      expected: version === 0 ? "no_stream" : version,
      events: events.map((e) => ({ ...e, metadata })),
    },
  ];
}

export interface CommandOutcome<Result> {
  appends: StreamAppend[];
  result: Result;
  /** The supplier hold these appends record, forgotten in the append's statement (EventStore.append). */
  releasingHold?: string;
}

export interface CommandOptions {
  maxAttempts?: number;
  /**
   * Takes a turn before each attempt decides; the function it answers gives the turn back. The turn is given back
   * as soon as the attempt's append is handed to the store, with the states it leaves its streams at: the next turn
   * decides on them and its append is chained after this one (EventStore.fold's `unsettled`), so turns do not wait
   * for commits (see StreamLocks).
   */
  turn?: () => Promise<() => void>;
}

/**
 * The command handler's loop: read → fold → decide → append with the versions read. A conflict caused by a
 * concurrent writer of the same stream re-runs the whole decision on fresh state, so two racing agents get one
 * success and one answer decided on the winner's outcome.
 */
export function runCommand<Result>(
  store: EventStore,
  work: (ctx: CommandContext) => Promise<CommandOutcome<Result>>,
  options: CommandOptions = {},
): Promise<{ result: Result; append: AppendResult }> {
  return traced("command", {}, () => runCommandLoop(store, work, options));
}

async function runCommandLoop<Result>(
  store: EventStore,
  work: (ctx: CommandContext) => Promise<CommandOutcome<Result>>,
  options: CommandOptions,
): Promise<{ result: Result; append: AppendResult }> {
  const maxAttempts = options.maxAttempts ?? 50;
  let trusting = true;
  for (let attempt = 1; ; attempt++) {
    let trusted = false;
    const loaded = new Map<string, FoldedAfter<unknown>>();
    // The unanswered appends whose states it decided on: its own append goes with or after them.
    const after: AppendTicket[] = [];
    const track = <State>(request: FoldRequest<State>, fold: Loaded<State> & { after?: AppendTicket }) => {
      const { state, version } = fold;
      loaded.set(request.streamId, { ...(request as FoldRequest<unknown>), state, version });
      if (fold.after) after.push(fold.after);
      return { state, version };
    };
    const ctx: CommandContext = {
      load: async (streamId, evolve, initial, options = {}) => {
        const trust = Boolean(options.trusted) && trusting && attempt === 1;
        trusted ||= trust;
        const fold = await store.fold(streamId, evolve, initial, { trusted: trust, unsettled: trust });
        return track({ streamId, evolve, initial }, fold);
      },
      fresh: (streamId, evolve, initial) =>
        track({ streamId, evolve, initial }, { state: initial, version: 0 }),
    };
    const giveBack = await options.turn?.();
    let appending: Promise<{ result: Result; append: AppendResult }>;
    try {
      let outcome: CommandOutcome<Result>;
      try {
        outcome = await work(ctx);
      } catch (error) {
        // A refusal (balance, version, gate...) is only ever decided on the latest state: one decided on a state this
        // process merely remembered is decided again on a fresh read, as another process may have moved it on.
        if (!trusted || !(error instanceof DomainError || isRefusal(error))) throw error;
        trusting = false;
        continue;
      }
      const { appends, releasingHold } = outcome;
      appending = store
        .append(appends, {
          ...(releasingHold ? { releasingHold } : {}),
          folded: foldedAfter(appends, loaded),
          after,
        })
        .then((append) => ({ result: outcome.result, append }));
    } finally {
      giveBack?.();
    }
    try {
      return await appending;
    } catch (error) {
      const retryable =
        error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError;
      if (!retryable || attempt >= maxAttempts) throw error;
      await sleep(Math.random() * Math.min(50, 2 * attempt));
    }
  }
}

/**
 * The states the appends leave the streams the command loaded at, folded on in memory: the store hands them to the
 * next command that trusts them, which then reads nothing. An append the store answers as already done (a retry)
 * wrote no events now and keeps none (its version is not the one folded here).
 */
function foldedAfter(
  appends: readonly StreamAppend[],
  loaded: ReadonlyMap<string, FoldedAfter<unknown>>,
): FoldedAfter<unknown>[] {
  return appends.flatMap(({ streamId, events }) => {
    const fold = loaded.get(streamId);
    if (!fold || events.length === 0) return [];
    const version = fold.version + events.length;
    return [{ ...fold, state: foldNew(fold.evolve, fold.state, streamId, events, version), version }];
  });
}

/**
 * `state` with events folded on that end the stream at `version` (just appended, or about to be in the same
 * append), as the store would fold them (see asStored).
 */
export function foldNew<State>(
  evolve: (state: State, event: StoredEvent) => State,
  state: State,
  streamId: string,
  events: readonly NewEvent[],
  version: number,
): State {
  return asStored(streamId, events, version).reduce(evolve, state);
}

/**
 * Events just appended, as a fold sees them: type, data (as stored: through JSON) and stream position exact;
 * global position, transaction and recorded time are the store's to know, so command-side folds must not use them.
 */
function asStored(streamId: string, events: readonly NewEvent[], version: number): StoredEvent[] {
  const first = version - events.length + 1;
  const recordedAt = new Date();
  return events.map((e, i) => ({
    globalPosition: 0n,
    transactionId: 0n,
    streamId,
    streamPosition: first + i,
    eventId: e.event_id ?? "",
    type: e.type,
    data: jsonCopy(e.data),
    metadata: e.metadata,
    recordedAt,
  }));
}
