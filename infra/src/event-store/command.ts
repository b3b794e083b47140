import { setTimeout as sleep } from "node:timers/promises";
import { StreamOrderConflictError, WrongExpectedVersionError } from "./errors.ts";
import type { EventStore } from "./event-store.ts";
import type { AppendResult, StoredEvent, StreamAppend } from "./types.ts";

export interface Loaded<State> {
  state: State;
  /** Stream version the state was folded from (0 = no stream). */
  version: number;
}

export interface CommandContext {
  /** Reads a stream and folds it; the version read becomes the expected version of `appendTo`. */
  load<State>(
    streamId: string,
    evolve: (state: State, event: StoredEvent) => State,
    initial: State,
  ): Promise<Loaded<State>>;
}

export interface CommandOutcome<Result> {
  appends: StreamAppend[];
  result: Result;
}

/**
 * The command handler's loop: read → fold → decide → append with the versions read. A conflict caused by a
 * concurrent writer of the same stream re-runs the whole decision on fresh state, so two racing agents get one
 * success and one answer decided on the winner's outcome.
 */
export async function runCommand<Result>(
  store: EventStore,
  work: (ctx: CommandContext) => Promise<CommandOutcome<Result>>,
  options: { maxAttempts?: number } = {},
): Promise<{ result: Result; append: AppendResult }> {
  const maxAttempts = options.maxAttempts ?? 50;
  for (let attempt = 1; ; attempt++) {
    const ctx: CommandContext = {
      load: (streamId, evolve, initial) => store.fold(streamId, evolve, initial),
    };
    const outcome = await work(ctx);
    try {
      const append = await store.append(outcome.appends);
      return { result: outcome.result, append };
    } catch (error) {
      const retryable =
        error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError;
      if (!retryable || attempt >= maxAttempts) throw error;
      await sleep(Math.random() * Math.min(50, 2 * attempt));
    }
  }
}
