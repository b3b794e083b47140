import type pg from "pg";

/**
 * How long an unexecuted plan is kept after it expires: meanwhile an execute of it still answers 410 (expired)
 * rather than 404, and support can see what was proposed.
 */
export const KEEP_EXPIRED_PLANS_S = 24 * 60 * 60;

/**
 * Deletes plans never executed, well after they expired (job purge-assistant-plans). Plans that ran (executed,
 * failed part-way, or still marked running by a process that died mid-plan) are kept: events they wrote name them as
 * their causation. Returns how many were deleted.
 */
export async function purgeUnexecutedPlans(
  pool: Pick<pg.Pool, "query">,
  keepExpiredForS = KEEP_EXPIRED_PLANS_S,
): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM app.assistant_plans
      WHERE status = 'ready' AND executed_at IS NULL AND expires_at < now() - make_interval(secs => $1)`,
    [keepExpiredForS],
  );
  return rowCount ?? 0;
}
