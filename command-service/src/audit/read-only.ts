import { NotFound } from "@skyward/infra/http/errors";
import type { RequestHandler } from "express";

/**
 * What an auditor may still send that changes nothing of the business: its own onboarding (name, and the terms it
 * must accept before any screen opens), ending its own session, and replaying a projection beside live to compare
 * them (scratch tables, dropped after; switching stays administrators').
 */
export const AUDITOR_WRITES: ReadonlySet<string> = new Set([
  "PUT /onboarding",
  "POST /account/complete",
  "PUT /account/terms",
  "DELETE /sign_out",
  "POST /audit/replays",
]);

/**
 * Auditors read everything and change nothing (issue 14): every command but signing out answers them as a route
 * they do not have (404, as for any route outside a caller's role).
 */
export const auditorsReadOnly: RequestHandler = (req, _res, next) => {
  const p = req.context?.principal;
  if (p?.userType !== "Auditor" || req.method === "GET" || req.method === "HEAD") return next();
  if (AUDITOR_WRITES.has(`${req.method} ${req.path}`)) return next();
  next(new NotFound(`No route for ${req.method} ${req.path}`, "route_not_found"));
};
