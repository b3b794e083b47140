import { ReplayStartRequest } from "@skyward/contracts/replay";
import { queueReplayRun, replayRun } from "@skyward/infra/audit/replay-runs";
import { requireUserType } from "@skyward/infra/http/auth";
import { IllegalState, InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import { z } from "zod";
import type { CommandDeps } from "../deps.ts";

/**
 * Who replays a projection side by side and compares it with live: administrators, and auditors, since a compare
 * changes nothing anyone reads (it builds scratch tables beside live, compares, and drops them) and checking that
 * the read models are what the log says is an auditor's job.
 */
const COMPARERS = ["Admin", "Support", "Auditor"] as const;
/** Who puts a fresh generation in service: administrators only. It replaces what every user reads, so auditors never do. */
const SWITCHERS = ["Admin", "Support"] as const;

const RunId = z.uuid();

/** POST /audit/replays (compare) and POST /audit/replays/:id/switch; each queues a replay job (jobs/registry.ts). */
export function replayRoutes(deps: CommandDeps): Router {
  const router = Router();

  router.post("/audit/replays", async (req, res) => {
    const p = requireUserType(req, ...COMPARERS);
    const { projection } = parseInput(ReplayStartRequest, req.body);
    if (!(deps.replayable ?? []).some((r) => r.name === projection))
      throw new InvalidInput([{ pointer: "/projection", detail: "is not a projection of this app" }]);
    const run = await queueReplayRun(deps.pool, { projection, kind: "compare", startedBy: p.userId });
    await deps.jobs.send("replay-projection", { run_id: run.id }, { traceId: req.context.traceId });
    res.status(202).json({ data: run });
  });

  router.post("/audit/replays/:id/switch", async (req, res) => {
    const p = requireUserType(req, ...SWITCHERS);
    const id = RunId.safeParse(req.params.id);
    const compared = id.success ? await replayRun(deps.pool, id.data) : null;
    if (!compared) throw new NotFound("No such replay", "replay_not_found");
    if (compared.kind !== "compare" || compared.status !== "done" || !compared.report?.agree)
      throw new IllegalState(
        "Only a finished comparison whose replay equals live can be switched to",
        "replay_not_agreed",
      );
    const run = await queueReplayRun(deps.pool, {
      projection: compared.projection,
      kind: "switch",
      startedBy: p.userId,
      compareId: compared.id,
    });
    await deps.jobs.send("replay-projection", { run_id: run.id }, { traceId: req.context.traceId });
    res.status(202).json({ data: run });
  });

  return router;
}
