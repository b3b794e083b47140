import { idempotency } from "@skyward/infra/http/idempotency";
import { Router } from "express";
import type { CommandDeps } from "./deps.ts";

/** Every command and supplier call the command service answers. */
export function commandRouter(deps: CommandDeps): Router {
  const router = Router();
  router.use(idempotency(deps.pool));
  return router;
}
