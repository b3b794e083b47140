// Travellers the agency keeps (issue 23, items 4, 6 and 7), over real HTTP on a real PostgreSQL: kept per company,
// found as the agent types, a likely duplicate offered instead of a second record, seen by the agency only, bad
// input refused on the field with nothing written, and erased by destroying the traveller's key.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { AsOfResponse, HistoryPage, VerifyReport } from "@skyward/contracts/audit";
import { Traveller, TravellerAnswer, TravellerAsOf, TravellerList } from "@skyward/contracts/travellers";
import { chainAll } from "@skyward/infra/audit/chain";
import { contacts, inDays, passenger } from "./testing/bookings.ts";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { after, demo, type Roles, signInRoles } from "./testing/roles.ts";
import { download, pdfText, sessionCookie } from "./testing/sales.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await startTestApp();
  roles = await signInRoles(t);
}, 240_000);
afterAll(() => t.stop());

const passport = (number: string, expires_on = "2034-05-01") => ({
  type: "passport",
  number,
  issuing_country: "UA",
  nationality: "UA",
  expires_on,
});
const profile = (first_name: string, last_name: string, number: string) => ({
  first_name,
  last_name,
  date_of_birth: "1986-03-14",
  gender: "F",
  documents: [passport(number), { ...passport(`ID${number}`), type: "national_id" }],
  contacts: { email: `${first_name.toLowerCase()}@example.com`, phone: "+380501234567" },
  loyalty: [{ carrier: "LH", number: "992001234567" }],
  ssrs: ["VGML", "WCHR"],
});
const codeOf = (res: HttpResponse) => `${res.status} ${res.body?.errors?.[0]?.code}`;
const pointers = (res: HttpResponse) => (res.body.errors as Json[]).map((e) => e.source?.pointer);

async function keep(client: HttpClient, body: unknown): Promise<Traveller> {
  const res = await client.post("/travellers", body);
  if (res.status !== 201) throw new Error(`keeping a traveller failed: ${JSON.stringify(res.body)}`);
  return TravellerAnswer.parse(res.body).traveller;
}
async function find(client: HttpClient, q: string, res?: HttpResponse): Promise<Traveller[]> {
  const found = await client.get("/travellers", { query: { q }, ...(res ? after(res) : {}) });
  expect(found.status).toBe(200);
  return TravellerList.parse(found.body).data;
}

describe("keeping and finding travellers", () => {
  it("when an agent keeps a traveller, then the agent finds them by name or document as typed, with every field; the stored event holds nothing readable of them", async () => {
    const created = await roles.agent.post("/travellers", {
      traveller: profile("Olena", "Kovalenko", "FK556677"),
    });
    expect(created.status).toBe(201);
    const traveller = TravellerAnswer.parse(created.body).traveller;
    expect(traveller).toMatchObject({ company_id: demo.kyiv, agency_id: demo.dnipro, first_name: "OLENA" });

    for (const typed of ["kova", "OLENA KOV", "kovalenko olena", "fk5566", "idfk556677"])
      expect((await find(roles.agent, typed, created)).map((x) => x.id)).toEqual([traveller.id]);
    expect(await find(roles.agent, "kovalenko petro", created)).toEqual([]);
    const one = await roles.agent.get(`/travellers/${traveller.id}`, after(created));
    expect(Traveller.parse(one.body.traveller)).toMatchObject({
      erased: false,
      last_name: "KOVALENKO",
      date_of_birth: "1986-03-14",
      gender: "F",
      documents: [{ number: "FK556677" }, { number: "IDFK556677", type: "national_id" }],
      contacts: { email: "olena@example.com", phone: "+380501234567" },
      loyalty: [{ carrier: "LH", number: "992001234567" }],
      ssrs: ["VGML", "WCHR"],
    });

    const [registered] = await t.events(`traveller-${traveller.id}`);
    expect(registered?.type).toBe("TravellerRegistered");
    const stored = JSON.stringify(registered);
    for (const personal of ["OLENA", "Olena", "KOVALENKO", "FK556677", "1986-03-14", "VGML", "992001234567"])
      expect(stored).not.toContain(personal);
  });

  it("when a traveller of the same name and date of birth is kept again, then the existing one is offered (409) and nothing is written, unless the agent says it is another person", async () => {
    const kept = await roles.agent.post("/travellers", {
      traveller: profile("Iryna", "Shevchuk", "FS100200"),
    });
    const first = TravellerAnswer.parse(kept.body).traveller;
    const before = await t.countEventsButBackground();
    // Another agent of the company, names in other letter case, another passport: the same person, likely.
    const again = await roles.supervisor.post(
      "/travellers",
      { company_id: demo.kyiv, traveller: { ...profile("IRYNA", "shevchuk", "FS999888") } },
      after(kept),
    );
    expect(codeOf(again)).toBe("409 traveller_duplicate");
    expect(again.body.errors[0]).toMatchObject({
      source: { pointer: "/traveller" },
      meta: { traveller_id: first.id },
    });
    expect(await t.countEventsButBackground()).toBe(before);

    const second = await roles.agent.post("/travellers", {
      traveller: profile("Iryna", "Shevchuk", "FS999888"),
      allow_duplicate: true,
    });
    expect(second.status).toBe(201);
    expect(second.body.traveller.id).not.toBe(first.id);
  });

  it("when a traveller is changed, then readers see the new profile; a change into another kept traveller's name and birth date is offered as a duplicate", async () => {
    const kept = await keep(roles.agent, { traveller: profile("Taras", "Melnyk", "FM300400") });
    const changed = await roles.agent.put(`/travellers/${kept.id}`, {
      traveller: { ...profile("Taras", "Melnyk", "FM300401"), ssrs: ["DBML"], loyalty: [] },
    });
    expect(changed.status).toBe(200);
    const read = await roles.agent.get(`/travellers/${kept.id}`, after(changed));
    expect(read.body.traveller).toMatchObject({
      ssrs: ["DBML"],
      loyalty: [],
      documents: [{ number: "FM300401" }, { number: "IDFM300401" }],
    });
    expect((await t.events(`traveller-${kept.id}`)).map((e) => e.type)).toEqual([
      "TravellerRegistered",
      "TravellerUpdated",
    ]);
    const other = await roles.agent.post("/travellers", {
      traveller: profile("Bohdan", "Melnyk", "FM300499"),
    });
    const into = await roles.agent.put(
      `/travellers/${kept.id}`,
      { traveller: profile("Bohdan", "Melnyk", "FM300401") },
      after(other),
    );
    expect(codeOf(into)).toBe("409 traveller_duplicate");
    expect(into.body.errors[0].meta).toEqual({ traveller_id: other.body.traveller.id });
  });

  it("when the booking form asks for the recent travellers (order=recent), then the latest kept or changed come first, in the caller's scope; a bad order is 422", async () => {
    const first = await keep(roles.agent, { traveller: profile("Iryna", "Recentova", "FR100001") });
    const second = await keep(roles.agent, { traveller: profile("Marta", "Recentova", "FR100002") });
    const changed = await roles.agent.put(`/travellers/${first.id}`, {
      traveller: profile("Iryna", "Recentova", "FR100003"),
    });
    expect(changed.status).toBe(200);
    const recent = await roles.agent.get("/travellers", {
      query: { order: "recent", limit: "2" },
      ...after(changed),
    });
    expect(recent.status).toBe(200);
    expect(TravellerList.parse(recent.body).data.map((x) => x.id)).toEqual([first.id, second.id]);
    // By name when no order is asked for, as before.
    expect((await find(roles.agent, "recentova", changed)).map((x) => x.first_name)).toEqual([
      "IRYNA",
      "MARTA",
    ]);
    // Another company's agent sees none of them, recent or not.
    const lviv = await roles.lvivAgent.get("/travellers", { query: { order: "recent" }, ...after(changed) });
    expect(TravellerList.parse(lviv.body).data.map((x) => x.id)).not.toContain(first.id);
    const bad = await roles.agent.get("/travellers", { query: { order: "newest" } });
    expect(codeOf(bad)).toMatch(/^422 /);
    expect(bad.body.errors[0].source).toEqual({ parameter: "order" });
  });

  it("when the input is bad (a bad SSR code, an unknown carrier, a broken document, two meals), then 422 names each field and nothing is written", async () => {
    const before = await t.countEventsButBackground();
    const good = profile("Petro", "Bondar", "FB123123");
    const cases: [unknown, string[]][] = [
      [{ ...good, ssrs: ["VGML", "XXXX"] }, ["/traveller/ssrs/1"]],
      [{ ...good, loyalty: [{ carrier: "ZZ", number: "12345678" }] }, ["/traveller/loyalty/0/carrier"]],
      [
        { ...good, documents: [{ ...passport("F1"), expires_on: "2030-02-30" }] },
        ["/traveller/documents/0/number", "/traveller/documents/0/expires_on"],
      ],
      [{ ...good, ssrs: ["VGML", "KSML"] }, ["/traveller/ssrs"]],
      [{ ...good, first_name: "Петро" }, ["/traveller/first_name"]],
    ];
    for (const [traveller, expected] of cases) {
      const res = await roles.agent.post("/travellers", { traveller });
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(expected);
    }
    const kept = await keep(roles.agent, { traveller: good });
    const badChange = await roles.agent.put(`/travellers/${kept.id}`, {
      traveller: { ...good, loyalty: [{ carrier: "LH", number: "1" }] },
    });
    expect(pointers(badChange)).toEqual(["/traveller/loyalty/0/number"]);
    expect(await t.countEventsButBackground()).toBe(before + 1);
    // An administrator names the company; a supervisor one of its agency's.
    expect(pointers(await roles.admin.post("/travellers", { traveller: good }))).toEqual(["/company_id"]);
    expect(
      codeOf(await roles.supervisor.post("/travellers", { company_id: demo.waw, traveller: good })),
    ).toBe("404 company_not_found");
  });
});

describe("who sees and changes travellers", () => {
  it("when a Kyiv agent's traveller is asked for, then the Kyiv agent, the Dnipro supervisor, the administrator and the auditor see it; the Lviv agent, the other agency and the demo user see nothing, on every route", async () => {
    const res = await roles.agent.post("/travellers", {
      traveller: profile("Marta", "Scopetest", "FX777001"),
    });
    const kept = TravellerAnswer.parse(res.body).traveller;
    for (const [name, client] of [
      ["agent", roles.agent],
      ["supervisor", roles.supervisor],
      ["admin", roles.admin],
      ["auditor", roles.auditor],
    ] as const) {
      expect([name, (await client.get(`/travellers/${kept.id}`, after(res))).status]).toEqual([name, 200]);
      expect([name, (await find(client, "scopetest", res)).map((x) => x.id)]).toEqual([name, [kept.id]]);
    }
    const before = await t.countEventsButBackground();
    for (const [name, client] of [
      ["lviv agent", roles.lvivAgent],
      ["other supervisor", roles.otherSupervisor],
      ["other agent", roles.otherAgent],
      ["demo user", roles.demoUser],
    ] as const) {
      expect([name, codeOf(await client.get(`/travellers/${kept.id}`, after(res)))]).toEqual([
        name,
        "404 traveller_not_found",
      ]);
      expect([name, await find(client, "scopetest", res)]).toEqual([name, []]);
      expect([name, JSON.stringify(await find(client, "", res)).includes("SCOPETEST")]).toEqual([
        name,
        false,
      ]);
      const put = await client.put(`/travellers/${kept.id}`, {
        traveller: profile("Marta", "Stolen", "FX777001"),
      });
      expect([name, codeOf(put)]).toEqual([name, "404 traveller_not_found"]);
      // Keeping one in another tenant's company is refused as if the company did not exist (the demo user keeps
      // its own in its sandbox, below).
      if (client === roles.demoUser) continue;
      const elsewhere = await client.post("/travellers", {
        company_id: demo.kyiv,
        traveller: profile("Marta", "Elsewhere", "FX777002"),
      });
      expect([name, codeOf(elsewhere)]).toEqual([name, "404 company_not_found"]);
    }
    expect(codeOf(await roles.otherSupervisor.delete(`/travellers/${kept.id}`))).toBe(
      "404 traveller_not_found",
    );
    expect(await t.countEventsButBackground()).toBe(before);
    // Roles: an agent does not erase, an auditor changes nothing.
    expect(codeOf(await roles.agent.delete(`/travellers/${kept.id}`))).toBe("403 supervisor_or_admin_only");
    expect(
      codeOf(await roles.auditor.put(`/travellers/${kept.id}`, { traveller: profile("A", "B", "FX777003") })),
    ).toBe("403 auditor_read_only");
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when the demo user keeps a traveller, then it stays in the demo user's sandbox: the company's agents never see it", async () => {
    const res = await roles.demoUser.post("/travellers", {
      traveller: profile("Demo", "Sandboxed", "FD000111"),
    });
    expect(res.status).toBe(201);
    expect((await find(roles.demoUser, "sandboxed", res)).length).toBe(1);
    expect(await find(roles.agent, "sandboxed", res)).toEqual([]);
    expect(await find(roles.supervisor, "sandboxed", res)).toEqual([]);
    expect(codeOf(await roles.agent.get(`/travellers/${res.body.traveller.id}`))).toBe(
      "404 traveller_not_found",
    );
  });
});

describe("a company deleted a moment ago", () => {
  it("when a traveller is kept in a company right after the company was deleted (before the read models know), then 404 company_not_found and no traveller is written", async () => {
    for (let round = 0; round < 5; round++) {
      const created = await roles.admin.post("/companies", {
        company: { agency_id: demo.dnipro, name: `Dnipro Travel Brief ${round}`, currency: "UAH" },
      });
      expect(created.status).toBe(201);
      const companyId = created.body.company.id as string;
      // The company is in the read model the traveller command first reads...
      expect((await roles.admin.get(`/companies/${companyId}`, after(created))).status).toBe(200);
      // ...and is deleted; the traveller is asked for at once, without waiting for the deletion to be projected.
      expect((await roles.admin.delete(`/companies/${companyId}`)).status).toBe(200);
      const kept = await roles.admin.post("/travellers", {
        company_id: companyId,
        traveller: profile("Late", `Keeper${"X".repeat(round + 1)}`, `FL00${round}111`),
      });
      expect(codeOf(kept)).toBe("404 company_not_found");
      const { rows } = await t.db.pool.query(
        "SELECT count(*)::int AS n FROM es.events WHERE event_type = 'TravellerRegistered' AND data->>'company_id' = $1",
        [companyId],
      );
      expect(rows[0].n).toBe(0);
    }
  });
});

describe("erasure (right to erasure, by crypto-shredding)", () => {
  const MARKERS = ["ZORYANA", "SHREDDENKO", "FZ909090", "FZ909091", "SHRED12345", "1979-11-23"];
  const patterns = MARKERS.map((m) => `%${m}%`);
  /** Every table of the schemas (read models, app state, the event store) whose rows show a marker, as text. */
  const tablesShowing = async (schemas: string[]) => {
    const { rows } = await t.db.pool.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
        WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE'
          AND upper(query_to_xml(format('SELECT * FROM %I.%I', table_schema, table_name), true, false, '')::text)
              LIKE ANY($2)
        ORDER BY 1`,
      [schemas, patterns],
    );
    return rows.map((r) => r.name);
  };
  const showsAny = (value: unknown) => MARKERS.filter((m) => JSON.stringify(value).toUpperCase().includes(m));

  it("when a supervisor erases a traveller, then no read model, kept answer, audit history, export or stored event shows anything of theirs; readers see a placeholder; the hash chain still verifies", async () => {
    const person = {
      first_name: "Zoryana",
      last_name: "Shreddenko",
      date_of_birth: "1979-11-23",
      gender: "F",
      documents: [passport("FZ909090")],
      contacts: { email: "zoryana.shreddenko@example.com", phone: "+380671234567" },
      loyalty: [{ carrier: "PS", number: "SHRED12345" }],
      ssrs: ["KSML"],
    };
    const kept = await roles.agent.post(
      "/travellers",
      { traveller: person },
      { headers: { "idempotency-key": "erase-me-1" } },
    );
    expect(kept.status).toBe(201);
    const id = kept.body.traveller.id as string;
    const changed = await roles.agent.put(`/travellers/${id}`, {
      traveller: { ...person, documents: [passport("FZ909091")] },
    });
    expect(changed.status).toBe(200);
    expect((await find(roles.supervisor, "shreddenko", changed)).map((x) => x.id)).toEqual([id]);
    // Before: the read model and the kept answer show them (the scan finds what it looks for).
    expect(await tablesShowing(["read", "app"])).toEqual(
      expect.arrayContaining(["app.idempotency_keys", expect.stringMatching(/^read\.travellers_g\d+$/)]),
    );

    const erased = await roles.supervisor.delete(`/travellers/${id}`);
    expect(erased.status).toBe(200);
    expect(erased.body.traveller).toMatchObject({ id, erased: true, first_name: null, documents: [] });
    const placeholder = await roles.agent.get(`/travellers/${id}`, after(erased));
    expect(Traveller.parse(placeholder.body.traveller)).toMatchObject({
      id,
      erased: true,
      first_name: null,
      last_name: null,
      date_of_birth: null,
      gender: null,
      documents: [],
      contacts: {},
      loyalty: [],
      ssrs: [],
    });
    expect(await find(roles.supervisor, "shreddenko", erased)).toEqual([]);
    expect((await t.events(`traveller-${id}`)).map((e) => e.type)).toEqual([
      "TravellerRegistered",
      "TravellerUpdated",
      "TravellerErased",
    ]);
    const { rows: keys } = await t.db.pool.query("SELECT 1 FROM app.traveller_keys WHERE traveller_id = $1", [
      id,
    ]);
    expect(keys).toEqual([]);

    // Every table: the read models, the app's state, the event store's events (data and metadata) and chain.
    expect(await tablesShowing(["read", "app", "es", "public"])).toEqual([]);
    await chainAll(t.db.pool);
    for (const reader of [roles.admin, roles.supervisor, roles.auditor]) {
      const history = await reader.get("/audit/events", { query: { stream_id: `traveller-${id}` } });
      const page = HistoryPage.parse(history.body.data);
      expect(page.events.map((e) => e.type)).toEqual([
        "TravellerRegistered",
        "TravellerUpdated",
        "TravellerErased",
      ]);
      expect(showsAny(page)).toEqual([]);
      const exported = await reader.get("/audit/export", {
        query: { stream_id: `traveller-${id}` },
        headers: { accept: "application/json" },
      });
      expect(exported.status).toBe(200);
      expect(exported.body.data.length).toBe(4);
      expect(showsAny(exported.body)).toEqual([]);
    }
    // Nothing can change them again; erasing again changes nothing.
    expect(codeOf(await roles.agent.put(`/travellers/${id}`, { traveller: person }))).toBe(
      "422 traveller_erased",
    );
    const again = await roles.supervisor.delete(`/travellers/${id}`);
    expect(again.status).toBe(200);
    expect((await t.events(`traveller-${id}`)).length).toBe(3);

    await chainAll(t.db.pool);
    const report = VerifyReport.parse((await roles.admin.get("/audit/verify")).body.data);
    expect(report).toMatchObject({ ok: true, problem: null, unchained: 0 });
    expect(report.checked).toBeGreaterThan(0);
  });
});

describe("a traveller in time travel", () => {
  const MARKERS = ["YARYNA", "TIMETRAVEL", "FT123456", "FT123457", "1986-03-14", "992001234567"];
  const showsAny = (value: unknown) => MARKERS.filter((m) => JSON.stringify(value).toUpperCase().includes(m));
  const moment = async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const at = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return at;
  };
  const asOf = async (client: HttpClient, id: string, query: Record<string, string>) => {
    const res = await client.get(`/audit/as_of/traveller/${id}`, { query });
    if (res.status !== 200) return { status: res.status, code: codeOf(res), body: null };
    const body = AsOfResponse.parse(res.body.data);
    return { status: 200, code: "", body };
  };
  const personalOf = (state: unknown) => {
    const parsed = TravellerAsOf.parse(state);
    return parsed.status === "none" ? null : parsed;
  };

  it("when a kept traveller is read as of two moments, then the names and documents of each moment show and the difference names the new document, and the event history shows the names; after erasure every moment and every event shows the erased marker and nothing personal; other tenants get 404", async () => {
    const kept = await keep(roles.agent, { traveller: profile("Yaryna", "Timetravel", "FT123456") });
    const keptAt = await moment();
    const changed = await roles.agent.put(`/travellers/${kept.id}`, {
      traveller: profile("Yaryna", "Timetravel", "FT123457"),
    });
    expect(changed.status).toBe(200);
    const changedAt = await moment();

    for (const client of [roles.agent, roles.supervisor, roles.admin, roles.auditor]) {
      const read = await asOf(client, kept.id, { at: keptAt, compare: changedAt });
      expect(read.status).toBe(200);
      const then = personalOf(read.body?.as_of.state);
      expect(then).toMatchObject({
        status: "kept",
        personal_erased: false,
        personal: { first_name: "YARYNA", last_name: "TIMETRAVEL", date_of_birth: "1986-03-14" },
      });
      expect(then?.personal?.documents[0]?.number).toBe("FT123456");
      expect(personalOf(read.body?.compared?.state)?.personal?.documents[0]?.number).toBe("FT123457");
      expect(read.body?.changes).toContainEqual({
        path: "/personal/documents/0/number",
        before: "FT123456",
        after: "FT123457",
      });
    }
    for (const client of [roles.lvivAgent, roles.otherSupervisor, roles.otherAgent, roles.demoUser]) {
      const refused = await asOf(client, kept.id, { at: changedAt });
      expect(refused.code).toBe("404 traveller_not_found");
    }
    expect((await asOf(roles.admin, "no-such-traveller", { at: changedAt })).code).toBe(
      "404 traveller_not_found",
    );

    // The event history reads the names each event sealed, while the key is kept.
    const history = async (client: HttpClient) => {
      await chainAll(t.db.pool);
      const res = await client.get("/audit/events", { query: { stream_id: `traveller-${kept.id}` } });
      expect(res.status).toBe(200);
      return HistoryPage.parse(res.body.data).events;
    };
    const whileKept = await history(roles.auditor);
    expect(whileKept.map((e) => e.type)).toEqual(["TravellerRegistered", "TravellerUpdated"]);
    for (const e of whileKept)
      expect(e.traveller).toEqual({ erased: false, first_name: "YARYNA", last_name: "TIMETRAVEL" });

    const erased = await roles.supervisor.delete(`/travellers/${kept.id}`);
    expect(erased.status).toBe(200);
    const erasedAt = await moment();
    const afterErasure = await history(roles.auditor);
    expect(afterErasure.map((e) => [e.type, e.traveller])).toEqual([
      ["TravellerRegistered", { erased: true, first_name: null, last_name: null }],
      ["TravellerUpdated", { erased: true, first_name: null, last_name: null }],
      ["TravellerErased", undefined],
    ]);
    expect(showsAny(afterErasure)).toEqual([]);
    for (const client of [roles.agent, roles.supervisor, roles.admin, roles.auditor]) {
      // A moment before the erasure: the traveller was kept then, but its fields cannot be read any more.
      const before = await asOf(client, kept.id, { at: keptAt, compare: erasedAt });
      expect(before.status).toBe(200);
      expect(personalOf(before.body?.as_of.state)).toMatchObject({
        status: "kept",
        personal_erased: true,
        personal: null,
      });
      expect(personalOf(before.body?.compared?.state)).toMatchObject({
        status: "erased",
        personal_erased: true,
        personal: null,
      });
      expect(before.body?.changes).toEqual([{ path: "/status", before: "kept", after: "erased" }]);
      expect(showsAny(before.body)).toEqual([]);
    }
  });
});

describe("loyalty numbers and SSRs on bookings", () => {
  /** A fare of an option LOT markets on every flight (LO, Star Alliance), and its search. */
  async function lotFare(client: HttpClient) {
    const res = await client.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["LO"],
    });
    expect(res.status).toBe(200);
    const option = (res.body.result.origin_destinations as Json[]).find((od) =>
      (od.flights as Json[]).every((f) => (f.segments as Json[]).every((seg) => seg.carrier === "LO")),
    );
    const fare = ((option as Json).fares as Json[]).find((f) => !f.instant_payment);
    return { search_result_id: res.body.result.id as string, fare_id: fare.fare_id as string };
  }

  it("when a passenger is booked with a loyalty number of the carrier's alliance and SSRs, then the airline takes them and the booking shows them; another alliance's number is refused on its field with the reason, and nothing is written", async () => {
    const fare = await lotFare(roles.agent);
    const before = await t.countEventsButBackground();
    const refused = await roles.agent.post("/bookings", {
      ...fare,
      passengers: [{ ...passenger("Ivan", "Loyal"), loyalty: { carrier: "AF", number: "2001234567" } }],
      contacts,
    });
    expect(codeOf(refused)).toBe("422 invalid_input");
    expect(pointers(refused)).toEqual(["/passengers/0/loyalty/carrier"]);
    expect(refused.body.errors[0].detail).toMatch(/LO does not accept AF.*Star Alliance.*SkyTeam/);
    for (const [bad, pointer] of [
      [{ loyalty: { carrier: "ZZ", number: "2001234567" } }, "/passengers/0/loyalty/carrier"],
      [{ ssrs: ["VGML", "XXXX"] }, "/passengers/0/ssrs/1"],
      [{ ssrs: ["VGML", "KSML"] }, "/passengers/0/ssrs"],
    ] as const) {
      const res = await roles.agent.post("/bookings", {
        ...fare,
        passengers: [{ ...passenger("Ivan", "Loyal"), ...bad }],
        contacts,
      });
      expect([pointer, res.status, pointers(res)]).toEqual([pointer, 422, [pointer]]);
    }
    expect(await t.countEventsButBackground()).toBe(before);

    const held = await roles.agent.post("/bookings", {
      ...fare,
      passengers: [
        {
          ...passenger("Ivan", "Loyal"),
          loyalty: { carrier: "lh", number: "992001234567" },
          ssrs: ["VGML", "WCHR"],
        },
      ],
      contacts,
    });
    expect(held.status).toBe(201);
    const page = await roles.agent.get(`/bookings/${held.body.locator}`, after(held));
    expect(page.body.data.passengers[0]).toMatchObject({
      loyalty: { carrier: "LH", number: "992001234567" },
      ssrs: ["VGML", "WCHR"],
    });
    const locator = held.body.locator as string;
    expect((await t.events(`booking-${locator}`)).map((e) => [e.type, e.data.passengers])).toEqual([
      ["BookingHeld", [expect.not.objectContaining({ loyalty: expect.anything() })]],
      [
        "PassengerServicesRequested",
        [{ index: 0, loyalty: { carrier: "LH", number: "992001234567" }, ssrs: ["VGML", "WCHR"] }],
      ],
    ]);

    // Changed while the booking allows it: another alliance refused on its field, nothing written; then a change.
    const events = (await t.events(`booking-${locator}`)).length;
    const wrong = await roles.agent.post("/bookings/modify", {
      locator,
      passengers: [{ index: 0, loyalty: { carrier: "BA", number: "12345678" } }],
    });
    expect(pointers(wrong)).toEqual(["/passengers/0/loyalty/carrier"]);
    expect(wrong.body.errors[0].detail).toMatch(/LO does not accept BA.*oneworld/);
    const same = await roles.agent.post("/bookings/modify", {
      locator,
      passengers: [{ index: 0, ssrs: ["VGML", "WCHR"] }],
    });
    expect(codeOf(same)).toBe("422 nothing_to_change");
    expect((await t.events(`booking-${locator}`)).length).toBe(events);
    const changed = await roles.agent.post("/bookings/modify", {
      locator,
      passengers: [{ index: 0, loyalty: null, ssrs: ["DBML"] }],
    });
    expect(changed.status).toBe(200);
    const after2 = await roles.agent.get(`/bookings/${locator}`, after(changed));
    expect(after2.body.data.passengers[0].ssrs).toEqual(["DBML"]);
    expect(after2.body.data.passengers[0]).not.toHaveProperty("loyalty");
    expect((await t.events(`booking-${locator}`)).at(-1)).toMatchObject({
      type: "PassengerServicesRequested",
      data: { passengers: [{ index: 0, loyalty: null, ssrs: ["DBML"] }] },
    });
  });

  it("when the booking is issued, then the ticket's receipt (its data and the PDF itinerary) shows the passenger's loyalty number and special services", async () => {
    const fare = await lotFare(roles.agent);
    const held = await roles.agent.post("/bookings", {
      ...fare,
      passengers: [
        {
          ...passenger("Ivan", "Receipted"),
          loyalty: { carrier: "LO", number: "92012345678" },
          ssrs: ["AVML", "WCHR"],
        },
      ],
      contacts,
    });
    expect(held.status).toBe(201);
    const issued = await roles.agent.post("/bookings/issue", { locator: held.body.locator });
    expect(issued.status).toBe(201);
    const lines = await roles.agent.get("/sales", {
      ...after(issued),
      query: { "ticket[text]": held.body.locator },
    });
    const line = (lines.body.data as Json[]).find((l) => l.kind === "ticket");
    const receipt = await roles.agent.get(`/sales/${line.id}`, { query: { format: "data" } });
    expect(receipt.body.data).toMatchObject({
      loyalty: { carrier: "LO", number: "92012345678" },
      ssrs: ["AVML", "WCHR"],
    });
    const cookie = sessionCookie(await t.client().signInWithPassword("agent@dnipro.test", DEMO_PASSWORD));
    const pdf = await download(t.app.url, cookie, `/sales/${line.id}?lang=en`);
    const text = (await pdfText(pdf.bytes)).replace(/\s+/g, " ");
    expect(text).toContain("Loyalty number: LO 92012345678");
    expect(text).toContain("Special services: AVML, WCHR");
  });
});
