import type { EventMetadata } from "@skyward/contracts/metadata";

export type ExpectedVersion = "any" | "no_stream" | "stream_exists" | number;

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** Set it to make a retried append a no-op; random otherwise. */
  event_id?: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface StreamAppend {
  streamId: string;
  /** Defaults to the part of the stream id before the first "-". */
  streamType?: string;
  expected: ExpectedVersion;
  events: readonly NewEvent[];
}

export interface AppendResult {
  /** Version of each stream after the append (last stream position; 0 = no events). */
  versions: Record<string, number>;
  /** Feed position of the last event written (for a retried append: the original's), null for an empty append. */
  position: { tx: bigint; gp: bigint } | null;
}

export interface StoredEvent<Type extends string = string, Data = unknown> {
  globalPosition: bigint;
  transactionId: bigint;
  streamId: string;
  streamPosition: number;
  eventId: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
}
