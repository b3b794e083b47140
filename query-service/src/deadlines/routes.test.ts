import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { REMIND_BEFORE_MS, TimeLimitNotice } from "@skyward/contracts/deadline-events";
import { holdOneAdult, until } from "@skyward/scripts/testing/bookings";
import type { HttpClient, Json } from "@skyward/scripts/testing/http-client";
import { type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/**
 * GET /time_limit_notices (query-service/src/deadlines/routes.ts): the watchdog's notices, scoped like bookings. The
 * app runs on a clock the test moves to just inside the reminder's lead of the bookings' time limits.
 */
describe("the time-limit notices", () => {
  let t: TestApp;
  let r: Roles;
  let offsetMs = 0;
  const booked: Record<"kyiv" | "lviv" | "vistula" | "cancelled", string> = {
    kyiv: "",
    lviv: "",
    vistula: "",
    cancelled: "",
  };
  const notices = async (client: HttpClient) => {
    const res = await client.get("/time_limit_notices");
    expect(res.status).toBe(200);
    for (const n of res.body.data) expect(TimeLimitNotice.safeParse(n).error).toBeUndefined();
    return res.body.data as TimeLimitNotice[];
  };

  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(Date.now() + offsetMs), scheduleEveryMs: 100 });
    r = await signInRoles(t);
    // Nothing reminded yet: every role's list is empty.
    for (const client of Object.values(r)) expect(await notices(client)).toEqual([]);
    const held = [
      (await holdOneAdult(r.agent, "Melnyk")) as Json,
      (await holdOneAdult(r.lvivAgent, "Bondarenko")) as Json,
      (await holdOneAdult(r.otherAgent, "Kowalski")) as Json,
      (await holdOneAdult(r.agent, "Shevchenko")) as Json,
    ];
    [booked.kyiv, booked.lviv, booked.vistula, booked.cancelled] = held.map((b) => b.locator);
    const earliest = Math.min(...held.map((b) => Date.parse(b.time_limit)));
    offsetMs = earliest - Date.now() - REMIND_BEFORE_MS + 60_000;
    await until(
      async () => ((await notices(r.admin)).length === 4 ? true : undefined),
      15_000,
      "every booking reminded",
    );
    // A booking no longer held leaves the notices.
    const cancelled = await r.agent.delete(`/bookings/${booked.cancelled}`);
    expect(cancelled.body.status).toBe("cancelled");
  }, 60_000);
  afterAll(() => t.stop());

  it("shows each role the notices of the bookings it may see, soonest first, and only of held bookings", async () => {
    const expected: [keyof Roles, string[]][] = [
      ["agent", [booked.kyiv]],
      ["lvivAgent", [booked.lviv]],
      ["supervisor", [booked.kyiv, booked.lviv]],
      ["otherSupervisor", [booked.vistula]],
      ["otherAgent", [booked.vistula]],
      ["admin", [booked.kyiv, booked.lviv, booked.vistula]],
      ["auditor", [booked.kyiv, booked.lviv, booked.vistula]],
      ["demoUser", []],
    ];
    for (const [role, mine] of expected) {
      const list = await until(
        async () => {
          const got = await notices(r[role]);
          return got.some((n) => n.locator === booked.cancelled) ? undefined : got;
        },
        5000,
        "the cancelled booking gone",
      );
      expect({ role, locators: list.map((n) => n.locator).sort() }).toEqual({
        role,
        locators: [...mine].sort(),
      });
      const limits = list.map((n) => Date.parse(n.time_limit));
      expect(limits).toEqual([...limits].sort((a, b) => a - b));
    }
    const [notice] = await notices(r.agent);
    expect(notice).toMatchObject({
      locator: booked.kyiv,
      kind: "time_limit_near",
      auto_cancel_at: null,
      auto_cancelled_at: null,
      route: "KBP-WAW",
    });
    expect(typeof notice?.reminded_at).toBe("string");
    expect((await t.client().get("/time_limit_notices")).status).toBe(401);
  });
});
