// Issue 14 over real HTTP and the real CLI: the event history scoped by role, the verifier finding a row edited in
// PostgreSQL, the JSON Lines export checked offline.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { HistoryPage, VerifyReport } from "@skyward/contracts/audit";
import { verifyExportLines } from "@skyward/infra/audit/canonical";
import { chainAll } from "@skyward/infra/audit/chain";
import { holdBooking } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { sessionCookie } from "./testing/sales.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** `npm run verify-log -- args` on the test's database: its exit code and output. */
async function verifyLog(url: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "scripts/src/verify-log.ts", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: url, NODE_OPTIONS: "" } },
    );
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

describe("audit: history, verifier, export", () => {
  let t: TestApp;
  let agent: HttpClient;
  let locator: string;
  const signedIn = async (email: string) => {
    const client = t.client();
    await client.signInWithPassword(email, DEMO_PASSWORD);
    return client;
  };
  beforeAll(async () => {
    t = await startTestApp();
    agent = await signedIn("agent@dnipro.test");
    locator = await holdBooking(agent);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    await chainAll(t.db.pool);
  });
  afterAll(() => t.stop());

  const history = async (client: HttpClient, query: Record<string, string>) => {
    const res = await client.get("/audit/events", { query });
    expect(res.status).toBe(200);
    return HistoryPage.parse(res.body.data);
  };

  it("an agent browses the history of its booking, with causation and trace on every event", async () => {
    const page = await history(agent, { locator });
    const types = page.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(["BookingHeld", "TicketingStarted", "TicketsIssued", "BalanceCharged"]),
    );
    for (const e of page.events) {
      expect(e.metadata.causation_id).toEqual(expect.any(String));
      expect(e.metadata.trace_id).toEqual(expect.any(String));
    }
    // The same events by their trace and by their stream.
    const held = page.events.find((e) => e.type === "BookingHeld") as Json;
    const byTrace = await history(agent, { trace_id: held.metadata.trace_id });
    expect(byTrace.events.map((e) => e.event_id)).toContain(held.event_id);
    const byStream = await history(agent, { stream_id: held.stream_id, limit: "1" });
    expect(byStream.events).toHaveLength(1);
    expect(byStream.next_after_seq).toBe(byStream.events[0]?.seq);
  });

  it("another agency's users see none of it; the booking's supervisor and the administrators see it", async () => {
    for (const email of ["supervisor@vistula.test", "agent@vistula.test", "demo@skyward.test"])
      expect((await history(await signedIn(email), { locator })).events).toEqual([]);
    for (const email of ["supervisor@dnipro.test", "admin@skyward.test"])
      expect((await history(await signedIn(email), { locator })).events.length).toBeGreaterThan(1);
  });

  it("bad filters answer 422, never 500", async () => {
    for (const query of [
      { from: "yesterday" },
      { limit: "1e400" },
      { locator: "\u0000" },
      { after_seq: "-1" },
    ]) {
      const res = await agent.get("/audit/events", { query });
      expect([400, 422]).toContain(res.status);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("only the log's readers verify it; the verifier names an event edited in PostgreSQL, over HTTP and the CLI", async () => {
    const refused = await agent.get("/audit/verify");
    expect([refused.status, refused.body.errors[0].code]).toEqual([403, "admin_or_auditor_only"]);
    const admin = await signedIn("admin@skyward.test");
    await chainAll(t.db.pool);
    const clean = VerifyReport.parse((await admin.get("/audit/verify")).body.data);
    expect(clean).toMatchObject({ ok: true, problem: null });
    expect(clean.checked).toBeGreaterThan(10);
    const cli = await verifyLog(t.db.url, []);
    expect(cli).toMatchObject({ code: 0, out: expect.stringContaining("OK:") });

    const anchors = (await admin.get("/audit/anchors")).body;
    expect(anchors.anchors.length).toBeGreaterThan(0);
    const dir = await mkdtemp(join(os.tmpdir(), "skyward-anchors-"));
    try {
      await writeFile(join(dir, "anchors.json"), JSON.stringify(anchors));
      const { rows } = await t.db.pool.query<{ event_id: string }>(
        `UPDATE es.events SET data = jsonb_set(data, '{locator}', '"FORGED"')
          WHERE stream_id = $1 AND event_type = 'BookingHeld' RETURNING event_id::text`,
        [`booking-${locator}`],
      );
      const edited = rows[0]?.event_id;
      const report = VerifyReport.parse((await admin.get("/audit/verify")).body.data);
      expect(report.ok).toBe(false);
      expect(report.problem).toMatchObject({ kind: "edited", event_id: edited });
      const tampered = await verifyLog(t.db.url, [`--anchors=${join(dir, "anchors.json")}`]);
      expect(tampered.code).toBe(1);
      expect(tampered.out).toContain(`TAMPERED: edited`);
      expect(tampered.out).toContain(edited);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an export verifies offline; the export of the stream whose row was edited does not", async () => {
    const signIn = await t.client().signInWithPassword("supervisor@dnipro.test", DEMO_PASSWORD);
    const cookie = sessionCookie(signIn);
    const supervisor = await signedIn("supervisor@dnipro.test");
    const page = await history(supervisor, { locator });
    const balance = page.events.find((e) => e.stream_id.startsWith("balance-"))?.stream_id as string;
    const exportOf = async (stream: string) => {
      const res = await fetch(`${t.app.url}/audit/export?stream_id=${encodeURIComponent(stream)}`, {
        headers: { cookie },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/x-ndjson");
      return (await res.text()).trimEnd().split("\n");
    };
    const clean = await exportOf(balance);
    expect(clean.length).toBeGreaterThan(1);
    expect(verifyExportLines(clean)).toMatchObject({ ok: true, events: clean.length - 1 });
    // The previous test edited the booking's BookingHeld row in PostgreSQL: its export no longer checks out.
    const edited = verifyExportLines(await exportOf(`booking-${locator}`));
    expect(edited).toMatchObject({ ok: false, problem: { problem: { kind: "edited" } } });
  });
});
