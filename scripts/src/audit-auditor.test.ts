// The Auditor user type (issue 14): reads everything, changes nothing; finds who changed a channel and when.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { AsOfResponse, AuditNames, HistoryPage, VerifyReport } from "@skyward/contracts/audit";
import { chainAll } from "@skyward/infra/audit/chain";
import { holdBooking } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const dniproChannel = demoId("channel", "dnipro");

describe("the Auditor", () => {
  let t: TestApp;
  let auditor: HttpClient;
  let locator: string;
  const signedIn = async (email: string) => {
    const client = t.client();
    await client.signInWithPassword(email, DEMO_PASSWORD);
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const agent = await signedIn("agent@dnipro.test");
    locator = await holdBooking(agent);
    // The demo world's auditor (command-service/src/world/demo-world.ts), signed in as every demo user is.
    auditor = await signedIn("auditor@skyward.test");
  }, 240_000);
  afterAll(() => t.stop());

  it("reads every tenant's bookings, balances, history and the log's verification", async () => {
    const bookings = await auditor.get("/bookings", { query: { q: locator } });
    expect(bookings.status).toBe(200);
    expect(bookings.body.data.map((b: { locator: string }) => b.locator)).toEqual([locator]);
    expect((await auditor.get(`/bookings/${locator}`)).status).toBe(200);
    expect((await auditor.get("/balances")).body.data.length).toBeGreaterThan(1);
    await chainAll(t.db.pool);
    const history = HistoryPage.parse((await auditor.get("/audit/events", { query: { locator } })).body.data);
    expect(history.events.length).toBeGreaterThan(0);
    expect(VerifyReport.parse((await auditor.get("/audit/verify")).body.data).ok).toBe(true);
    expect((await auditor.get("/audit/anchors")).status).toBe(200);
  });

  it("changes nothing: every command answers 403 auditor_read_only, an unknown route 404", async () => {
    const attempts = [
      await auditor.post("/bookings/issue", { locator }),
      await auditor.delete(`/bookings/${locator}`),
      await auditor.post("/offers", {}),
      await auditor.patch(`/ticketing/agency_channels/${dniproChannel}`, { on_by_supervisor: false }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe("auditor_read_only");
    }
    const unknown = await auditor.post("/bookings/no_such_command", { locator });
    expect([unknown.status, unknown.body.errors[0].code]).toEqual([404, "route_not_found"]);
    const booking = await t.app.store.readStream(`booking-${locator}`);
    expect(booking.map((e) => e.type)).toEqual(["BookingHeld"]);
  });

  it("changes its own language and profile, and nothing else of its account's business", async () => {
    const locale = await auditor.put("/account/details/update_locale", { language: "fr" });
    expect(locale.status).toBe(200);
    const profile = await auditor.put("/account/details", { account: { first_name: "Audra" } });
    expect(profile.status).toBe(200);
    const details = await auditor.get("/account/details", {
      headers: { "x-min-position": profile.body.position },
    });
    expect(details.body.account).toMatchObject({ first_name: "Audra", language: "fr" });
    const events = await t.app.store.readStream(`user-${demoId("user", "auditor")}`);
    expect(events.slice(-2).map((e) => e.type)).toEqual(["LocaleChanged", "AccountDetailsUpdated"]);
  });

  it("finds who switched a channel off and when, and the channel as it was before", async () => {
    const supervisor = await signedIn("supervisor@dnipro.test");
    const before = new Date().toISOString();
    await sleep(20);
    const off = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      on_by_supervisor: false,
    });
    expect(off.status).toBe(200);
    await sleep(20);
    const after = new Date().toISOString();
    await chainAll(t.db.pool);
    const history = HistoryPage.parse(
      (await auditor.get("/audit/events", { query: { stream_id: `channel-${dniproChannel}`, from: before } }))
        .body.data,
    );
    const change = history.events.at(-1);
    expect(change?.metadata.actor).toEqual({
      user_id: demoId("user", "dnipro-supervisor"),
      role: "Supervisor",
    });
    // The screen names the actor: the directory's name beside the id.
    expect(change?.actor_name).toBe("Olena Kovalenko");
    expect(Date.parse(change?.recorded_at ?? "")).toBeGreaterThanOrEqual(Date.parse(before));
    expect(Date.parse(change?.recorded_at ?? "")).toBeLessThanOrEqual(Date.parse(after));
    const travelled = AsOfResponse.parse(
      (
        await auditor.get(`/audit/as_of/channel/${dniproChannel}`, {
          query: { at: before, compare: after },
        })
      ).body.data,
    );
    expect(travelled.changes).toEqual(
      expect.arrayContaining([{ path: "/active_by_supervisor", before: true, after: false }]),
    );
  });

  it("finds people and companies by name for the history's pickers, each caller within their own history", async () => {
    const names = async (client: HttpClient, q: string) => {
      const res = await client.get("/audit/names", { query: { q } });
      expect(res.status).toBe(200);
      return AuditNames.parse(res.body.data);
    };
    // The auditor reads the whole log: anyone, any company.
    const found = await names(auditor, "kovalenko");
    expect(found.people).toEqual([
      { id: demoId("user", "dnipro-supervisor"), name: "Olena Kovalenko", role: "Supervisor" },
    ]);
    expect((await names(auditor, "Vistula")).companies.map((c) => c.name)).toEqual(["Vistula Warszawa"]);
    // A supervisor finds the agency's people and companies, not another agency's.
    const supervisor = await signedIn("supervisor@dnipro.test");
    expect((await names(supervisor, "Shevchuk")).people.map((person) => person.name)).toEqual([
      "Taras Shevchuk",
    ]);
    expect((await names(supervisor, "Nowak")).people).toEqual([]);
    expect((await names(supervisor, "Vistula")).companies).toEqual([]);
    expect((await names(supervisor, "Dnipro Travel")).companies.map((c) => c.name)).toEqual([
      "Dnipro Travel Kyiv",
      "Dnipro Travel Lviv",
    ]);
    // An agent finds themself and their companies only.
    const agent = await signedIn("agent@dnipro.test");
    expect((await names(agent, "Kovalenko")).people).toEqual([]);
    expect((await names(agent, "Taras")).people.map((person) => person.id)).toEqual([
      demoId("user", "dnipro-agent"),
    ]);
    expect((await names(agent, "Dnipro")).companies.map((c) => c.name)).toEqual(["Dnipro Travel Kyiv"]);
    // An id found again names it (a picker's value read back from the address); a pattern's wildcards are text.
    expect(
      (await names(auditor, demoId("user", "dnipro-supervisor"))).people.map((person) => person.name),
    ).toEqual(["Olena Kovalenko"]);
    // A pattern's wildcards are taken as text, and a blank query is refused.
    expect((await names(auditor, "%")).people).toEqual([]);
    expect((await auditor.get("/audit/names", { query: { q: " " } })).status).toBe(422);
  });

  it("signs out", async () => {
    expect((await auditor.delete("/sign_out")).status).toBe(200);
  });
});
