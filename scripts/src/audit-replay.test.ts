// Replay (issue 14): every projection rebuilt side by side from the log equals the live one, table by table.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { replayAndCompare } from "@skyward/infra/audit/replay";
import { projections } from "@skyward/projectors/index";
import { holdBooking } from "./testing/bookings.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

describe("replay side by side", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    const agent = t.client();
    await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
    const locator = await holdBooking(agent);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
  });
  afterAll(() => t.stop());

  it.each(projections.map((p) => [p.name, p] as const))(
    "%s: the replay equals the live generation",
    async (_, p) => {
      const report = await replayAndCompare(t.app.pool, t.app.store, p);
      expect(report.tables.filter((table) => !table.equal)).toEqual([]);
      expect(report.agree).toBe(true);
      expect(report.tables.map((table) => table.table)).toEqual([...p.tables]);
      // The replay's tables are gone afterwards; the live views still answer.
      const { rows } = await t.app.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE '%\\_\\_replay%'",
      );
      expect(rows[0]?.n).toBe(0);
    },
  );

  it("when a booking is held right after the replay read the log, then the replay catches up with the live generation and they agree", async () => {
    const bookings = projections.find((p) => p.name === "bookings");
    if (!bookings) throw new Error("no bookings projection");
    const agent = t.client();
    await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
    // Traffic after the replay has read the log and before the comparison: the live generation moves past the replay.
    let held: Promise<string> | null = null;
    const holdOnce = async () => {
      const locator = await holdBooking(agent);
      for (let i = 0; i < 200; i++) {
        const { rowCount } = await t.app.pool.query("SELECT 1 FROM read.bookings WHERE locator = $1", [
          locator,
        ]);
        if (rowCount) return locator;
        await sleep(25);
      }
      throw new Error(`the live bookings never showed ${locator}`);
    };
    const report = await replayAndCompare(t.app.pool, t.app.store, bookings, {
      onProgress: async (done, of) => {
        if (done < of) return;
        held ??= holdOnce();
        await held;
      },
    });
    expect(held).not.toBeNull();
    const table = report.tables.find((x) => x.table === "bookings");
    const { rows } = await t.app.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM read.bookings");
    expect(table?.liveRows).toBe(rows[0]?.n);
    expect(report.tables.filter((x) => !x.equal)).toEqual([]);
    expect(report.agree).toBe(true);
  });

  it("a replay that agrees switches to a fresh generation on request; a live row changed by hand is found", async () => {
    const bookings = projections.find((p) => p.name === "bookings");
    if (!bookings) throw new Error("no bookings projection");
    const before = await t.app.pool.query<{ generation: number }>(
      "SELECT generation FROM read.projections WHERE name = 'bookings'",
    );
    const switched = await replayAndCompare(t.app.pool, t.app.store, bookings, { switchWhenEqual: true });
    expect(switched.switchedTo).toBeGreaterThan(before.rows[0]?.generation ?? 0);
    await t.app.pool.query(
      "UPDATE read.bookings SET route = 'XXX-YYY' WHERE locator IN (SELECT locator FROM read.bookings LIMIT 1)",
    );
    const differs = await replayAndCompare(t.app.pool, t.app.store, bookings, { switchWhenEqual: true });
    expect(differs.agree).toBe(false);
    expect(differs.switchedTo).toBeNull();
    expect(differs.tables.find((table) => table.table === "bookings")?.equal).toBe(false);
  });
});
