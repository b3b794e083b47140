import type { ExpectedVersion } from "./types.ts";

/** The stream was not at the version the command expected. */
export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`wrong expected version on stream ${streamId}: expected ${expected}, actual ${actual}`);
    this.name = "WrongExpectedVersionError";
  }
}

/** An older transaction tried to append after a newer one; retrying in a new transaction succeeds. */
export class StreamOrderConflictError extends Error {
  constructor(readonly streamId: string | null) {
    super(`stream ${streamId ?? "?"} was appended by a newer transaction; retry`);
    this.name = "StreamOrderConflictError";
  }
}

/** Some but not all event ids of an append are already stored: not a retry of the same append. */
export class PartialReappendError extends Error {
  constructor(readonly streamId: string) {
    super(`some events of this append are already stored in ${streamId}`);
    this.name = "PartialReappendError";
  }
}

/** The database holds transaction ids from its future: a logical restore, unsafe for the feed. */
export class RestoredDatabaseError extends Error {
  constructor(current: string, stored: string) {
    super(
      `refusing to start: the database's transaction counter (${current}) is behind the newest stored event's ` +
        `transaction (${stored}); it looks restored from a logical dump, which would hide new events from the feed`,
    );
    this.name = "RestoredDatabaseError";
  }
}
