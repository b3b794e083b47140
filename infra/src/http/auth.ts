import { createHash } from "node:crypto";
import type { UserType } from "@skyward/contracts/metadata";
import { parsePosition } from "@skyward/contracts/position";
import type { Request, RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import type { ChangeNotices } from "../event-store/change-notices.ts";
import { waitForReadModels } from "../projections/read-your-writes.ts";
import type { Principal } from "./context.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { readCookie } from "./middleware.ts";

export const SESSION_COOKIE = "skyward_session";
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

interface UserRow {
  id: string;
  user_type: UserType;
  agency_id: string | null;
  company_ids: string[];
  demo_user: boolean;
}

async function loadUser(pool: pg.Pool, userId: string): Promise<UserRow | undefined> {
  const { rows } = await pool.query<UserRow>(
    "SELECT id, user_type, agency_id, company_ids, demo_user FROM read.users WHERE id = $1",
    [userId],
  );
  return rows[0];
}

const toPrincipal = (u: UserRow, sessionId: string | null): Principal => ({
  userId: u.id,
  userType: u.user_type,
  agencyId: u.agency_id,
  companyIds: u.company_ids,
  demo: u.demo_user,
  sessionId,
});

/** How long this process answers a session from memory before asking the database again. */
export const SESSION_CACHE_MS = 1000;
const SESSIONS_KEPT = 10_000;
/** A session's key in ChangeNotices: its cookie hash, as app.sessions stores it. */
const SESSION_KEY = "session:";

/**
 * Sessions resolved in the last second, by cookie hash: an agent's page makes several calls at once, and each
 * cost a database round trip. A session ended by this process is forgotten at once (forgetSession), one ended by
 * another process as soon as its notice arrives; a role change applies here within SESSION_CACHE_MS.
 */
const recentSessions = new LRUCache<string, Principal>({ max: SESSIONS_KEPT, ttl: SESSION_CACHE_MS });

/** Bumped by every session ended, so a lookup that an ending overtook is not kept. */
let sessionsEnded = 0;
/** Where this process announces the sessions it ends (set by authenticate). */
let sessionNotices: ChangeNotices | undefined;

/** Drops a session from every process's memory; call it once its ending committed. */
export function forgetSession(idHash: string): void {
  sessionsEnded++;
  recentSessions.delete(idHash);
  sessionNotices?.announce([`${SESSION_KEY}${idHash}`]);
}

function hearEndedSessions(keys: readonly string[] | "all"): void {
  if (keys === "all") {
    sessionsEnded++;
    recentSessions.clear();
    return;
  }
  for (const key of keys) {
    if (!key.startsWith(SESSION_KEY)) continue;
    sessionsEnded++;
    recentSessions.delete(key.slice(SESSION_KEY.length));
  }
}

function rememberSession(idHash: string, principal: Principal, expiresAt: number, endedBefore: number): void {
  if (sessionsEnded !== endedBefore) return;
  Object.freeze(principal.companyIds);
  Object.freeze(principal);
  const ttl = Math.min(SESSION_CACHE_MS, expiresAt - Date.now());
  if (ttl > 0) recentSessions.set(idHash, principal, { ttl });
}

/**
 * Resolves the caller from the session cookie or a bearer API token; the principal comes from the directory read
 * model, so a role or company change applies within a second (SESSION_CACHE_MS).
 */
export function authenticate(pool: pg.Pool, options: { notices?: ChangeNotices } = {}): RequestHandler {
  if (options.notices) {
    sessionNotices = options.notices;
    options.notices.onChange(hearEndedSessions);
  }
  return async (req, _res, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "")?.[1];
    if (bearer) {
      // Its last use is written at most once a minute (the account page shows it), so calls do not each commit.
      const { rows } = await pool.query<{ user_id: string }>(
        `WITH touch AS (
           UPDATE app.api_tokens SET last_used_at = now()
            WHERE token_hash = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
         )
         SELECT user_id FROM app.api_tokens WHERE token_hash = $1`,
        [sha256(bearer)],
      );
      const user = rows[0] && (await loadUser(pool, rows[0].user_id));
      if (!user) throw new Unauthorized("The API token is not valid", "invalid_token");
      req.context.principal = toPrincipal(user, null);
      req.context.source = req.get("x-skyward-source") === "extension" ? "extension" : "api";
      return next();
    }
    const cookie = readCookie(req, SESSION_COOKIE);
    if (!cookie) return next();
    const idHash = sha256(cookie);
    const recent = recentSessions.get(idHash);
    if (recent) {
      req.context.principal = recent;
      return next();
    }
    const endedBefore = sessionsEnded;
    // One read per request: the session and its user; last_seen_at is written at most once a minute, so a
    // signed-in agent's requests do not each cost a commit.
    const { rows } = await pool.query<
      { id_hash: string; user_id: string; position: string | null; expires_at: Date } & Partial<
        Omit<UserRow, "id">
      >
    >(
      `WITH touch AS (
         UPDATE app.sessions SET last_seen_at = now()
          WHERE id_hash = $1 AND last_seen_at < now() - interval '1 minute'
       )
       SELECT s.id_hash, s.user_id, s.position, s.expires_at, u.user_type, u.agency_id, u.company_ids, u.demo_user
         FROM app.sessions s LEFT JOIN read.users u ON u.id = s.user_id
        WHERE s.id_hash = $1 AND s.expires_at > now()`,
      [idHash],
    );
    const session = rows[0];
    if (!session) return next();
    let user: UserRow | undefined = session.user_type
      ? {
          id: session.user_id,
          user_type: session.user_type,
          agency_id: session.agency_id ?? null,
          company_ids: session.company_ids ?? [],
          demo_user: session.demo_user ?? false,
        }
      : undefined;
    if (!user && session.position) {
      // Signed in moments after being created: wait for the directory to catch up.
      await waitForReadModels(pool, ["directory"], parsePosition(session.position));
      user = await loadUser(pool, session.user_id);
    }
    if (user) {
      req.context.principal = toPrincipal(user, session.id_hash);
      rememberSession(idHash, req.context.principal, session.expires_at.getTime(), endedBefore);
    }
    next();
  };
}

export function requirePrincipal(req: Request): Principal {
  const principal = req.context.principal;
  if (!principal) throw new Unauthorized();
  return principal;
}

export const isAdministrator = (p: Principal) => p.userType === "Admin" || p.userType === "Support";

const ROLE_NAMES: Record<UserType, string> = {
  Agent: "agents",
  Supervisor: "supervisors",
  Admin: "Admin users",
  Support: "Support users",
  Auditor: "auditors",
};

/**
 * The 403 a signed-in caller gets on a route their user type may never use (DESIGN.md section 5): its code names
 * who may, so an API integrator can tell "not for your role" from an unknown route (404) or an id outside their
 * scope (404). "admin" in a code means the administrators, Admin and Support users (seed spec section 6).
 */
export function roleRefusal(req: Request, caller: UserType, allowed: readonly UserType[]): Forbidden {
  const detail = `${req.method} ${req.path} is for ${allowed.map((t) => ROLE_NAMES[t]).join(", ")}; you are signed in as ${caller}`;
  switch ([...allowed].sort().join(",")) {
    case "Admin":
      return new Forbidden(detail, "admin_user_only");
    case "Admin,Support":
      return new Forbidden(detail, "admin_only");
    case "Admin,Supervisor,Support":
      return new Forbidden(detail, "supervisor_or_admin_only");
    case "Admin,Auditor,Support":
      return new Forbidden(detail, "admin_or_auditor_only");
    case "Admin,Auditor,Supervisor,Support":
      return new Forbidden(detail, "supervisor_admin_or_auditor_only");
    case "Agent":
      return new Forbidden(detail, "agent_only");
    default:
      return new Forbidden(detail, "role_not_allowed");
  }
}

/** Callers whose type is not listed get a 403 naming who may (roleRefusal); anonymous callers a 401. */
export function requireUserType(req: Request, ...types: UserType[]): Principal {
  const principal = requirePrincipal(req);
  if (!types.includes(principal.userType)) throw roleRefusal(req, principal.userType, types);
  return principal;
}
