// Issue 30: /metrics after a booking flow, scraped over real HTTP from the real app on real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { contacts, inDays, passenger } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

type Samples = { name: string; labels: Record<string, string>; value: number }[];

/** The Prometheus text format's samples (no comments), labels unescaped. */
function parse(text: string): Samples {
  const samples: Samples = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g))
      labels[key as string] = (value as string).replace(/\\(.)/g, "$1");
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
function sum(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<Samples> {
  const res = await fetch(`${t.app.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

describe("/metrics after a booking flow", () => {
  let t: TestApp;
  let agent: HttpClient;
  let before: Samples;
  let after: Samples;
  let locator: string;
  const delta = (name: string, labels: Record<string, string> = {}) =>
    sum(after, name, labels) - sum(before, name, labels);

  beforeAll(async () => {
    t = await startTestApp({ rateLimits: { codesPerEmailAndIp: { max: 2, windowSeconds: 600 } } });
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
    before = await scrape(t);
    // A wrong code: one sign-in failure.
    const stranger = t.client();
    await stranger.post("/start_sign_in", { account: { email: "agent@kyiv.test", language: "en" } });
    const wrong = await stranger.post("/sign_in", {
      account: { email: "agent@kyiv.test", otp_attempt: "000000" },
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    // Past the limit of codes for one address: one rate-limit refusal.
    await stranger.post("/start_sign_in", { account: { email: "agent@kyiv.test", language: "en" } });
    const limited = await stranger.post("/start_sign_in", {
      account: { email: "agent@kyiv.test", language: "en" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].code).toBe("code_requests_limited");
    // The flow: search, book, issue, void.
    const search = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO", "LH", "OS", "TK"],
    });
    expect(search.status).toBe(200);
    const result = search.body.result;
    const booked = await agent.post("/bookings", {
      search_result_id: result.id,
      fare_id: result.origin_destinations[0].fares[0].fare_id,
      passengers: [passenger("Ivan", "Petrenko")],
      contacts,
    });
    expect(booked.status).toBe(201);
    locator = booked.body.locator;
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    // A second issue of the same booking is refused with its code.
    const again = await agent.post("/bookings/issue", { locator });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    const page = await agent.get(`/bookings/${locator}`, {
      headers: { "x-min-position": issued.body.position },
    });
    expect(page.status).toBe(200);
    // The projectors have applied it all: the lag figures read 0.
    for (let i = 0; i < 100; i++) {
      after = await scrape(t);
      if (sum(after, "skyward_projection_lag_events") === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    (globalThis as { refusedCode?: string }).refusedCode = again.body.errors[0].code;
  });
  afterAll(() => t.stop());

  it("counts HTTP requests by route template, method and status, never by path", () => {
    expect(
      delta("skyward_http_request_duration_seconds_count", {
        route: "/offers",
        method: "POST",
        status: "200",
      }),
    ).toBe(1);
    expect(
      delta("skyward_http_request_duration_seconds_count", {
        route: "/bookings",
        method: "POST",
        status: "201",
      }),
    ).toBe(1);
    expect(
      delta("skyward_http_request_duration_seconds_count", {
        route: "/bookings/:locator",
        method: "GET",
        status: "200",
      }),
    ).toBe(1);
    expect(
      delta("skyward_http_request_duration_seconds_bucket", { route: "/offers", method: "POST", le: "+Inf" }),
    ).toBe(1);
    // No label anywhere carries the locator, an e-mail or a session.
    for (const s of after)
      for (const value of Object.values(s.labels)) {
        expect(value).not.toContain(locator);
        expect(value).not.toContain("@");
      }
  });

  it("counts commands by route and outcome: accepted, refused with its code", () => {
    expect(delta("skyward_commands_total", { command: "POST /bookings", outcome: "accepted" })).toBe(1);
    expect(delta("skyward_commands_total", { command: "POST /bookings/issue", outcome: "accepted" })).toBe(1);
    const code = (globalThis as { refusedCode?: string }).refusedCode as string;
    expect(
      delta("skyward_commands_total", { command: "POST /bookings/issue", outcome: "refused", code }),
    ).toBe(1);
    expect(
      delta("skyward_commands_total", {
        command: "POST /start_sign_in",
        outcome: "refused",
        code: "code_requests_limited",
      }),
    ).toBe(1);
  });

  it("times event-store appends and counts their events", () => {
    // At least the booking and the issue (the sign-in's own events and the job's come on top).
    expect(
      delta("skyward_event_store_append_duration_seconds_count", { outcome: "ok" }),
    ).toBeGreaterThanOrEqual(2);
    expect(delta("skyward_event_store_append_events_sum")).toBeGreaterThanOrEqual(
      delta("skyward_event_store_append_events_count"),
    );
    expect(after.some((s) => s.name === "skyward_event_store_version_conflicts_total")).toBe(true);
  });

  it("shows every projector's position and its lag behind the feed", async () => {
    const head = await t.app.store.headPosition();
    const names = t.app.runners.map((r) => r.projection.name);
    expect(names.length).toBeGreaterThan(5);
    for (const projection of names) {
      expect(sum(after, "skyward_projection_lag_events", { projection })).toBe(0);
      expect(sum(after, "skyward_projection_lag_seconds", { projection })).toBe(0);
      expect(sum(after, "skyward_projection_position", { projection })).toBeLessThanOrEqual(Number(head?.gp));
    }
    // Caught up with everything committed by the issue (the feed's order is by transaction, then position).
    expect(sum(after, "skyward_projection_lag_events")).toBe(0);
    expect(
      Math.max(...names.map((projection) => sum(after, "skyward_projection_position", { projection }))),
    ).toBeGreaterThan(0);
  });

  it("counts supplier calls by operation and outcome, and the open operations", () => {
    expect(
      delta("skyward_supplier_call_duration_seconds_count", { operation: "search", outcome: "ok" }),
    ).toBe(1);
    expect(delta("skyward_supplier_call_duration_seconds_count", { operation: "book", outcome: "ok" })).toBe(
      1,
    );
    expect(delta("skyward_supplier_call_duration_seconds_count", { operation: "issue", outcome: "ok" })).toBe(
      1,
    );
    expect(sum(after, "skyward_supplier_operations_open")).toBe(0);
    expect(sum(after, "skyward_supplier_operation_oldest_age_seconds")).toBe(0);
  });

  it("counts job runs by job and outcome, and the jobs waiting in the queue", async () => {
    const start = await scrape(t);
    await t.app.commandDeps.jobs.send("reconcile-operations", {});
    await t.app.commandDeps.jobs.send("expire-booking", { locator: "ZZZZZZ" }, { delayMs: 3_600_000 });
    let now = start;
    for (let i = 0; i < 200; i++) {
      now = await scrape(t);
      if (
        sum(now, "skyward_job_runs_total", { job: "reconcile-operations", outcome: "ok" }) >
        sum(start, "skyward_job_runs_total", { job: "reconcile-operations", outcome: "ok" })
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The job also runs every minute (its cron, command-service/src/jobs/specs.ts): a run of the schedule may fall in
    // this window beside the one sent here (seen once in a whole CI run), never more than that.
    const runs =
      sum(now, "skyward_job_runs_total", { job: "reconcile-operations", outcome: "ok" }) -
      sum(start, "skyward_job_runs_total", { job: "reconcile-operations", outcome: "ok" });
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(2);
    expect(
      sum(now, "skyward_job_run_duration_seconds_count", { job: "reconcile-operations" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(now, "skyward_job_queue_depth", { job: "expire-booking" })).toBe(1);
  });

  it("shows the job queue, the pool, sign-in failures and rate-limit refusals", () => {
    expect(after.some((s) => s.name === "skyward_job_queue_depth")).toBe(true);
    expect(sum(after, "skyward_db_pool_connections_in_use")).toBeGreaterThanOrEqual(0);
    expect(after.some((s) => s.name === "skyward_db_pool_waiting")).toBe(true);
    expect(sum(after, "skyward_db_up")).toBe(1);
    expect(delta("skyward_sign_in_failures_total")).toBe(1);
    expect(delta("skyward_sign_in_failures_total", { method: "email_code" })).toBe(1);
    expect(delta("skyward_rate_limit_refusals_total", { code: "code_requests_limited" })).toBe(1);
  });
});

describe("/metrics in production", () => {
  const SECRET = "a-production-secret-of-at-least-32-characters";

  it("is not served without METRICS_TOKEN, and asks for the token when it is set", async () => {
    const closed = await startTestApp({
      seedDemo: false,
      env: { NODE_ENV: "production", SESSION_SECRET: SECRET },
    });
    try {
      const res = await fetch(`${closed.app.url}/metrics`, { headers: { accept: "text/plain" } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("skyward_");
    } finally {
      await closed.stop();
    }
    const token = "metrics-token-0123456789abcdef";
    const guarded = await startTestApp({
      seedDemo: false,
      env: { NODE_ENV: "production", SESSION_SECRET: SECRET, METRICS_TOKEN: token },
    });
    try {
      const none = await fetch(`${guarded.app.url}/metrics`);
      expect(none.status).toBe(401);
      expect(await none.text()).not.toContain("skyward_");
      const wrong = await fetch(`${guarded.app.url}/metrics`, {
        headers: { authorization: `Bearer ${token}x` },
      });
      expect(wrong.status).toBe(401);
      const samples = await scrape(guarded, { authorization: `Bearer ${token}` });
      expect(sum(samples, "skyward_db_up")).toBe(1);
    } finally {
      await guarded.stop();
    }
  });
});
