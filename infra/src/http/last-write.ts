import { comparePositions, Position, parsePosition } from "@skyward/contracts/position";
import type { Request, RequestHandler } from "express";
import { readCookie } from "./middleware.ts";

/**
 * Read-your-writes across page loads. A browser's reads name its last command's position in `X-Min-Position`, but
 * that position lives in the page: a page reloaded, a booking's link opened or a new tab right after a command read
 * without it, and could miss what the command wrote (a booking just held answered 404). Each command's answer that
 * carries a position also sets it in an HttpOnly cookie for a minute (a refusal that still wrote too); a read without
 * the header waits for the cookie's position as for the header's, but never answers `x-stale` for it (a best effort,
 * bounded by the wait), and a read with both waits for the later.
 * Only for a minute: a position kept longer could be ahead of a database restored since, and every read would wait.
 */
export const LAST_WRITE_COOKIE = "skyward_last_write";
const LAST_WRITE_FOR_MS = 60_000;

/**
 * Sets the cookie on each command answer (any method but GET and HEAD) whose body has a `position`: a success's, or
 * a refusal's that still wrote (a failed issue's credit back).
 */
export function rememberLastWrite(secure: boolean): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const position = typeof body === "object" && body !== null && "position" in body ? body.position : null;
      if (!res.headersSent && Position.safeParse(position).success)
        res.cookie(LAST_WRITE_COOKIE, position, {
          maxAge: LAST_WRITE_FOR_MS,
          httpOnly: true,
          sameSite: "strict",
          secure,
          path: "/",
        });
      return json(body);
    };
    next();
  };
}

/**
 * The position a read waits for: the header's (`stale` flags a timed-out wait) or the last write's cookie, the later
 * of the two. A page names the position of its last successful command; a refusal that still wrote (a failed issue's
 * credit back) is known to the page by its cookie only, and the page's next read must see it (the booking's new price).
 */
export function minPositionOf(req: Request, parseHeader: (header: string) => Position) {
  const header = req.get("x-min-position");
  const fromHeader = header ? parsePosition(parseHeader(header)) : null;
  const cookie = Position.safeParse(readCookie(req, LAST_WRITE_COOKIE));
  const fromCookie = cookie.success ? parsePosition(cookie.data) : null;
  if (!fromHeader) return fromCookie ? { min: fromCookie, flagStale: false } : null;
  const later = fromCookie && comparePositions(fromCookie, fromHeader) > 0 ? fromCookie : fromHeader;
  return { min: later, flagStale: true };
}
