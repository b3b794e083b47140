import { randomUUID } from "node:crypto";
import type { ReplayReport, ReplayRun } from "@skyward/contracts/replay";
import type pg from "pg";
import type { EventStore } from "../event-store/event-store.ts";
import { Wakeup } from "../event-store/wakeup.ts";
import { Conflict } from "../http/errors.ts";
import type { Projection } from "../projections/projection.ts";
import { replayAndCompare } from "./replay.ts";

/**
 * Replays started from the audit screen (app.replay_runs): the row a job fills in as it goes, so that any process can
 * answer the screen's polling. The replay itself is replayAndCompare, the same code as `npm run rebuild -- --compare`.
 */

interface RunRow {
  id: string;
  projection: string;
  kind: "compare" | "switch";
  status: ReplayRun["status"];
  started_by: string;
  done_events: string;
  total_events: string;
  report: ReplayReport | null;
  error: string | null;
  compare_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** How often the process running a replay stamps its run as alive. */
export const HEARTBEAT_MS = 5_000;
/** A running run not stamped for this long lost its process: it reads as failed, and its projection is free again. */
export const RUNNING_TIMEOUT = "30 seconds";
/** A queued run waits for a job runner (normally at once, by LISTEN/NOTIFY); one never picked up is given up on. */
export const QUEUED_TIMEOUT = "5 minutes";

/** An active run whose heartbeat is older than its timeout: its process is gone. */
const ABANDONED = `(status = 'running' AND heartbeat_at < now() - interval '${RUNNING_TIMEOUT}'
  OR status = 'queued' AND heartbeat_at < now() - interval '${QUEUED_TIMEOUT}')`;
/** What a run whose process died says, recorded or not yet. */
export const ABANDONED_ERROR = "abandoned: the process running it stopped";

// An abandoned run reads as failed at once, without waiting for the next start of its projection to record it.
const COLUMNS = `id, projection, kind,
  CASE WHEN ${ABANDONED} THEN 'failed' ELSE status END AS status,
  started_by, done_events, total_events, report,
  CASE WHEN ${ABANDONED} THEN '${ABANDONED_ERROR}' ELSE error END AS error,
  compare_id, created_at,
  CASE WHEN ${ABANDONED} THEN heartbeat_at ELSE finished_at END AS finished_at`;

const toRun = (r: RunRow): ReplayRun => ({
  id: r.id,
  projection: r.projection,
  kind: r.kind,
  status: r.status,
  started_by: r.started_by,
  done_events: Number(r.done_events),
  total_events: Number(r.total_events),
  report: r.report,
  error: r.error,
  compare_id: r.compare_id,
  created_at: r.created_at.toISOString(),
  finished_at: r.finished_at?.toISOString() ?? null,
});

/** A new run, queued; one replay of a projection at a time (its side-by-side tables have one name). */
export async function queueReplayRun(
  pool: pg.Pool,
  run: { projection: string; kind: "compare" | "switch"; startedBy: string; compareId?: string },
): Promise<ReplayRun> {
  // A run whose process died mid-replay would hold its projection forever: its stale heartbeat frees it.
  await pool.query(
    `UPDATE app.replay_runs SET status = 'failed', error = $2, finished_at = heartbeat_at
      WHERE projection = $1 AND ${ABANDONED}`,
    [run.projection, ABANDONED_ERROR],
  );
  try {
    const { rows } = await pool.query<RunRow>(
      `INSERT INTO app.replay_runs (id, projection, kind, status, started_by, compare_id)
       VALUES ($1, $2, $3, 'queued', $4, $5) RETURNING ${COLUMNS}`,
      [randomUUID(), run.projection, run.kind, run.startedBy, run.compareId ?? null],
    );
    return toRun(rows[0] as RunRow);
  } catch (error) {
    if ((error as { code?: string }).code === "23505")
      throw new Conflict(`A replay of ${run.projection} is already running`, "replay_running");
    throw error;
  }
}

export async function replayRun(db: Pick<pg.Pool, "query">, id: string): Promise<ReplayRun | null> {
  const { rows } = await db.query<RunRow>(`SELECT ${COLUMNS} FROM app.replay_runs WHERE id = $1`, [id]);
  return rows[0] ? toRun(rows[0]) : null;
}

export async function latestReplayRuns(db: Pick<pg.Pool, "query">, limit = 20): Promise<ReplayRun[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${COLUMNS} FROM app.replay_runs ORDER BY created_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map(toRun);
}

/** The projections in service (a replay's own bookkeeping left out), by name. */
export async function projectionsInService(db: Pick<pg.Pool, "query">): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT name FROM read.projections WHERE name NOT LIKE '%\\_\\_replay' ORDER BY name",
  );
  return rows.map((r) => r.name);
}

/**
 * Runs a queued replay: replays the projection side by side, records its progress about four times a second and
 * then the comparison; a switch run puts a fresh generation in service only if the replay still agrees with live.
 * A failure is recorded on the run (and thrown for the job's log).
 */
export async function runReplay(
  pool: pg.Pool,
  store: EventStore,
  projections: readonly Projection[],
  id: string,
  heartbeatMs = HEARTBEAT_MS,
): Promise<ReplayRun> {
  const { rows } = await pool.query<{ projection: string; kind: "compare" | "switch" }>(
    `UPDATE app.replay_runs SET status = 'running', heartbeat_at = now()
      WHERE id = $1 AND status = 'queued' AND NOT ${ABANDONED} RETURNING projection, kind`,
    [id],
  );
  const run = rows[0];
  if (!run) throw new Error(`replay run ${id} is not queued`);
  // Alive while this process is: when it dies, the heartbeat stops and the run reads as failed.
  let ours = true;
  const heartbeat = setInterval(() => {
    pool
      .query("UPDATE app.replay_runs SET heartbeat_at = now() WHERE id = $1 AND status = 'running'", [id])
      .then((r) => {
        // Given up on (a stall judged a death): it must not switch or report as if it still held the projection.
        if (r.rowCount === 0) ours = false;
      })
      // A missed stamp is retried at the next beat; only a run of misses (30 s) gives the run up.
      .catch(() => {});
  }, heartbeatMs);
  try {
    const projection = projections.find((p) => p.name === run.projection);
    if (!projection) throw new Error(`no projection named ${run.projection}`);
    const report = await replayAndCompare(pool, store, projection, {
      switchWhenEqual: run.kind === "switch",
      stillOurs: () => ours,
      onProgress(done, of) {
        pool
          .query("UPDATE app.replay_runs SET done_events = $2, total_events = $3 WHERE id = $1", [
            id,
            done,
            of,
          ])
          // Progress is for the screen only; the next report (a quarter second later) overwrites a lost one.
          .catch(() => {});
      },
    });
    const recorded: ReplayReport = {
      events: report.events,
      seconds: report.seconds,
      agree: report.agree,
      switched_to: report.switchedTo,
      tables: report.tables.map((t) => ({
        table: t.table,
        live_rows: t.liveRows,
        replay_rows: t.replayRows,
        live_checksum: t.liveChecksum,
        replay_checksum: t.replayChecksum,
        equal: t.equal,
      })),
    };
    // Running projectors pick the new generation up now rather than at their next poll (as the CLI does).
    if (report.switchedTo !== null) new Wakeup(pool).ping();
    const done = await pool.query(
      `UPDATE app.replay_runs SET status = 'done', report = $2, done_events = total_events, finished_at = now()
        WHERE id = $1 AND status = 'running'`,
      [id, JSON.stringify(recorded)],
    );
    if (done.rowCount === 0) throw new Error(`replay run ${id} was given up on as abandoned`);
  } catch (error) {
    await pool.query(
      "UPDATE app.replay_runs SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'",
      [id, (error as Error).message.slice(0, 500)],
    );
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
  return (await replayRun(pool, id)) as ReplayRun;
}
