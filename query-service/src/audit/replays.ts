import type { ReplayOverview } from "@skyward/contracts/replay";
import { latestReplayRuns, projectionsInService, replayRun } from "@skyward/infra/audit/replay-runs";
import { requireUserType } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { Router } from "express";
import { z } from "zod";
import type { QueryDeps } from "../deps.ts";
import { LOG_READERS } from "./routes.ts";

const RunId = z.uuid();

/** The audit screen's replays: which projections can be replayed, the latest runs, and one run's progress. */
export function replayReadRoutes({ pool }: QueryDeps): Router {
  const router = Router();

  router.get("/audit/replays", async (req, res) => {
    requireUserType(req, ...LOG_READERS);
    const data: ReplayOverview = {
      projections: await projectionsInService(pool),
      runs: await latestReplayRuns(pool),
    };
    res.json({ data });
  });

  router.get("/audit/replays/:id", async (req, res) => {
    requireUserType(req, ...LOG_READERS);
    const id = RunId.safeParse(req.params.id);
    const run = id.success ? await replayRun(pool, id.data) : null;
    if (!run) throw new NotFound("No such replay", "replay_not_found");
    res.json({ data: run });
  });

  return router;
}
