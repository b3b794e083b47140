import pg from "pg";
import { type Statement, StatementBatch } from "../db.ts";

/** A projection's checkpoint moved from `from` to `to` with the statements applying the events between. */
export interface CheckpointMove {
  projection: string;
  generation: number;
  from: { tx: bigint; gp: bigint };
  to: { tx: bigint; gp: bigint };
  /** Also fails when a rebuild took the generation out of service (see runtime.ts checkpointCas). */
  live: boolean;
  statements: readonly Statement[];
}

/** Commits one move on its own; false when its compare-and-set failed (another instance, or a rebuild). */
export type SoloCommit = (move: CheckpointMove) => Promise<boolean>;

/**
 * The compare-and-set of several checkpoints in one statement: raises SK001 (read.checkpoint_moved) unless every one
 * of them matched, so the transaction it opens applies all the moves or none.
 */
export function groupedCas(moves: readonly CheckpointMove[]): Statement {
  return {
    text: `WITH wanted AS (
        SELECT * FROM unnest($1::text[], $2::int[], $3::xid8[], $4::bigint[], $5::xid8[], $6::bigint[], $7::boolean[])
          AS w(projection, generation, to_tx, to_gp, from_tx, from_gp, live)),
      moved AS (
        UPDATE read.checkpoints c SET last_tx = w.to_tx, last_gp = w.to_gp, updated_at = now()
          FROM wanted w
         WHERE c.projection = w.projection AND c.generation = w.generation
           AND c.last_tx = w.from_tx AND c.last_gp = w.from_gp
           AND (NOT w.live
                OR EXISTS (SELECT FROM read.projections p
                            WHERE p.name = w.projection AND p.generation = w.generation FOR SHARE))
        RETURNING 1)
      SELECT read.checkpoint_moved(CASE WHEN count(*) = $8 THEN 1 ELSE 0 END),
             set_config('synchronous_commit', 'off', true)
        FROM moved`,
    values: [
      moves.map((m) => m.projection),
      moves.map((m) => m.generation),
      moves.map((m) => m.to.tx.toString()),
      moves.map((m) => m.to.gp.toString()),
      moves.map((m) => m.from.tx.toString()),
      moves.map((m) => m.from.gp.toString()),
      moves.map((m) => m.live),
      moves.length,
    ],
  };
}

/**
 * One transaction per feed batch across the projections of a process (issue 26). The runners of a process read the
 * same batch from the shared feed and reach their commit in the same turn of the event loop; the moves submitted
 * before the next turn are sent as one pipelined transaction (BEGIN, one compare-and-set for every checkpoint, each
 * projection's statements, COMMIT): one round trip and one commit instead of one per projection. When that
 * transaction fails for any reason (a checkpoint moved by another instance, a rebuild, one projection's bad
 * statement), each move is committed again on its own, so the outcome of every move is what it would have been
 * alone and one failing projection never holds the others back.
 */
export class CommitGroup {
  private queue: { move: CheckpointMove; settle: (moved: Promise<boolean>) => void }[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly solo: SoloCommit,
  ) {}

  commit(move: CheckpointMove): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ move, settle: (moved) => moved.then(resolve, reject) });
    });
  }

  private flush(): void {
    const queued = this.queue;
    this.queue = [];
    const only = queued[0];
    if (queued.length === 1 && only) {
      only.settle(this.solo(only.move));
      return;
    }
    const together = this.together(queued.map((q) => q.move));
    for (const { move, settle } of queued) settle(together.then((ok) => (ok ? true : this.solo(move))));
  }

  /** The moves in one transaction: true when all were applied; false (nothing written) when any failed. */
  private async together(moves: readonly CheckpointMove[]): Promise<boolean> {
    const batch = new StatementBatch();
    batch.add("BEGIN");
    const cas = groupedCas(moves);
    batch.add(cas.text, cas.values);
    for (const move of moves) for (const { text, values } of move.statements) batch.add(text, values);
    batch.add("COMMIT");
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return false; // each move then meets the same failure on its own, and reports it
    }
    const ignoreLostConnection = () => {};
    client.on("error", ignoreLostConnection);
    let broken: Error | undefined;
    try {
      await batch.send(client);
      return true;
    } catch (error) {
      // A refusal by the server leaves the connection usable once rolled back; anything else (a lost connection)
      // throws it away.
      broken = error instanceof pg.DatabaseError ? undefined : (error as Error);
      if (!broken) await client.query("ROLLBACK").catch(() => {});
      return false;
    } finally {
      client.off("error", ignoreLostConnection);
      client.release(broken);
    }
  }
}
