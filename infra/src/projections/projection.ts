import type { ProjectionWriter } from "../db.ts";
import type { StoredEvent } from "../event-store/types.ts";

/** Physical (generation-suffixed, quoted) name of each of a projection's tables, by logical name. */
export type Tables<Name extends string = string> = Record<Name, string>;

export interface Projection<Name extends string = string> {
  /** Stable name; read models are read through views `read.<table>`. */
  name: string;
  /** Code version; a change builds a new generation side by side at the next start. */
  version: number;
  eventTypes: readonly string[];
  tables: readonly Name[];
  /** DDL creating this generation's tables (names from `t`). */
  setup(t: Tables<Name>): string;
  /**
   * Writes the statements that apply a batch of handled events (set-based where it can be); they run in the
   * checkpoint's transaction, each with its parameters, pipelined with it in one round trip, so their results
   * cannot be read.
   */
  apply(writer: ProjectionWriter, events: readonly StoredEvent[], t: Tables<Name>): Promise<void>;
}

export function tablesOf<Name extends string>(
  projection: Projection<Name>,
  generation: number,
): Tables<Name> {
  const t = {} as Tables<Name>;
  for (const table of projection.tables) t[table] = `read."${table}_g${generation}"`;
  return t;
}

export function defineProjection<Name extends string>(projection: Projection<Name>): Projection<Name> {
  return projection;
}
