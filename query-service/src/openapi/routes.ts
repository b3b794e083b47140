import { openApiDocument } from "@skyward/contracts/openapi";
import { Router } from "express";

/** GET /openapi.json: the public API as OpenAPI 3.1, generated from the zod contracts once per process. */
export function openApiRoutes(): Router {
  const router = Router();
  let document: string | null = null;
  router.get("/openapi.json", (_req, res) => {
    document ??= JSON.stringify(openApiDocument());
    res.type("application/json").send(document);
  });
  return router;
}
