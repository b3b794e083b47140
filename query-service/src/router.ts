import { Router } from "express";
import type { QueryDeps } from "./deps.ts";
import { directoryRoutes } from "./directory/routes.ts";

/** Every read the query service answers; it reads schema `read` only. */
export function queryRouter(deps: QueryDeps): Router {
  const router = Router();
  router.use(directoryRoutes(deps));
  return router;
}
