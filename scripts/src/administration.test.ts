import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Partners, companies, people and connection requests over real HTTP on a real PostgreSQL: each call's answer,
 * its events, the read models after it, and the roles table (outside the caller's scope answers 404).
 */

let t: TestApp;
let admin: HttpClient;
let support: HttpClient;
let dniproSupervisor: HttpClient;
const dnipro = demoId("agency", "dnipro");
const kyiv = demoId("company", "dnipro-kyiv");
const lviv = demoId("company", "dnipro-lviv");

beforeAll(async () => {
  t = await startTestApp();
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  support = t.client();
  await support.signInWithPassword("support@skyward.test", DEMO_PASSWORD);
  dniproSupervisor = t.client();
  await dniproSupervisor.signInWithPassword("supervisor@dnipro.test", DEMO_PASSWORD);
  // The app may take minutes to start on a loaded machine.
}, 240_000);
afterAll(() => t.stop());

/** A read that waits for the command's position (read-your-writes). */
const read = (client: HttpClient, path: string, after: HttpResponse, query?: Record<string, string>) =>
  client.get(path, { headers: { "x-min-position": after.body.position }, query });

const expectCreated = (res: HttpResponse, status = 201) => {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Json;
};

/** A route the caller's role may never use: 403 with the code naming who may (a 404 is an unknown route or id). */
const codeOf = (res: HttpResponse) => `${res.status} ${res.body?.errors?.[0]?.code}`;

/** Sessions are resolved from memory for up to a second: a role or company change shows after it. */
const afterSessionCache = () => sleep(1100);

describe("partners", () => {
  let partnerId: string;

  it("when an administrator creates a partner, then it answers the partner with the spec's fields and lists it", async () => {
    const created = await admin.post("/agencies", {
      agency: {
        name: "Carpathian Air Tours",
        markups: [{ carrier: null, charge: { kind: "percent", bps: 100 } }],
        production_api_on: true,
      },
    });
    const { partner } = expectCreated(created);
    partnerId = partner.id;
    expect(partner).toMatchObject({
      name: "Carpathian Air Tours",
      channels: [],
      supervisors: [],
      supervisors_count: 0,
      agency_transaction_fees: [{ id: partner.id, transaction_fee: null }],
      production_api_on: true,
      corporate_number_on: false,
      ghost_segments_remarks_on: false,
      markups: [{ carrier: null, charge: { kind: "percent", bps: 100 } }],
    });
    const listed = await read(admin, `/agencies/${partnerId}`, created);
    expect(listed.status).toBe(200);
    expect(listed.body.partner).toMatchObject({ id: partnerId, production_api_on: true, companies_count: 0 });
    expect((await t.events(`agency-${partnerId}`)).map((e) => e.type)).toEqual([
      "AgencyRegistered",
      "AgencyPricingSet",
      "AgencyFlagSet",
    ]);
  });

  it("when a partner is renamed, flagged and given a fee, then each change is an event with its author and shows at once", async () => {
    const renamed = await admin.patch(`/agencies/${partnerId}`, { agency: { name: "Carpathian Travel" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.partner.name).toBe("Carpathian Travel");
    const flipped = await admin.patch(`/agencies/${partnerId}/corporate_number_on`);
    expect(flipped.body.partner.corporate_number_on).toBe(true);
    const off = await admin.patch(`/agencies/${partnerId}/production_api_on`, { active: false });
    expect(off.body.partner.production_api_on).toBe(false);
    const fee = { kind: "fixed", amount: { amount: 25_00, currency: "UAH" }, per: "booking" };
    const priced = await admin.put(`/agency_transaction_fees/${partnerId}`, {
      agency_transaction_fee: { transaction_fee: fee },
    });
    expect(priced.status).toBe(200);
    expect(priced.body.partner.agency_transaction_fees).toEqual([{ id: partnerId, transaction_fee: fee }]);
    // The markups set at creation are kept when only the fee changes.
    expect(priced.body.partner.markups).toHaveLength(1);

    const history = await read(admin, "/directory_history", priced, { agency_id: partnerId });
    expect(history.body.data.map((h: Json) => h.type)).toEqual([
      "AgencyPricingSet",
      "AgencyFlagSet",
      "AgencyFlagSet",
      "AgencyUpdated",
      "AgencyFlagSet",
      "AgencyPricingSet",
      "AgencyRegistered",
    ]);
    expect(history.body.data[0].actor).toMatchObject({ role: "Admin", name: "Ada Admin" });
    // Each line links to its event; another partner's supervisor is told it does not exist.
    const line = await admin.get(history.body.data[0].link);
    expect(line.body.data).toMatchObject({
      type: "AgencyPricingSet",
      event_id: history.body.data[0].event_id,
    });
    expect((await dniproSupervisor.get(history.body.data[0].link)).status).toBe(404);
  });

  it("when a partner is sent bad input, then 422 names the field and nothing is written", async () => {
    const before = await t.countEventsButBackground();
    for (const body of [
      { agency: { name: "" } },
      { agency: { name: "x".repeat(201) } },
      { agency: { name: 5 } },
    ]) {
      const res = await admin.post("/agencies", body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe("/name");
    }
    const fee = await admin.put(`/agency_transaction_fees/${partnerId}`, {
      transaction_fee: { kind: "percent", bps: -1 },
    });
    expect(fee.status).toBe(422);
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when a partner's time zone is given or changed, then it is an event and shows; a zone that does not exist is refused, another partner's is not found", async () => {
    const created = expectCreated(
      await admin.post("/agencies", { agency: { name: "Atlantic Desk", time_zone: "Europe/Lisbon" } }),
    );
    const id = created.partner.id as string;
    expect(created.partner.time_zone).toBe("Europe/Lisbon");
    expect((await t.events(`agency-${id}`)).map((e) => [e.type, e.data.time_zone])).toEqual([
      ["AgencyRegistered", undefined],
      ["AgencyTimeZoneSet", "Europe/Lisbon"],
    ]);
    const moved = await admin.patch(`/agencies/${id}`, { agency: { time_zone: "America/New_York" } });
    expect(moved.status).toBe(200);
    expect(moved.body.partner.time_zone).toBe("America/New_York");
    // Without one, a partner writes UTC; the demo world's are their cities'.
    const plain = expectCreated(await admin.post("/agencies", { agency: { name: "Zoneless Tours" } }));
    expect(plain.partner.time_zone).toBe("UTC");
    const dnipro = await read(dniproSupervisor, `/agencies/${demoId("agency", "dnipro")}`, moved);
    expect(dnipro.body.partner.time_zone).toBe("Europe/Kyiv");

    const before = await t.countEventsButBackground();
    for (const zone of ["Mars/Olympus", "", "x".repeat(65), 3]) {
      const res = await admin.patch(`/agencies/${id}`, { agency: { time_zone: zone } });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe("/time_zone");
    }
    const vistula = demoId("agency", "vistula");
    const foreign = await dniproSupervisor.patch(`/agencies/${vistula}`, { agency: { time_zone: "UTC" } });
    expect(foreign.status).toBe(404);
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when a partner is created or renamed with another partner's name (case and spacing aside), then 409 on /name and nothing is written", async () => {
    const created = await admin.post("/agencies", { agency: { name: "Lviv  Skyline Tours" } });
    const { partner } = expectCreated(created);
    await read(admin, `/agencies/${partner.id}`, created);
    const before = await t.countEventsButBackground();
    for (const name of [
      "lviv skyline tours",
      "LVIV SKYLINE  TOURS",
      " Lviv Skyline\tTours ",
      "LvivSkylineTours",
    ]) {
      const res = await admin.post("/agencies", { agency: { name } });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ code: "partner_name_taken", source: { pointer: "/name" } });
    }
    const renamed = await admin.patch(`/agencies/${partnerId}`, { agency: { name: "LVIV SKYLINE TOURS" } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors[0]).toMatchObject({
      code: "partner_name_taken",
      source: { pointer: "/name" },
    });
    // A seeded partner's name is taken as much as a new one's; and a copy needs a name of its own.
    expect((await admin.post("/agencies", { agency: { name: "dnipro travel" } })).status).toBe(409);
    expect((await admin.post(`/agencies/${partner.id}/duplicate`, { name: "Dnipro Travel" })).status).toBe(
      409,
    );
    expect(await t.countEventsButBackground()).toBe(before);
    // Renaming a partner to its own name in another case is no clash with itself.
    expect(
      (await admin.patch(`/agencies/${partner.id}`, { agency: { name: "Lviv Skyline Tours" } })).status,
    ).toBe(200);
  });

  it("when a partner is duplicated, then its configuration is copied, not its people or money", async () => {
    const copy = await admin.post(`/agencies/${partnerId}/duplicate`);
    const { partner } = expectCreated(copy);
    expect(partner).toMatchObject({
      name: "Carpathian Travel (copy)",
      corporate_number_on: true,
      production_api_on: false,
      supervisors_count: 0,
      companies_count: 0,
      markups: [{ carrier: null, charge: { kind: "percent", bps: 100 } }],
    });
    expect(partner.agency_transaction_fees[0].transaction_fee).toMatchObject({ kind: "fixed" });
    expect((await t.events(`agency-${partner.id}`))[0]?.data).toMatchObject({ duplicated_from: partnerId });
  });

  it("when a partner with a channel is duplicated, then the copy gets the channel's settings but not its credentials or cards", async () => {
    const opened = await admin.post("/ticketing/agency_channels", {
      channel: { agency_id: partnerId, name: "Amadeus GDS" },
    });
    const channelId = expectCreated(opened).data.id as string;
    await admin.patch(`/ticketing/agency_channels/${channelId}`, {
      nego_code: "NEGO7",
      resident_fares_code: "RES",
    });
    await admin.patch(`/ticketing/source_channels/${channelId}?type=api`, { active: false });
    await admin.post(`/ticketing/agency_channels/${channelId}/credential`, {
      login: "carpathian",
      password: "carpathian-secret-password",
    });
    const card = expectCreated(
      await admin.post("/credit_cards", {
        agency_id: partnerId,
        number: "4242424242424242",
        exp_month: 12,
        exp_year: 2031,
        holder: "IVAN PETRENKO",
      }),
    ).data.id as string;
    const paying = await admin.patch(`/ticketing/agency_channels/${channelId}`, {
      form_of_payment: "card",
      ticketing_credit_card_id: card,
    });
    expect(paying.status).toBe(200);

    const copied = await admin.post(`/agencies/${partnerId}/duplicate`, {
      agency: { name: "Carpathian West" },
    });
    const copyId = expectCreated(copied).partner.id as string;
    const channels = await read(admin, "/ticketing/agency_channels", copied, { agency_id: copyId });
    expect(channels.body.data).toEqual([
      expect.objectContaining({
        agency_id: copyId,
        title: "Amadeus GDS",
        nego_code: "NEGO7",
        resident_fares_code: "RES",
        api: false,
        web: true,
        extension: true,
        active: false,
        active_credential: false,
        form_of_payment: "balance",
        credit_card: null,
        credit_cards: [],
      }),
    ]);
    const copyChannelId = channels.body.data[0].id as string;
    expect(copyChannelId).not.toBe(channelId);
    const secrets = await t.db.pool.query(
      "SELECT channel_id FROM app.channel_credentials WHERE channel_id = $1",
      [copyChannelId],
    );
    expect(secrets.rowCount).toBe(0);
    // The source keeps everything it had.
    const source = await read(admin, `/ticketing/agency_channels/${channelId}`, copied);
    expect(source.body.data).toMatchObject({
      active_credential: true,
      form_of_payment: "card",
      nego_code: "NEGO7",
    });
    const events = await t.events(`channel-${copyChannelId}`);
    expect(events[0]?.metadata).toMatchObject({ scope: { agency_id: copyId } });
  });

  it("when a partner is duplicated a moment after a channel of it was opened, before the channels read model shows the channel, then the copy waits for it and gets the channel", async () => {
    const source = expectCreated(await admin.post("/agencies", { agency: { name: "Bukovina Travel" } }))
      .partner.id as string;
    // The channel projection cannot write for a moment (reads go on): the channel is in the store, not in the list.
    const lag = await t.db.pool.connect();
    try {
      await lag.query("BEGIN");
      await lag.query("LOCK TABLE read.channels IN EXCLUSIVE MODE");
      const opened = await admin.post("/ticketing/agency_channels", {
        channel: { agency_id: source, name: "Sabre GDS" },
      });
      expect(opened.status).toBe(201);
      const copying = admin.post(`/agencies/${source}/duplicate`, { agency: { name: "Bukovina West" } });
      await sleep(400);
      await lag.query("COMMIT");
      const copied = await copying;
      const copyId = expectCreated(copied).partner.id as string;
      const channels = await read(admin, "/ticketing/agency_channels", copied, { agency_id: copyId });
      expect(channels.body.data).toEqual([
        expect.objectContaining({ agency_id: copyId, title: "Sabre GDS" }),
      ]);
    } finally {
      await lag.query("ROLLBACK").catch(() => undefined);
      lag.release();
    }
  });

  it("when support or a supervisor reach for partner administration, then the roles table holds", async () => {
    // Support may administer partners; supervisors may not create, delete or flag one, nor see another's.
    expect((await support.post("/agencies", { agency: { name: "Support-made" } })).status).toBe(201);
    expect(codeOf(await dniproSupervisor.post("/agencies", { agency: { name: "Nope" } }))).toBe(
      "403 admin_only",
    );
    expect((await dniproSupervisor.patch(`/agencies/${partnerId}`, { agency: { markups: [] } })).status).toBe(
      404,
    );
    expect((await dniproSupervisor.get(`/agencies/${partnerId}`)).status).toBe(404);
    expect(codeOf(await dniproSupervisor.delete(`/agencies/${partnerId}`))).toBe("403 admin_only");
    expect(codeOf(await dniproSupervisor.patch(`/agencies/${dnipro}/production_api_on`))).toBe(
      "403 admin_only",
    );
    // Its own partner's markups, yes; its name, no.
    const own = await dniproSupervisor.patch(`/agencies/${dnipro}`, {
      agency: { markups: [{ carrier: null, charge: { kind: "percent", bps: 150 } }] },
    });
    expect(own.status).toBe(200);
    expect((await dniproSupervisor.patch(`/agencies/${dnipro}`, { agency: { name: "Mine" } })).status).toBe(
      422,
    );
    const agencies = await read(dniproSupervisor, "/agencies", own);
    expect(agencies.body.data.map((a: Json) => a.id)).toEqual([dnipro]);
  });

  it("when a partner with companies holding money is deleted, then it is refused with a clear error", async () => {
    const res = await admin.delete(`/agencies/${dnipro}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "agency_has_money" });
    expect(res.body.errors[0].detail).toMatch(/companies with money/);
  });
});

describe("companies, balances and supervisors of a new partner", () => {
  let partnerId: string;
  let companyId: string;
  let supervisor: HttpClient;
  let supervisorId: string;

  beforeAll(async () => {
    partnerId = expectCreated(await admin.post("/agencies", { agency: { name: "Odesa Wings" } })).partner.id;
  });

  it("when an administrator creates a company, then it answers the company with a zero balance", async () => {
    const created = await admin.post("/companies", {
      company: { agency_id: partnerId, name: "Odesa Wings Port", currency: "UAH" },
    });
    const { company } = expectCreated(created);
    companyId = company.id;
    expect(company).toMatchObject({
      agency_id: partnerId,
      name: "Odesa Wings Port",
      balance_amount: { amount: 0, currency: "UAH" },
      shared_bookings: false,
      avia_managers: [],
      markups: [],
    });
    const listed = await read(admin, `/companies/${companyId}`, created);
    expect(listed.body.company).toMatchObject({
      id: companyId,
      balance_amount: { amount: 0, currency: "UAH" },
    });
  });

  it("when a second company of the partner is named like the first, or a company is kept in XXQ, then 409 or 422 on the field and nothing is written; another partner may use the name", async () => {
    const before = await t.countEventsButBackground();
    const twin = await admin.post("/companies", {
      company: { agency_id: partnerId, name: "odesa wings  PORT" },
    });
    expect(twin.status).toBe(409);
    expect(twin.body.errors[0]).toMatchObject({ code: "company_name_taken", source: { pointer: "/name" } });
    const unsold = await admin.post("/companies", {
      company: { agency_id: partnerId, name: "Odesa Wings Quay", currency: "XXQ" },
    });
    expect(unsold.status).toBe(422);
    expect(unsold.body.errors[0]).toMatchObject({ code: "invalid_input", source: { pointer: "/currency" } });
    expect(unsold.body.errors[0].detail).toContain("UAH");
    expect(await t.countEventsButBackground()).toBe(before);
    // The same name under another partner is another company.
    expectCreated(
      await admin.post("/companies", { company: { agency_id: dnipro, name: "Odesa Wings Port" } }),
    );
  });

  it("when an administrator invites a supervisor, then the supervisor gets an e-mail, signs in and works only inside the partner", async () => {
    const invited = await admin.post(`/agencies/${partnerId}/supervisors`, {
      supervisor: {
        email: "iryna@odesa-wings.test",
        first_name: "Iryna",
        last_name: "Shevchenko",
        language: "ua",
      },
    });
    const body = expectCreated(invited);
    supervisorId = body.supervisor.id;
    expect(body.supervisor).toMatchObject({
      user_type: "Supervisor",
      company_ids: [companyId],
      active: true,
    });
    // The invitation is queued after the answer; in the supervisor's language, naming the partner.
    const mail = await admin.waitForMail("iryna@odesa-wings.test", 0);
    expect(mail.subject).toBe("Запрошення до Skyward");
    expect(mail.text).toContain("Odesa Wings");

    supervisor = t.client();
    await supervisor.signIn("iryna@odesa-wings.test");
    const partner = await read(supervisor, `/agencies/${partnerId}`, invited);
    expect(partner.body.partner).toMatchObject({ supervisors_count: 1, companies_count: 1 });
    expect((await supervisor.get(`/agencies/${dnipro}`)).status).toBe(404);
    expect((await supervisor.get(`/companies/${kyiv}`)).status).toBe(404);
    expect((await supervisor.delete(`/companies/${kyiv}`)).status).toBe(404);
    expect(
      (await supervisor.patch(`/ticketing/company_shared_bookings/${kyiv}`, { active: false })).status,
    ).toBe(404);
    expect((await supervisor.post(`/agencies/${dnipro}/supervisors`, { email: "x@y.test" })).status).toBe(
      404,
    );
    expect(codeOf(await supervisor.post("/transactions", {}))).toBe("403 admin_user_only");
    // A company a supervisor creates belongs to its own partner.
    const own = expectCreated(
      await supervisor.post("/companies", { company: { name: "Odesa Wings Arcadia" } }),
    );
    expect(own.company.agency_id).toBe(partnerId);
    const shared = await supervisor.patch(`/ticketing/company_shared_bookings/${own.company.id}`, {
      active: true,
    });
    expect(shared.status).toBe(200);
    expect(shared.body.company.shared_bookings).toBe(true);
    const companies = await read(supervisor, "/companies", shared);
    expect(companies.body.data.map((c: Json) => c.name).sort()).toEqual([
      "Odesa Wings Arcadia",
      "Odesa Wings Port",
    ]);
    expect(companies.body.data.find((c: Json) => c.id === own.company.id).shared_bookings).toBe(true);
  });

  it("when a supervisor is switched off and then removed, then it signs in no more and its address is free", async () => {
    const renamed = await admin.patch(`/agencies/${partnerId}/supervisors/${supervisorId}`, {
      supervisor: { last_name: "Shevchenko-Bondar", active: false },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.supervisor).toMatchObject({ last_name: "Shevchenko-Bondar", active: false });
    await afterSessionCache();
    expect((await supervisor.get("/account/details")).status).toBe(401);
    // Another partner's supervisor id is answered as missing.
    expect((await dniproSupervisor.patch(`/agencies/${dnipro}/supervisors/${supervisorId}`, {})).status).toBe(
      404,
    );
    const removed = await admin.delete(`/agencies/${partnerId}/supervisors/${supervisorId}`);
    expect(removed.status).toBe(200);
    const list = await read(admin, `/agencies/${partnerId}/supervisors`, removed);
    expect(list.body.data).toEqual([]);
    const again = await admin.post(`/agencies/${partnerId}/supervisors`, {
      supervisor: { email: "iryna@odesa-wings.test", first_name: "Iryna", last_name: "Shevchenko" },
    });
    expect(again.status).toBe(201);
  });

  it("when an administrator tops up and corrects a balance, then balance_amount answers and the history shows each line", async () => {
    const topUp = await admin.post("/transactions", {
      transaction: {
        company_id: companyId,
        amount: { amount: 1_000_00, currency: "UAH" },
        reason: "Wire 42",
      },
    });
    expect(expectCreated(topUp).balance_amount).toEqual({ amount: 1_000_00, currency: "UAH" });
    const correction = await admin.post("/transactions", {
      transaction: {
        company_id: companyId,
        kind: "correction",
        amount: -250_00,
        reason: "Fee refunded twice",
      },
    });
    expect(expectCreated(correction).balance_amount).toEqual({ amount: 750_00, currency: "UAH" });
    // A correction below zero on a prepaid company, a top-up in another currency, a zero: refused.
    const below = await admin.post("/transactions", {
      transaction: { company_id: companyId, kind: "correction", amount: -750_01, reason: "x" },
    });
    expect(below.body.errors[0].code).toBe("below_credit_limit");
    const pln = await admin.post("/transactions", {
      transaction: { company_id: companyId, amount: { amount: 5, currency: "PLN" }, reason: "x" },
    });
    expect(pln.body.errors[0].code).toBe("currency_mismatch");
    for (const amount of [0, 1e300, -5, "10"])
      expect(
        (await admin.post("/transactions", { transaction: { company_id: companyId, amount, reason: "x" } }))
          .status,
      ).toBe(422);
    expect((await admin.post("/transactions", { company_id: companyId, amount: 1, reason: "" })).status).toBe(
      422,
    );

    const history = await read(admin, "/balance_history", correction, { company_id: companyId });
    expect(history.body.data).toEqual([
      expect.objectContaining({
        kind: "correction",
        amount: { amount: -250_00, currency: "UAH" },
        balance_after: { amount: 750_00, currency: "UAH" },
        reason: "Fee refunded twice",
        actor: expect.objectContaining({ role: "Admin", name: "Ada Admin" }),
      }),
      expect.objectContaining({
        kind: "top_up",
        amount: { amount: 1_000_00, currency: "UAH" },
        balance_after: { amount: 1_000_00, currency: "UAH" },
        reason: "Wire 42",
        locator: null,
      }),
    ]);
    expect((await admin.get(history.body.data[0].link)).body.data).toMatchObject({ kind: "correction" });
    expect((await dniproSupervisor.get(history.body.data[0].link)).status).toBe(404);
    const topUps = await admin.get("/balance_history", { query: { company_id: companyId, kind: "top_up" } });
    expect(topUps.body.data.map((h: Json) => h.kind)).toEqual(["top_up"]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const later = await admin.get("/balance_history", {
      query: { company_id: companyId, date_from: tomorrow },
    });
    expect(later.body.data).toEqual([]);
    expect((await admin.get("/balance_history", { query: { date_from: "2026-13-01" } })).status).toBe(422);
  });

  it("when support tops up or creates a support user, then 403 admin_user_only (the roles table: support does all but these); an administrator creates support users", async () => {
    const topUp = await support.post("/transactions", { company_id: companyId, amount: 1, reason: "x" });
    expect(codeOf(topUp)).toBe("403 admin_user_only");
    expect(topUp.body.errors[0].detail).toBe(
      "POST /transactions is for Admin users; you are signed in as Support",
    );
    expect(
      codeOf(await support.post("/supports", { email: "s2@skyward.test", first_name: "S", last_name: "T" })),
    ).toBe("403 admin_user_only");
    const created = await admin.post("/supports", {
      support: { email: "s2@skyward.test", first_name: "Sofia", last_name: "Tkachenko" },
    });
    expect(expectCreated(created).support).toMatchObject({ user_type: "Support" });
    expect(
      (
        await admin.post("/supports", {
          support: { email: "s2@skyward.test", first_name: "S", last_name: "T" },
        })
      ).status,
    ).toBe(409);
  });

  it("when a company with money is deleted, then refused; settled to zero, then deleted and gone everywhere", async () => {
    const refused = await admin.delete(`/companies/${companyId}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe("company_has_money");
    await admin.post("/transactions", {
      transaction: { company_id: companyId, kind: "correction", amount: -750_00, reason: "Paid out" },
    });
    const deleted = await admin.delete(`/companies/${companyId}`);
    expect(deleted.status).toBe(200);
    expect((await read(admin, `/companies/${companyId}`, deleted)).status).toBe(404);
    const topUp = await admin.post("/transactions", { company_id: companyId, amount: 1, reason: "late" });
    expect(topUp.status).toBe(404);
    expect((await t.events(`balance-${companyId}`)).at(-1)?.type).toBe("BalanceClosed");
  });
});

describe("connection requests and agents' companies", () => {
  let partnerId: string;
  let companyId: string;
  let agent: HttpClient;
  const agentId = demoId("user", "dnipro-agent-lviv");

  beforeAll(async () => {
    partnerId = expectCreated(await admin.post("/agencies", { agency: { name: "Lviv Sky" } })).partner.id;
    companyId = expectCreated(
      await admin.post("/companies", { agency_id: partnerId, name: "Lviv Sky Centre" }),
    ).company.id;
    agent = t.client();
    await agent.signIn("agent.lviv@dnipro.test");
  });

  it("when an agent is disconnected from its company, then it leaves the company and the relationship is gone", async () => {
    const relationships = await dniproSupervisor.get("/agent_company_relationships", {
      query: { company_id: lviv },
    });
    const relationship = relationships.body.data.find((r: Json) => r.user_id === agentId);
    expect(relationship).toBeDefined();
    // Another partner's supervisor cannot see or cut it.
    const vistula = t.client();
    await vistula.signIn("supervisor@vistula.test");
    expect((await vistula.delete(`/agent_company_relationships/${relationship.id}`)).status).toBe(404);
    const cut = await dniproSupervisor.delete(`/agent_company_relationships/${relationship.id}`);
    expect(cut.status).toBe(200);
    await afterSessionCache();
    const details = await read(agent, "/account/details", cut);
    expect(details.body.account.companies).toEqual([]);
  });

  it("when the agent asks to join a partner and its supervisor accepts, then the agent works for the company; disconnecting resets", async () => {
    const sent = await agent.post("/join_agency_requests", { join_agency_request: { agency_id: partnerId } });
    const { join_agency } = expectCreated(sent);
    expect(join_agency).toMatchObject({ agency_id: partnerId, user_id: agentId, status: "sent" });
    expect((await agent.post("/join_agency_requests", { agency_id: partnerId })).body.errors[0].code).toBe(
      "join_request_pending",
    );
    expect((await agent.post("/join_agency_requests", { agency_id: "missing" })).status).toBe(404);
    // Dnipro's supervisor cannot decide on another partner's request.
    expect(
      (await dniproSupervisor.patch(`/join_agency_requests/${join_agency.id}`, { status: "accepted" }))
        .status,
    ).toBe(404);
    const accepted = await admin.patch(`/join_agency_requests/${join_agency.id}`, {
      join_agency: { status: "accepted", company_id: companyId },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.join_agency).toMatchObject({ status: "accepted", company_id: companyId });
    await afterSessionCache();
    const details = await read(agent, "/account/details", accepted);
    expect(details.body.account.companies).toEqual([{ id: companyId, name: "Lviv Sky Centre" }]);
    const company = await read(admin, `/companies/${companyId}`, accepted);
    expect(company.body.company.avia_managers.map((m: Json) => m.id)).toEqual([agentId]);
    const mine = await agent.get("/join_agency_requests");
    expect(mine.body.data).toEqual([expect.objectContaining({ id: join_agency.id, status: "accepted" })]);
    // Another partner's supervisor sees neither the request nor the relationship it made.
    const others = await dniproSupervisor.get("/join_agency_requests");
    expect(others.status).toBe(200);
    expect(others.body.data.map((r: Json) => r.id)).not.toContain(join_agency.id);
    const otherRelationships = await dniproSupervisor.get("/agent_company_relationships", {
      query: { company_id: companyId },
    });
    expect([otherRelationships.status, otherRelationships.body.data]).toEqual([200, []]);

    const relationships = await admin.get("/agent_company_relationships", {
      query: { company_id: companyId },
    });
    const cut = await admin.delete(`/agent_company_relationships/${relationships.body.data[0].id}`);
    expect(cut.status).toBe(200);
    const reset = await read(admin, "/join_agency_requests", cut, { agency_id: partnerId });
    expect(reset.body.data[0].status).toBe("reset");
    expect((await agent.post("/join_agency_requests", { agency_id: partnerId })).status).toBe(201);
    const rejected = await admin.patch(`/join_agency_requests/${join_agency.id}`, { status: "rejected" });
    expect(rejected.body.join_agency.status).toBe("rejected");
  });
});

describe("GET /account/details settings", () => {
  it("when an agent reads its account, then settings carry its partner's channels", async () => {
    const agent = t.client();
    await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const details = await agent.get("/account/details");
    expect(details.body.settings).toMatchObject({ active: true, active_by_supervisor: true });
    expect(details.body.settings.channels).toEqual([
      expect.objectContaining({ id: demoId("channel", "vistula"), title: "Sandbox NDC", active: true }),
    ]);
  });
});
