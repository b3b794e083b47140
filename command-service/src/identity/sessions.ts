import { randomBytes } from "node:crypto";
import type { Position } from "@skyward/contracts/position";
import { forgetSession, SESSION_COOKIE, sha256 } from "@skyward/infra/http/auth";
import { readCookie } from "@skyward/infra/http/middleware";
import type { Request, Response } from "express";
import type pg from "pg";

export const SESSION_TTL_DAYS = 14;

export interface SessionCookieOptions {
  secure: boolean;
}

/**
 * Opens a session for a user who just signed in: a new random cookie (only its sha256 is stored), and the
 * session the browser held before, if any, is ended — the session id changes at every sign-in.
 */
export async function openSession(
  pool: pg.Pool,
  req: Request,
  res: Response,
  session: { userId: string; position: Position; now: Date },
  options: SessionCookieOptions,
): Promise<void> {
  const previous = readCookie(req, SESSION_COOKIE);
  if (previous) {
    await pool.query("DELETE FROM app.sessions WHERE id_hash = $1", [sha256(previous)]);
    forgetSession(sha256(previous));
  }
  const value = randomBytes(32).toString("base64url");
  const expires = new Date(session.now.getTime() + SESSION_TTL_DAYS * 86_400_000);
  await pool.query(
    `INSERT INTO app.sessions (id_hash, user_id, created_at, expires_at, last_seen_at, position)
     VALUES ($1, $2, $3, $4, $3, $5)`,
    [sha256(value), session.userId, session.now, expires, session.position],
  );
  res.cookie(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    path: "/",
    expires,
  });
}

/** Ends the session by its stored hash and tells the browser to forget the cookie. */
export async function closeSession(
  pool: pg.Pool,
  res: Response,
  idHash: string,
  options: SessionCookieOptions,
): Promise<void> {
  await pool.query("DELETE FROM app.sessions WHERE id_hash = $1", [idHash]);
  forgetSession(idHash);
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", secure: options.secure, path: "/" });
}
