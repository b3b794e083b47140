// Gates, channels, credentials and payment cards over real HTTP against a real PostgreSQL: each call's semantics,
// who may make it, what it does to search and issue, and that secrets and card numbers never land anywhere.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SandboxSupplier } from "@skyward/command-service/suppliers/sandbox/sandbox-supplier";
import type { SupplierCall } from "@skyward/command-service/suppliers/supplier";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { holdFamily, pricedExchange } from "./testing/after-sales.ts";
import { addAncillaries, firstBag } from "./testing/ancillaries.ts";
import { holdBooking, search, topUp } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { download, pdfText, readWorkbook, sessionCookie } from "./testing/sales.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const dniproAgency = demoId("agency", "dnipro");
const dniproChannel = demoId("channel", "dnipro");
const kyiv = demoId("company", "dnipro-kyiv");
const lviv = demoId("company", "dnipro-lviv");
const CARD = "4242 4242 4242 4242";
const SECRET_PASSWORD = "s3cret-Password-of-the-agency";
/** A role refusal is 403 with the code naming who may; a 404 is an id outside the caller's scope. */
const codeOf = (res: { status: number; body: Json }) => `${res.status} ${res.body?.errors?.[0]?.code}`;

/** The sandbox airline, noting the card token each issue was paid with and who each call signed in as. */
class RecordingSupplier extends SandboxSupplier {
  readonly cardTokens: (string | undefined)[] = [];
  readonly signIns: { call: string; login: string; password: string }[] = [];
  private note(call: string, { credentials }: SupplierCall) {
    this.signIns.push({ call, login: credentials.login, password: credentials.password });
  }
  override async search(...args: Parameters<SandboxSupplier["search"]>) {
    this.note("search", args[1]);
    return super.search(...args);
  }
  override async book(...args: Parameters<SandboxSupplier["book"]>) {
    this.note("book", args[1]);
    return super.book(...args);
  }
  override async issue(...args: Parameters<SandboxSupplier["issue"]>) {
    const call: SupplierCall = args[1];
    this.note("issue", call);
    this.cardTokens.push(call.card_token);
    return super.issue(...args);
  }
}

let t: TestApp;
let supplier: RecordingSupplier;
/** The app's clock runs this far from the real one (a card registered "two months ago" has expired today). */
let clockShiftMs = 0;
let admin: HttpClient;
let support: HttpClient;
let supervisor: HttpClient;
let vistulaSupervisor: HttpClient;
let agent: HttpClient;
let agentLviv: HttpClient;

async function signedIn(email: string): Promise<HttpClient> {
  const client = t.client();
  const res = await client.signInWithPassword(email, DEMO_PASSWORD);
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status}`);
  return client;
}

beforeAll(async () => {
  supplier = new RecordingSupplier();
  t = await startTestApp({ supplier, now: () => new Date(Date.now() + clockShiftMs) });
  admin = await signedIn("admin@skyward.test");
  support = await signedIn("support@skyward.test");
  supervisor = await signedIn("supervisor@dnipro.test");
  vistulaSupervisor = await signedIn("supervisor@vistula.test");
  agent = await signedIn("agent@dnipro.test");
  agentLviv = await signedIn("agent.lviv@dnipro.test");
}, 240_000);
afterAll(() => t.stop());

/** Reads after a command see it (read-your-writes through X-Min-Position). */
const after = (res: { body: Json }): { headers: Record<string, string> } => ({
  headers: res.body.position ? { "x-min-position": res.body.position as string } : {},
});

describe("gates", () => {
  it("when an administrator closes the main gate, then search and issue are refused naming it, and reopening restores both", async () => {
    const locator = await holdBooking(agent);
    const closed = await admin.patch("/ticketing/main_gate", { active: false });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toEqual({ gate: "main", active: false });

    const searching = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect(searching.status).toBe(422);
    expect(searching.body.errors[0]).toMatchObject({
      code: "gate_main_off",
      detail: expect.stringContaining("main gate"),
    });
    const issuing = await agent.post("/bookings/issue", { locator });
    expect(issuing.body.errors[0]).toMatchObject({ code: "gate_main_off" });

    expect((await support.patch("/ticketing/main_gate", { active: true })).status).toBe(200);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
  });

  it("when the consolidator, channel, agency or company gate closes, then the issue is refused with that gate's code", async () => {
    const cases: [string, unknown, string][] = [
      ["/ticketing/agency_gate", null, "gate_consolidator_off"],
      ["/ticketing/channel_gate", null, "gate_channel_off"],
      [`/ticketing/agency_gates/${dniproAgency}`, null, "gate_agency_off"],
      [`/ticketing/company_gates/${kyiv}`, null, "gate_company_off"],
    ];
    for (const [path, , code] of cases) {
      const locator = await holdBooking(agent);
      expect((await admin.patch(path, { active: false })).status).toBe(200);
      const refused = await agent.post("/bookings/issue", { locator });
      expect([refused.status, refused.body.errors?.[0]?.code]).toEqual([422, code]);
      expect((await admin.patch(path, { active: true })).status).toBe(200);
      expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    }
  });

  it("when a company's gate is closed, then another company of the same agency still sells", async () => {
    expect((await admin.patch(`/ticketing/company_gates/${kyiv}`, { active: false })).status).toBe(200);
    const locator = await holdBooking(agentLviv);
    expect((await agentLviv.post("/bookings/issue", { locator })).status).toBe(201);
    expect((await admin.patch(`/ticketing/company_gates/${kyiv}`, { active: true })).status).toBe(200);
  });

  it("when a supervisor or an agent toggles a gate, then 404; unknown agencies and bad bodies are refused without a write", async () => {
    const before = await t.countEventsButBackground();
    for (const client of [supervisor, agent])
      for (const path of [
        "/ticketing/main_gate",
        "/ticketing/agency_gate",
        "/ticketing/channel_gate",
        `/ticketing/agency_gates/${dniproAgency}`,
      ])
        expect(codeOf(await client.patch(path, { active: false }))).toBe("403 admin_only");
    expect(
      (await admin.patch("/ticketing/agency_gates/no-such-agency", { active: false })).body.errors[0].code,
    ).toBe("agency_not_found");
    const bad = await admin.patch("/ticketing/main_gate", { active: "off" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source).toEqual({ pointer: "/active" });
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when two administrators close the same gate at once, then every answer is 200 and one event records it", async () => {
    const before = (await t.events("ticketing-gates")).length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? admin : support).patch("/ticketing/channel_gate", { active: false }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const events = (await t.events("ticketing-gates")).slice(before);
    expect(events).toEqual([
      expect.objectContaining({ type: "GateToggled", data: { gate: "channel", active: false } }),
    ]);
    await admin.patch("/ticketing/channel_gate", { active: true });
  });

  it("when the administrator reads the gates, then each one's state shows; others get 404", async () => {
    const closed = await admin.patch(`/ticketing/agency_gates/${dniproAgency}`, { active: false });
    // Already open: nothing to write, so no position to wait for.
    expect((await admin.patch("/ticketing/agency_gate", { active: true })).body.position).toBeNull();
    const res = await admin.get("/ticketing/gates", after(closed));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ main_gate: true, agency_gate: true, channel_gate: true });
    expect(res.body.data.agencies.find((a: Json) => a.id === dniproAgency)).toMatchObject({ active: false });
    await admin.patch(`/ticketing/agency_gates/${dniproAgency}`, { active: true });
    expect(codeOf(await supervisor.get("/ticketing/gates"))).toBe("403 admin_or_auditor_only");
  });
});

describe("channels", () => {
  it("when the supervisor turns the agency's channel off, then the agent cannot issue through it, and the audit shows who, before and after", async () => {
    const locator = await holdBooking(agent);
    const off = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      on_by_supervisor: false,
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ active_by_supervisor: false, active_by_admin: true });
    const refused = await agent.post("/bookings/issue", { locator });
    expect(refused.body.errors[0]).toMatchObject({
      code: "channel_off",
      detail: expect.stringContaining("Sandbox NDC"),
    });

    const audit = await supervisor.get("/ticketing/channel_history", {
      ...after(off),
      query: { channel_id: dniproChannel },
    });
    expect(audit.status).toBe(200);
    const row = audit.body.data[0];
    expect(row).toMatchObject({
      channel_id: dniproChannel,
      agency_id: dniproAgency,
      field: "active_by_supervisor",
      before: true,
      after: false,
      source: "web",
      event_type: "ChannelToggledBySupervisor",
      actor: { user_id: demoId("user", "dnipro-supervisor"), role: "Supervisor", name: expect.any(String) },
    });
    const linked = await supervisor.get(row.link);
    expect(linked.status).toBe(200);
    expect(linked.body.data.event).toMatchObject({
      type: "ChannelToggledBySupervisor",
      data: { active: false },
    });
    // Another agency's supervisor sees none of it.
    expect((await vistulaSupervisor.get(row.link)).status).toBe(404);
    const theirs = await vistulaSupervisor.get("/ticketing/channel_history", {
      query: { channel_id: dniproChannel },
    });
    expect(theirs.body.data).toEqual([]);

    expect(
      (await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, { on_by_supervisor: true }))
        .status,
    ).toBe(200);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
  });

  it("when a supervisor sends on_by_admin, then 403; another agency's supervisor gets 404 and nothing is written", async () => {
    const before = await t.countEventsButBackground();
    const mine = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      on_by_admin: false,
    });
    expect([mine.status, mine.body.errors[0].code]).toEqual([403, "admin_only"]);
    const theirs = await vistulaSupervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      nego_code: "X1",
    });
    expect([theirs.status, theirs.body.errors[0].code]).toEqual([404, "channel_not_found"]);
    expect(
      codeOf(await agent.patch(`/ticketing/agency_channels/${dniproChannel}`, { nego_code: "X1" })),
    ).toBe("403 supervisor_or_admin_only");
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when codes are set, then the channel lists them and the audit holds before → after for each", async () => {
    const set = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      nego_code: "NEGO42",
      resident_fares_code: "RES1",
    });
    expect(set.status).toBe(200);
    const listed = await supervisor.get("/ticketing/agency_channels", after(set));
    const channel = listed.body.data.find((c: Json) => c.id === dniproChannel);
    expect(channel).toMatchObject({
      nego_code: "NEGO42",
      resident_fares_code: "RES1",
      active: true,
      web: true,
    });
    const cleared = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, { nego_code: "" });
    const audit = await admin.get("/ticketing/channel_history", {
      ...after(cleared),
      query: { channel_id: dniproChannel, per_page: 3 },
    });
    expect(audit.body.data.slice(0, 3).map((r: Json) => [r.field, r.before, r.after])).toEqual([
      ["nego_code", "NEGO42", null],
      ["resident_fares_code", null, "RES1"],
      ["nego_code", null, "NEGO42"],
    ]);
    expect(audit.body.meta).toMatchObject({ page: 1, per_page: 3 });
    expect(audit.body.meta.total).toBeGreaterThanOrEqual(3);
  });

  it("when a channel is switched off for one company, then that company's agent is refused and the other's issues", async () => {
    // Held before the switch: with it off, the company's agent cannot even search through the channel.
    const kyivLocator = await holdBooking(agent);
    const toggled = await supervisor.patch(`/ticketing/company_channels/${dniproChannel}_${kyiv}`, {
      active: false,
    });
    expect(toggled.status).toBe(200);
    expect((await agent.post("/bookings/issue", { locator: kyivLocator })).body.errors[0].code).toBe(
      "channel_company_off",
    );
    const lvivLocator = await holdBooking(agentLviv);
    expect((await agentLviv.post("/bookings/issue", { locator: lvivLocator })).status).toBe(201);
    const back = await supervisor.patch(`/ticketing/company_channels/${dniproChannel}`, {
      company_id: kyiv,
      active: true,
    });
    expect(back.status).toBe(200);
    expect((await agent.post("/bookings/issue", { locator: kyivLocator })).status).toBe(201);
    // A company of another agency is not this channel's to switch.
    const vistulaCompany = demoId("company", "vistula-waw");
    expect(
      (await admin.patch(`/ticketing/company_channels/${dniproChannel}_${vistulaCompany}`, { active: false }))
        .status,
    ).toBe(404);
  });

  it("when the api source is switched off, then a call with the API token is refused while the web still sells", async () => {
    const token = (await agent.put("/account/api_token")).body.data.token as string;
    const api = t.client({ authorization: `Bearer ${token}` });
    const off = await admin.patch(
      `/ticketing/source_channels/${dniproChannel}`,
      { active: false },
      { query: { type: "api" } },
    );
    expect(off.status).toBe(200);
    const refused = await api.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect(refused.body.errors[0].code).toBe("source_channel_off");
    await search(agent);
    expect(
      (
        await admin.patch(
          `/ticketing/source_channels/${dniproChannel}`,
          { active: true },
          { query: { type: "api" } },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await admin.patch(
          `/ticketing/source_channels/${dniproChannel}`,
          { active: true },
          { query: { type: "fax" } },
        )
      ).status,
    ).toBe(422);
    expect(
      codeOf(
        await supervisor.patch(
          `/ticketing/source_channels/${dniproChannel}`,
          { active: false },
          { query: { type: "api" } },
        ),
      ),
    ).toBe("403 admin_only");
  });

  it("when an administrator opens a channel with credentials, then the spec's messages answer each check and the secret is nowhere but encrypted", async () => {
    const created = await admin.post("/ticketing/agency_channels", {
      channel: { agency_id: dniproAgency, name: "Amadeus GDS" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      agency_id: dniproAgency,
      title: "Amadeus GDS",
      active: false,
      currency: "UAH",
    });
    const id = created.body.data.id as string;

    const wrong = await admin.post(`/ticketing/agency_channels/${id}/credential`, {
      credential: { login: "agency", password: "invalid" },
    });
    expect(wrong.status).toBe(201);
    expect(wrong.body.credential).toEqual({ active: false, agency_id: dniproAgency });
    expect(wrong.body.messages).toEqual([
      { type: "error", text: "Invalid credentials. Enter current cretentials." },
    ]);

    const right = await admin.post(`/ticketing/agency_channels/${id}/credential`, {
      login: "agency",
      password: SECRET_PASSWORD,
    });
    expect(right.body.messages.map((m: Json) => m.text)).toEqual([
      "The credentials are correct.",
      "Enable the channel to get started.",
    ]);
    expect(right.body.companies.map((c: Json) => c.id).sort()).toEqual([kyiv, lviv].sort());
    const edited = await admin.patch(`/ticketing/agency_channels/${id}/credential`, {
      login: "agency",
      password: SECRET_PASSWORD,
    });
    expect(edited.body.messages).toEqual([{ type: "success", text: "The credentials are correct." }]);

    const channel = await supervisor.get(`/ticketing/agency_channels/${id}`, after(edited));
    expect(channel.body.data).toMatchObject({
      active_credential: true,
      credential: { active: true },
      active: false,
    });
    // The secret: never in an event, an answer or the clear text of its row.
    const { rows } = await t.db.pool.query(
      "SELECT count(*)::int AS n FROM es.events WHERE data::text LIKE $1 OR metadata::text LIKE $1",
      [`%${SECRET_PASSWORD}%`],
    );
    expect(rows[0].n).toBe(0);
    expect(JSON.stringify([right.body, edited.body, channel.body])).not.toContain(SECRET_PASSWORD);
    const stored = await t.db.pool.query(
      "SELECT ciphertext FROM app.channel_credentials WHERE channel_id = $1",
      [id],
    );
    expect(stored.rows[0].ciphertext.toString("utf8")).not.toContain(SECRET_PASSWORD);
    expect(stored.rows[0].ciphertext.toString("latin1")).not.toContain("agency");

    expect(
      codeOf(
        await supervisor.post(`/ticketing/agency_channels/${id}/credential`, { login: "a", password: "b" }),
      ),
    ).toBe("403 admin_only");
    expect(codeOf(await supervisor.delete(`/ticketing/agency_channels/${id}`))).toBe("403 admin_only");
    const deleted = await admin.delete(`/ticketing/agency_channels/${id}`);
    expect(deleted.status).toBe(200);
    expect((await admin.get(`/ticketing/agency_channels/${id}`, after(deleted))).status).toBe(404);
    expect((await admin.delete(`/ticketing/agency_channels/${id}`)).status).toBe(404);
  });

  it("when a channel's credentials are stored, then search, book and issue sign in with them; invalid ones refuse with the spec's message", async () => {
    const login = "dnipro-office";
    const stored = await admin.patch(`/ticketing/agency_channels/${dniproChannel}/credential`, {
      login,
      password: SECRET_PASSWORD,
    });
    expect(stored.status).toBe(200);
    supplier.signIns.length = 0;
    const cache = t.app.commandDeps.directory.credentials;
    const loadsBefore = cache.loads;
    const locator = await holdBooking(agent);
    await holdBooking(agentLviv);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    expect(supplier.signIns.map((s) => s.call)).toEqual(["search", "book", "search", "book", "issue"]);
    for (const signIn of supplier.signIns) expect(signIn).toMatchObject({ login, password: SECRET_PASSWORD });
    // Decrypted once for this version of the channel, not once a call.
    expect(cache.loads - loadsBefore).toBe(1);

    const invalid = await admin.patch(`/ticketing/agency_channels/${dniproChannel}/credential`, {
      login,
      password: "invalid",
    });
    expect(invalid.body.messages).toEqual([
      { type: "error", text: "Invalid credentials. Enter current cretentials." },
    ]);
    const refused = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect([refused.status, refused.body.errors[0].code, refused.body.errors[0].detail]).toEqual([
      422,
      "invalid_credentials",
      "Invalid credentials. Enter current cretentials.",
    ]);
    expect(supplier.signIns.at(-1)).toMatchObject({ call: "search", login, password: "invalid" });

    // Back to working credentials: the next call signs in with them at once (a new version of the stream).
    await admin.patch(`/ticketing/agency_channels/${dniproChannel}/credential`, {
      login: "dnipro-second",
      password: SECRET_PASSWORD,
    });
    await holdBooking(agent);
    expect(supplier.signIns.at(-1)).toMatchObject({ call: "book", login: "dnipro-second" });
  });

  it("when a channel is created for an agency that does not exist, or by a supervisor, then nothing is created", async () => {
    expect((await admin.post("/ticketing/agency_channels", { agency_id: "nope", name: "X" })).status).toBe(
      404,
    );
    expect(
      codeOf(await supervisor.post("/ticketing/agency_channels", { agency_id: dniproAgency, name: "X" })),
    ).toBe("403 admin_only");
    const bad = await admin.post("/ticketing/agency_channels", { agency_id: dniproAgency, name: "" });
    expect(bad.status).toBe(422);
  });
});

/**
 * How a booking's tickets were paid, everywhere it is shown: the booking's tickets and history, the sales line, the
 * receipt (its data and the PDF's text) and the sales report's "Paid by" column.
 */
async function expectPaidBy(locator: string, command: { body: Json }, paid: { data: Json; text: string }) {
  const booking = (await agent.get(`/bookings/${locator}`, after(command))).body.data;
  expect(booking.tickets.length).toBeGreaterThan(0);
  for (const ticket of booking.tickets) expect(ticket.paid_by).toEqual(paid.data);
  expect(booking.history.find((h: Json) => h.kind === "issue").paid_by).toEqual(paid.data);
  const lines = await agent.get("/sales", { ...after(command), query: { "ticket[text]": locator } });
  expect(lines.body.data.length).toBe(booking.tickets.length);
  for (const line of lines.body.data) expect(line.paid_by).toEqual(paid.data);
  const [line] = lines.body.data;
  const receipt = await agent.get(`/sales/${line.id}`, { query: { format: "data" } });
  expect(receipt.body.data.paid_by).toEqual(paid.data);
  const cookie = sessionCookie(await t.client().signInWithPassword("agent@dnipro.test", DEMO_PASSWORD));
  const pdf = await download(t.app.url, cookie, `/sales/${line.id}?lang=en`);
  expect((await pdfText(pdf.bytes)).replace(/\s+/g, " ")).toContain(`Paid by: ${paid.text}`);
  const report = await download(
    t.app.url,
    cookie,
    `/sales/export?${new URLSearchParams({ "ticket[text]": locator, lang: "en" })}`,
  );
  const sheet = (await readWorkbook(report.bytes)).getWorksheet("Sales");
  if (!sheet) throw new Error("no Sales sheet");
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  const column = header.indexOf("Paid by") + 1;
  expect(column).toBeGreaterThan(0);
  expect(sheet.getRow(2).getCell(column).value).toBe(paid.text);
}

describe("payment cards", () => {
  it("when a card number fails Luhn or the card has expired, then 422 naming the field and nothing goes to the vault", async () => {
    const luhn = await supervisor.post("/credit_cards/", {
      number: "4242 4242 4242 4241",
      exp_month: 12,
      exp_year: 2030,
      holder: "IVAN PETRENKO",
    });
    expect([luhn.status, luhn.body.errors[0].source]).toEqual([422, { pointer: "/number" }]);
    const expired = await supervisor.post("/credit_cards/", {
      number: CARD,
      exp_month: 1,
      exp_year: 2020,
      holder: "IVAN PETRENKO",
    });
    expect(expired.status).toBe(422);
    const declined = await admin.post("/credit_cards", {
      number: "4000000000000002",
      exp_month: 12,
      exp_year: 2030,
      holder: "IVAN PETRENKO",
    });
    expect([declined.status, declined.body.errors[0].code]).toEqual([422, "card_declined"]);
  });

  it("when a supervisor adds a card and the channel pays by it, then issue passes its vault token and the balance is not charged; the number is stored nowhere", async () => {
    const added = await supervisor.post("/credit_cards/", {
      credit_card: { number: CARD, exp_month: 9, exp_year: 31, holder: "IVAN PETRENKO" },
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      agency_id: dniproAgency,
      brand: "visa",
      last4: "4242",
      exp_month: 9,
      exp_year: 2031,
    });
    const cardId = added.body.data.id as string;
    expect(JSON.stringify(added.body)).not.toContain("tok_");

    expect(
      (
        await supervisor.post(`/ticketing/agency_channels/${dniproChannel}/credit_cards`, {
          credit_card_id: cardId,
        })
      ).status,
    ).toBe(201);
    // Paying by card needs the card chosen: alone it is refused.
    const noCard = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      form_of_payment: "card",
      ticketing_credit_card_id: null,
    });
    expect(noCard.body.errors[0].code).toBe("card_required");
    const byCard = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      form_of_payment: "card",
      ticketing_credit_card_id: cardId,
    });
    expect(byCard.status).toBe(200);
    expect(byCard.body.data).toMatchObject({ form_of_payment: "card", ticketing_credit_card_id: cardId });

    const locator = await holdBooking(agent);
    // The booking page says issue takes the card, so its confirmation neither shows nor asks the balance.
    let paidBy: unknown = null;
    for (let i = 0; i < 200 && paidBy !== "card"; i++) {
      paidBy = (await agent.get(`/bookings/${locator}`)).body.data?.issue_paid_by ?? null;
      if (paidBy !== "card") await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(paidBy).toBe("card");
    const balanceEvents = (await t.events(`balance-${kyiv}`)).length;
    supplier.cardTokens.length = 0;
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    expect(issued.body.charged).toBeNull();
    expect(issued.body.charge.total.amount).toBeGreaterThan(0);
    expect(supplier.cardTokens).toEqual([expect.stringMatching(/^tok_sandbox_/)]);
    expect((await t.events(`balance-${kyiv}`)).length).toBe(balanceEvents);
    await expectPaidBy(locator, issued, {
      data: { method: "card", card_id: cardId, brand: "visa", last4: "4242" },
      text: "Visa •••• 4242",
    });

    const digits = CARD.replaceAll(" ", "");
    const { rows } = await t.db.pool.query(
      "SELECT count(*)::int AS n FROM es.events WHERE data::text LIKE $1 OR metadata::text LIKE $1",
      [`%${digits}%`],
    );
    expect(rows[0].n).toBe(0);
    const listed = await supervisor.get("/credit_cards", after(byCard));
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: cardId, last4: "4242", channel_ids: [dniproChannel] }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain("tok_");
    const channel = await supervisor.get(`/ticketing/agency_channels/${dniproChannel}`, after(byCard));
    expect(channel.body.data.credit_card).toMatchObject({ id: cardId, last4: "4242" });

    // In use: it cannot be detached or deleted until the channel pays from the balance again.
    expect(
      (await supervisor.delete(`/ticketing/agency_channels/${dniproChannel}/credit_cards/${cardId}`)).body
        .errors[0].code,
    ).toBe("card_in_use");
    expect((await supervisor.delete(`/credit_cards/${cardId}`)).body.errors[0].code).toBe("card_in_use");
    expect((await vistulaSupervisor.patch(`/credit_cards/${cardId}`, { holder: "X Y" })).status).toBe(404);
    const renewed = await supervisor.patch(`/credit_cards/${cardId}`, { exp_year: 2032 });
    expect(renewed.body.data).toMatchObject({ exp_year: 2032, last4: "4242" });
    expect(
      (await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, { form_of_payment: "balance" }))
        .status,
    ).toBe(200);
    expect(
      (await supervisor.delete(`/ticketing/agency_channels/${dniproChannel}/credit_cards/${cardId}`)).status,
    ).toBe(200);
    const deleted = await supervisor.delete(`/credit_cards/${cardId}`);
    expect(deleted.status).toBe(200);
    expect((await supervisor.delete(`/credit_cards/${cardId}`)).status).toBe(404);

    // The audit names the card of each change by brand and last four, also once the card is deleted.
    const audit = await supervisor.get("/ticketing/channel_history", {
      query: { channel_id: dniproChannel, per_page: 200 },
      ...after(deleted),
    });
    const cardRows = audit.body.data.filter(
      (row: Json) =>
        (row.field === "ticketing_credit_card_id" || row.field === "credit_cards") &&
        (row.before === cardId || row.after === cardId),
    );
    expect(cardRows.length).toBeGreaterThanOrEqual(3);
    for (const row of cardRows)
      expect(row.cards?.[cardId]).toEqual({ brand: expect.any(String), last4: "4242" });
    expect(JSON.stringify(audit.body)).not.toContain("tok_");
  });

  it("when the form of payment changes while the channel projection lags, then every read of the channel that follows the command's position shows the new one", async () => {
    const added = await supervisor.post("/credit_cards/", {
      credit_card: { number: "4000 0566 5566 5556", exp_month: 4, exp_year: 2033, holder: "OLENA KOVAL" },
    });
    expect(added.status).toBe(201);
    const cardId = added.body.data.id as string;
    for (const form_of_payment of ["card", "balance"] as const) {
      // The channel projection cannot write for a moment (reads go on): a read that does not wait for it is stale.
      const lag = await t.db.pool.connect();
      try {
        await lag.query("BEGIN");
        await lag.query("LOCK TABLE read.channels IN EXCLUSIVE MODE");
        const changed = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
          form_of_payment,
          ticketing_credit_card_id: cardId,
        });
        expect(changed.status).toBe(200);
        const reads = Promise.all([
          supervisor.get(`/ticketing/agency_channels/${dniproChannel}`, after(changed)),
          supervisor.get("/ticketing/agency_channels", after(changed)),
          supervisor.get("/account/details", after(changed)),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 400));
        await lag.query("COMMIT");
        const [read, listed, account] = await reads;
        for (const res of [read, listed, account]) expect(res.headers.get("x-stale")).toBeNull();
        expect(read.body.data).toMatchObject({
          form_of_payment,
          credit_card: expect.objectContaining({ id: cardId, last4: "5556" }),
        });
        expect(listed.body.data.find((c: Json) => c.id === dniproChannel)).toMatchObject({ form_of_payment });
        expect(account.body.settings.channels.find((c: Json) => c.id === dniproChannel)).toMatchObject({
          form_of_payment,
        });
      } finally {
        await lag.query("ROLLBACK").catch(() => undefined);
        lag.release();
      }
    }
    await supervisor.delete(`/ticketing/agency_channels/${dniproChannel}/credit_cards/${cardId}`);
    expect((await supervisor.delete(`/credit_cards/${cardId}`)).status).toBe(200);
  });

  it("when the channel pays by a card whose expiry month has passed, then issue, an EMD and an exchange are refused with card_expired, and nothing is charged or asked of the airline", async () => {
    // Tickets issued from the balance first: an EMD and an exchange need them (a Standard fare's change has a fee).
    await topUp(t.db, t.app.store, kyiv, 10_000_000_00);
    const forEmd = await holdBooking(agent);
    const byBalance = await agent.post("/bookings/issue", { locator: forEmd });
    expect(byBalance.status).toBe(201);
    await expectPaidBy(forEmd, byBalance, { data: { method: "balance" }, text: "Balance" });
    const forExchange = await holdFamily(agent, "standard");
    expect((await agent.post("/bookings/issue", { locator: forExchange })).status).toBe(201);
    const priced = await pricedExchange(agent, forExchange, 28);
    const offer = priced.body.offers.find((o: Json) => o.total_due.amount > 0);
    expect(offer).toBeDefined();
    const bag = await firstBag(agent, forEmd);
    const held = await holdBooking(agent);

    // Registered while its month was still running (the app's clock two months back): expired today.
    clockShiftMs = -62 * 86_400_000;
    const then = new Date(Date.now() + clockShiftMs);
    const added = await supervisor.post("/credit_cards/", {
      credit_card: {
        number: "5555 5555 5555 4444",
        exp_month: then.getUTCMonth() + 1,
        exp_year: then.getUTCFullYear(),
        holder: "TARAS OLD",
      },
    });
    clockShiftMs = 0;
    expect(added.status).toBe(201);
    const cardId = added.body.data.id as string;
    const byCard = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      form_of_payment: "card",
      ticketing_credit_card_id: cardId,
    });
    expect(byCard.status).toBe(200);
    try {
      const balanceEvents = (await t.events(`balance-${kyiv}`)).length;
      supplier.cardTokens.length = 0;
      const refusals = [
        await agent.post("/bookings/issue", { locator: held }),
        await addAncillaries(agent, forEmd, [{ ancillary_id: bag.ancillary_id, passenger_index: 0 }]),
        await agent.post(`/orders/${forExchange}/flights_change_requests/confirm`, {
          reshop_offer_id: offer.reshop_offer_id,
        }),
      ];
      for (const refused of refusals) {
        expect([refused.status, refused.body.errors?.[0]?.code]).toEqual([422, "card_expired"]);
        expect(refused.body.errors[0].detail).toContain("5555 5555 5555 4444".slice(-4));
      }
      expect(supplier.cardTokens).toEqual([]);
      expect((await t.events(`balance-${kyiv}`)).length).toBe(balanceEvents);
      for (const locator of [held, forEmd, forExchange])
        expect(
          (await t.events(`booking-${locator}`)).filter((e) =>
            ["TicketingStarted", "AncillariesStarted", "ExchangeStarted"].includes(e.type),
          ).length,
        ).toBe(locator === held ? 0 : 1);
    } finally {
      clockShiftMs = 0;
      await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, { form_of_payment: "balance" });
    }
  });

  it("when a supervisor names another agency's card or agency, then 404", async () => {
    const theirs = await admin.post("/credit_cards", {
      number: "5555 5555 5555 4444",
      exp_month: 1,
      exp_year: 2031,
      holder: "ANNA NOWAK",
      agency_id: demoId("agency", "vistula"),
    });
    expect(theirs.body.data).toMatchObject({ brand: "mastercard", last4: "4444" });
    expect(
      (
        await supervisor.post(`/ticketing/agency_channels/${dniproChannel}/credit_cards`, {
          credit_card_id: theirs.body.data.id,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await admin.post(`/ticketing/agency_channels/${dniproChannel}/credit_cards`, {
          credit_card_id: theirs.body.data.id,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await supervisor.post("/credit_cards", {
          number: CARD,
          exp_month: 1,
          exp_year: 2031,
          holder: "A B",
          agency_id: demoId("agency", "vistula"),
        })
      ).status,
    ).toBe(404);
    expect(
      codeOf(
        await agent.post("/credit_cards", { number: CARD, exp_month: 1, exp_year: 2031, holder: "A B" }),
      ),
    ).toBe("403 supervisor_or_admin_only");
  });
});

describe("credentials in a production process's log", () => {
  it("when channel credentials are stored and used by a production process, then its request log never shows them", async () => {
    const { spawn } = await import("node:child_process");
    const { fileURLToPath } = await import("node:url");
    const { createTestDatabase } = await import("@skyward/infra/testing");
    const { HttpClient } = await import("./testing/http-client.ts");
    const db = await createTestDatabase();
    const { NODE_ENV: _jest, NODE_OPTIONS: _vm, ...inherited } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/src/serve.ts"], {
      cwd: fileURLToPath(new URL("../../", import.meta.url)),
      env: {
        ...inherited,
        PORT: "0",
        DATABASE_URL: db.url,
        SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
        CREDENTIALS_KEY: "ab".repeat(32),
        SEED_DEMO: "true",
        LOG_LEVEL: "debug",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /listening at (\S+)/.exec(out);
          if (match?.[1]) {
            clearInterval(timer);
            resolve(match[1]);
          }
        }, 20);
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
      });
      const passwords = new Map(
        [...out.matchAll(/^ {2}(\S+@\S+) {2}(\S+)$/gm)].map((m) => [m[1] as string, m[2] as string]),
      );
      const productionAdmin = new HttpClient(url);
      await productionAdmin.signInWithPassword(
        "admin@skyward.test",
        passwords.get("admin@skyward.test") ?? "",
      );
      const productionAgent = new HttpClient(url);
      await productionAgent.signInWithPassword(
        "agent@vistula.test",
        passwords.get("agent@vistula.test") ?? "",
      );
      const vistulaChannel = demoId("channel", "vistula");
      const stored = await productionAdmin.patch(`/ticketing/agency_channels/${vistulaChannel}/credential`, {
        credential: { login: "vistula-office", password: SECRET_PASSWORD },
      });
      expect(stored.body.messages).toEqual([{ type: "success", text: "The credentials are correct." }]);
      const searched = await productionAgent.post("/offers", {
        origin: "WAW",
        destination: "KBP",
        departure_date: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
        passengers: { adults: 1, children: 0, infants: 0 },
      });
      expect(searched.status).toBe(200);
      // pino writes after the answer: wait for the search's line before reading the whole log.
      const traceId = searched.headers.get("x-trace-id") as string;
      for (let i = 0; i < 250 && !out.includes(traceId); i++) await new Promise((r) => setTimeout(r, 20));
      expect(out).toContain(traceId);
      expect(out).toContain("/ticketing/agency_channels");
      expect(out).not.toContain(SECRET_PASSWORD);
      expect(out).not.toContain("vistula-office");
    } finally {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
      await db.drop();
    }
  }, 300_000);
});
