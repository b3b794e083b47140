// The idempotency middleware's lease, over real HTTP and PostgreSQL, with short leases (long enough that a loaded CI
// machine, whose timers and queries run late by a few hundred milliseconds, does not let a renewed lease lapse).
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { createHttpApp } from "./app.ts";
import { idempotency } from "./idempotency.ts";
import { Csrf } from "./middleware.ts";

let db: TestDatabase;
let base: string;
let close: () => Promise<void>;
const runs = { slow: 0, empty: 0, failing: 0 };
const LEASE_MS = 1500;

beforeAll(async () => {
  db = await createTestDatabase();
  const csrf = new Csrf({ secret: "idempotency-test", secureCookies: false });
  const app = createHttpApp({ logger: pino({ level: "silent" }), csrf }, (app) => {
    app.get("/csrf", (req, res) => {
      res.json({ token: csrf.tokenFor(req, res) });
    });
    app.use(idempotency(db.pool, { leaseMs: LEASE_MS, waitMs: 200 }));
    app.post("/slow", async (req, res) => {
      runs.slow++;
      await sleep((req.body as { ms: number }).ms);
      res.status(201).json({ run: runs.slow });
    });
    app.post("/empty", (_req, res) => {
      runs.empty++;
      res.status(204).end();
    });
    app.post("/failing", () => {
      runs.failing++;
      throw new Error("a fault of the server's own");
    });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close();
  await db.drop();
});

let browser: { cookie: string; token: string } | null = null;

/** A browser's POST (one browser throughout: its CSRF cookie is the scope of its keys), JSON, with a key. */
async function post(path: string, body: unknown, key: string) {
  if (!browser) {
    const csrf = await fetch(`${base}/csrf`);
    const cookie = (csrf.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    browser = { cookie, token: ((await csrf.json()) as { token: string }).token };
  }
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: browser.cookie,
      "x-csrf-token": browser.token,
      "idempotency-key": key,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

describe("idempotency leases", () => {
  it("when the first request runs longer than a lease, then it renews its lease and a repeat meanwhile is told 409", async () => {
    const first = post("/slow", { ms: 4 * LEASE_MS }, "slow-1");
    await sleep(2.5 * LEASE_MS); // more than twice the lease: only renewals keep the key
    const repeat = await post("/slow", { ms: 4 * LEASE_MS }, "slow-1");
    expect(repeat.status).toBe(409);
    expect(repeat.body.errors[0].code).toBe("idempotency_in_progress");
    expect((await first).body).toEqual({ run: 1 });
    const replay = await post("/slow", { ms: 4 * LEASE_MS }, "slow-1");
    expect(replay).toMatchObject({ status: 201, body: { run: 1 } });
    expect(runs.slow).toBe(1);
  });

  it("when the request holding a key stops renewing it (its process died), then the key is free once the lease runs out", async () => {
    expect((await post("/slow", { ms: 10 }, "slow-2")).status).toBe(201);
    // The row a process killed mid-request leaves behind: no answer, a lease nobody renews.
    await db.pool.query(
      `UPDATE app.idempotency_keys SET status = NULL, response = NULL,
              lease_until = now() + $1 * interval '1 millisecond' WHERE key = 'slow-2'`,
      [LEASE_MS],
    );
    const before = runs.slow;
    const tooSoon = await post("/slow", { ms: 10 }, "slow-2");
    expect(tooSoon.status).toBe(409);
    await sleep(LEASE_MS + 100);
    const retried = await post("/slow", { ms: 10 }, "slow-2");
    expect(retried).toMatchObject({ status: 201, body: { run: before + 1 } });
    expect(runs.slow).toBe(before + 1);
    expect((await post("/slow", { ms: 10 }, "slow-2")).headers.get("idempotent-replayed")).toBe("true");
  });

  it("when the first answer has no body to replay, then the key is released and a repeat runs again", async () => {
    expect((await post("/empty", {}, "empty-1")).status).toBe(204);
    expect((await post("/empty", {}, "empty-1")).status).toBe(204);
    expect(runs.empty).toBe(2);
  });

  it("when the first request fails on the server, then the key is released and a repeat runs again", async () => {
    expect((await post("/failing", {}, "failing-1")).status).toBe(500);
    expect((await post("/failing", {}, "failing-1")).status).toBe(500);
    expect(runs.failing).toBe(2);
  });
});
