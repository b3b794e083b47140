import type { RouteCall } from "@skyward/contracts/assistant-catalogue";
import type { RequestContext } from "@skyward/infra/http/context";
import { errorHandler } from "@skyward/infra/http/middleware";
import type { Logger } from "@skyward/infra/logger";
import type { Request, Response, Router } from "express";

export interface Dispatched {
  status: number;
  body: unknown;
}

/**
 * Runs one command through the ordinary route handlers, in this process, as the same user: the request is the
 * caller's own (its session, principal and trace) with another method, path and body, and the context that marks
 * its events as the assistant's. Whatever the handler checks (role, scope, validation, state) it checks here too.
 */
export function dispatch(
  router: Router,
  req: Request,
  res: Response,
  call: RouteCall,
  context: RequestContext,
  logger: Logger,
): Promise<Dispatched> {
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : "";
  const url = `${call.path}${query}`;
  const headers = { ...req.headers };
  // The execute call's own key must not make its steps answer as repeats of each other.
  delete headers["idempotency-key"];
  const sub = Object.create(req) as Request;
  Object.assign(sub, {
    method: call.method,
    url,
    originalUrl: url,
    baseUrl: "",
    params: {},
    body: call.body ?? {},
    headers,
    context,
  });
  return new Promise<Dispatched>((resolve) => {
    let status = 200;
    let settled = false;
    const finish = (body: unknown) => {
      if (settled) return;
      settled = true;
      resolve({ status, body });
    };
    const fake = Object.create(res) as Response & Record<string, unknown>;
    const self = () => fake;
    Object.assign(fake, {
      status: (code: number) => {
        status = code;
        return fake;
      },
      json: (body: unknown) => {
        finish(body);
        return fake;
      },
      send: (body: unknown) => {
        finish(body);
        return fake;
      },
      end: () => {
        finish(undefined);
        return fake;
      },
      sendStatus: (code: number) => {
        status = code;
        finish(undefined);
        return fake;
      },
      set: self,
      header: self,
      setHeader: self,
      append: self,
      location: self,
      type: self,
      vary: self,
      cookie: self,
      clearCookie: self,
    });
    const handleError = errorHandler(logger);
    router(sub, fake, (error?: unknown) => {
      if (settled) return;
      if (error) handleError(error, sub, fake, () => undefined);
      else {
        status = 404;
        finish({ errors: [{ status: "404", code: "route_not_found", title: "Not found" }] });
      }
    });
  });
}
