import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import { WrongExpectedVersionError } from "../event-store/errors.ts";
import { EventStore } from "../event-store/event-store.ts";
import { systemMetadata } from "../event-store/metadata.ts";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { metrics, metricsRoute, observeProcess, registry } from "./metrics.ts";

/** The value of one sample (labels given in full, in the registry's order), or undefined. */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find(
    (m) => m.name === name || name.startsWith(`${m.name}_`),
  );
  const values = (metric?.values ?? []) as {
    metricName?: string;
    labels: Record<string, unknown>;
    value: number;
  }[];
  const found = values.find(
    (v) =>
      (v.metricName ?? metric?.name) === name &&
      Object.entries(labels).every(([k, value]) => String(v.labels[k]) === value) &&
      Object.keys(v.labels).filter((k) => k !== "le").length === Object.keys(labels).length,
  );
  return found?.value;
}

const newEvent = () => ({ type: "Probed", data: {}, metadata: systemMetadata() });

describe("the metrics registry", () => {
  let db: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = new EventStore(db.pool);
  });
  afterAll(() => db.drop());

  it("counts appends, their events and version conflicts", async () => {
    const ok = (await sample("skyward_event_store_append_duration_seconds_count", { outcome: "ok" })) ?? 0;
    const events = (await sample("skyward_event_store_append_events_sum")) ?? 0;
    const conflicts = (await sample("skyward_event_store_version_conflicts_total")) ?? 0;
    const stream = `probe-${randomUUID()}`;
    await store.append({
      streamId: stream,
      expected: "no_stream",
      events: [newEvent(), newEvent(), newEvent()],
    });
    await expect(
      store.append({ streamId: stream, expected: "no_stream", events: [newEvent()] }),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await sample("skyward_event_store_append_duration_seconds_count", { outcome: "ok" })).toBe(ok + 1);
    expect(await sample("skyward_event_store_append_events_sum")).toBe(events + 3);
    expect(await sample("skyward_event_store_version_conflicts_total")).toBe(conflicts + 1);
  });

  it("shows a projector behind the feed: the events after its position and the age of the oldest", async () => {
    const stream = `lag-${randomUUID()}`;
    const first = await store.append({ streamId: stream, expected: "no_stream", events: [newEvent()] });
    await new Promise((r) => setTimeout(r, 1100));
    await store.append({ streamId: stream, expected: 1, events: [newEvent(), newEvent()] });
    // A projector that applied up to just before the first of these three events.
    const at = first.position ?? { tx: 0n, gp: 0n };
    const { rows } = await db.pool.query<{ tx: string; gp: string }>(
      `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events
        WHERE (transaction_id, global_position) < ($1::text::xid8, $2::bigint)
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
      [String(at.tx), String(at.gp)],
    );
    const before = rows[0] ? { tx: BigInt(rows[0].tx), gp: BigInt(rows[0].gp) } : { tx: 0n, gp: 0n };
    const stop = observeProcess({ pool: db.pool, projectors: () => [{ name: "behind", position: before }] });
    try {
      expect(await sample("skyward_projection_lag_events", { projection: "behind" })).toBe(3);
      expect(await sample("skyward_projection_lag_seconds", { projection: "behind" })).toBeGreaterThanOrEqual(
        1,
      );
      expect(await sample("skyward_projection_position", { projection: "behind" })).toBe(Number(before.gp));
      expect(await sample("skyward_db_up")).toBe(1);
    } finally {
      stop();
    }
    // Gone with its process: no figure for a projector nobody runs.
    await new Promise((r) => setTimeout(r, 600));
    expect(await sample("skyward_projection_lag_events", { projection: "behind" })).toBeUndefined();
  });

  it("folds a label value outside the closed sets (an e-mail, a path) into 'other'", async () => {
    metrics.signInFailed("email_code", "someone@example.test");
    metrics.projectionFailed("bookings");
    expect(await sample("skyward_sign_in_failures_total", { method: "email_code", reason: "other" })).toBe(1);
    expect(await sample("skyward_projection_failures_total", { projection: "bookings" })).toBe(1);
    expect((await registry.metrics()).includes("someone@example.test")).toBe(false);
  });
});

describe("GET /metrics", () => {
  async function serve(options: { production: boolean; token?: string }) {
    const app = express();
    app.use(metricsRoute(options));
    app.use((_req, res) => {
      res.status(404).json({ errors: [{ status: "404", code: "not_found", title: "Not found" }] });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    return { url, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it("is open outside production, refused in production without a token, and asks for the token when set", async () => {
    const dev = await serve({ production: false });
    const prod = await serve({ production: true });
    const guarded = await serve({ production: true, token: "0123456789abcdef-token" });
    try {
      const open = await fetch(dev.url);
      expect(open.status).toBe(200);
      expect(await open.text()).toContain("# TYPE skyward_http_request_duration_seconds histogram");
      expect((await fetch(prod.url)).status).toBe(404);
      expect((await fetch(guarded.url)).status).toBe(401);
      expect((await fetch(guarded.url, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      const given = await fetch(guarded.url, { headers: { authorization: "Bearer 0123456789abcdef-token" } });
      expect(given.status).toBe(200);
      expect(await given.text()).toContain("skyward_commands_total");
    } finally {
      await Promise.all([dev.close(), prod.close(), guarded.close()]);
    }
  });
});
