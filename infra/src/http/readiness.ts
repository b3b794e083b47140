import type { NotReady, ProjectorReadiness, Readiness } from "@skyward/contracts/health";
import { Router } from "express";
import { clockSkewMs, clockSkewWarning } from "../clock-skew.ts";
import type { Queryable } from "../db.ts";
import type { StorageHealth } from "../storage-health.ts";

export interface ReadinessSources {
  pool: Queryable;
  /** The projectors this process runs (none in a command- or query-only process). */
  runners: readonly { status(): ProjectorReadiness }[];
  /** How long the database may take to answer before it counts as unreachable. */
  timeoutMs?: number;
  /** Whether the database can write (not while its disk is full). */
  storage?: StorageHealth;
  /** This process's clock, compared with the database's (a warning, not a failure: jobs use the database's). */
  now?: () => Date;
}

async function databaseCheck(
  pool: Queryable,
  timeoutMs: number,
  now: () => Date,
): Promise<{ database: Readiness["database"]; skewMs: number | null }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    // The answer is the database's time: the probe that it answers also measures the clocks' disagreement.
    const skewMs = await Promise.race([
      clockSkewMs(pool, now),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return {
      database: { ok: true, latency_ms: Math.round((performance.now() - started) * 10) / 10 },
      skewMs,
    };
  } catch (error) {
    return {
      database: { ok: false, error: error instanceof Error ? error.message : String(error) },
      skewMs: null,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for a process manager or load balancer: `GET /health` (liveness: the process answers) and `GET /ready`
 * (readiness: the database answers and no projector of this process is stuck failing), 503 when not ready.
 */
export function probeRoutes(sources: ReadinessSources): Router {
  const router = Router();
  router.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/ready", async (_req, res) => {
    const { database, skewMs } = await databaseCheck(
      sources.pool,
      sources.timeoutMs ?? 1000,
      sources.now ?? (() => new Date()),
    );
    const warning = skewMs === null ? null : clockSkewWarning(skewMs);
    const clock = skewMs === null ? {} : { clock: { skew_ms: skewMs, ok: warning === null } };
    const warnings = warning ? { warnings: [warning] } : {};
    const storage = (await sources.storage?.status()) ?? { ok: true };
    const projectors = sources.runners.map((r) => r.status());
    const stuck = projectors.filter((p) => p.failing);
    if (database.ok && storage.ok && stuck.length === 0) {
      const ready: Readiness = { status: "ready", database, storage, ...clock, projectors, ...warnings };
      res.json(ready);
      return;
    }
    const reasons = [
      ...(database.ok ? [] : [`database unreachable: ${database.error}`]),
      ...(storage.ok ? [] : [`database cannot write (disk full) since ${storage.since}: ${storage.error}`]),
      ...stuck.map((p) => `projector ${p.projection} failing: ${p.failing?.error}`),
    ];
    const body: NotReady = {
      errors: [{ status: "503", code: "not_ready", title: "Not ready", detail: reasons.join("; ") }],
      meta: { status: "not_ready", database, storage, ...clock, projectors, ...warnings },
    };
    res.status(503).set("Retry-After", "1").json(body);
  });
  return router;
}
