import { Forbidden } from "@skyward/infra/http/errors";
import type { RequestHandler, Router } from "express";

/**
 * What an auditor may still send that changes nothing of the business: its own onboarding (name, and the terms it
 * must accept before any screen opens), its own profile and language, its own notification inbox (read marks, switches), ending its own session, and replaying a
 * projection beside live to compare them (scratch tables, dropped after; switching stays administrators').
 */
export const AUDITOR_WRITES: ReadonlySet<string> = new Set([
  "PUT /onboarding",
  "POST /account/complete",
  "PUT /account/terms",
  "PUT /account/details",
  "PUT /account/details/update_locale",
  "DELETE /sign_out",
  "POST /notifications/read",
  "PUT /notification_settings",
  "POST /audit/replays",
]);

interface Layer {
  match(path: string): unknown;
  route?: { _handlesMethod(method: string): boolean };
  handle?: { stack?: readonly Layer[] };
}

/** Whether `router` (nested routers included) has a route for this method and path. */
function routes(stack: readonly Layer[], method: string, path: string): boolean {
  return stack.some((layer) => {
    if (!layer.match(path)) return false;
    if (layer.route) return layer.route._handlesMethod(method);
    return layer.handle?.stack ? routes(layer.handle.stack, method, path) : false;
  });
}

/**
 * Auditors read everything and change nothing (issue 14): every other command of `router` answers them 403
 * `auditor_read_only`, a route outside their role; a path no route answers is left to the 404 as for anyone.
 */
export function auditorsReadOnly(router: Router): RequestHandler {
  return (req, _res, next) => {
    const p = req.context?.principal;
    if (p?.userType !== "Auditor" || req.method === "GET" || req.method === "HEAD") return next();
    if (AUDITOR_WRITES.has(`${req.method} ${req.path}`)) return next();
    if (!routes((router as unknown as { stack: readonly Layer[] }).stack, req.method, req.path))
      return next();
    next(
      new Forbidden(
        `Auditors read and change nothing: ${req.method} ${req.path} is for the other user types`,
        "auditor_read_only",
      ),
    );
  };
}
