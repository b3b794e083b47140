// The sales read model from booking events in a real PostgreSQL: given events, then these lines and day aggregates;
// the events applied one by one give what a batch of all of them gives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { BookingEventInput } from "@skyward/contracts/booking-events";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { sales } from "./sales.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

const uah = (amount: number) => ({ amount, currency: "UAH" });
const line = (
  type: "adult" | "child",
  count: number,
  base: number,
  taxes: number,
  am: number,
  cm: number,
  fee: number,
) => ({
  type,
  count,
  base_fare: uah(base),
  taxes: uah(taxes),
  agency_markup: uah(am),
  company_markup: uah(cm),
  transaction_fee: uah(fee),
  total: uah(base + taxes + am + cm + fee),
});

/** Two adults and a child; the booking adds a 50.00 per-booking fee on top of the passenger lines. */
const priceDetail = {
  passengers: [
    line("adult", 2, 400_00, 100_00, 20_00, 10_00, 5_00),
    line("child", 1, 300_00, 100_00, 20_00, 10_00, 5_00),
  ],
  base_fare: uah(1100_00),
  taxes: uah(300_00),
  agency_markup: uah(60_00),
  company_markup: uah(30_00),
  transaction_fee: uah(15_00 + 50_00),
  total: uah(1100_00 + 300_00 + 60_00 + 30_00 + 65_00),
};

const person = (first: string, last: string, type: "adult" | "child") => ({
  type,
  gender: "F" as const,
  first_name: first,
  last_name: last,
  date_of_birth: type === "child" ? "2018-01-01" : "1980-01-01",
  document: {
    type: "passport" as const,
    number: "FN123456",
    issuing_country: "UA",
    nationality: "UA",
    expires_on: "2032-01-01",
  },
});

function held(agencyId: string, companyId: string, agentId: string): BookingEventInput {
  return {
    type: "BookingHeld",
    data: {
      locator: "",
      company_id: companyId,
      agency_id: agencyId,
      agent_id: agentId,
      channel_id: "channel-1",
      supplier_booking: null,
      fare: {
        fare_id: "f1",
        carrier: "PS",
        route: "KBP-WAW",
        departure_at: "2026-12-01T07:15:00+02:00",
        fare: {} as never,
        flights: [],
      },
      passengers: [
        person("Olena", "Koval", "adult"),
        person("Petro", "Koval", "adult"),
        person("Ira", "Koval", "child"),
      ],
      contacts: { email: "traveller@example.com", phone: "+380501112233" },
      price: priceDetail.total,
      price_detail: priceDetail,
      time_limit: "2026-11-30T10:00:00Z",
      fake_booking: false,
      provider_status: "confirmed",
      instant_payment: false,
      held_at: "2026-11-20T10:00:00Z",
    },
  };
}

const ticket = (n: number, index: number, name: string) => ({
  ticket_number: `566${String(n).padStart(10, "0")}`,
  passenger_index: index,
  passenger_name: name,
  validating_carrier: "PS",
  base_fare: uah(1),
  taxes: uah(1),
  total: uah(2),
});

function issued(serial: number, at: string): BookingEventInput {
  return {
    type: "TicketsIssued",
    data: {
      operation_id: randomUUID(),
      tickets: [
        ticket(serial, 0, "KOVAL/OLENA"),
        ticket(serial + 1, 1, "KOVAL/PETRO"),
        ticket(serial + 2, 2, "KOVAL/IRA"),
      ],
      issued_at: at,
      void_until: null,
      supplier_booking: null,
    },
  };
}

async function append(locator: string, ...events: BookingEventInput[]): Promise<void> {
  for (const e of events)
    await store.append({
      streamId: `booking-${locator}`,
      expected: "any",
      events: [{ ...e, metadata: systemMetadata() } as never],
    });
}

const LINE = `id, kind, status, locator, original_document, passenger_name, route, sale_date::text, base_fare::int,
  taxes::int, agency_markup::int, company_markup::int, transaction_fee::int, total::int, currency`;

async function rebuilt(batchSize: number, agencyId: string) {
  await rebuildProjection(db.pool, store, sales, { batchSize });
  const lines = await db.pool.query(`SELECT ${LINE} FROM read.sales WHERE agency_id = $1 ORDER BY id`, [
    agencyId,
  ]);
  const daily = await db.pool.query(
    `SELECT sale_date::text, lines, tickets_issued, tickets_voided, issued_total::int, total::int,
            agency_markup::int + company_markup::int + transaction_fee::int AS revenue
       FROM read.sales_daily WHERE agency_id = $1 ORDER BY sale_date`,
    [agencyId],
  );
  const routes = await db.pool.query(
    "SELECT sale_date::text, route, carrier, tickets, total::int FROM read.sales_route_daily WHERE agency_id = $1 ORDER BY sale_date",
    [agencyId],
  );
  return { lines: lines.rows, daily: daily.rows, routes: routes.rows };
}

describe("sales projection", () => {
  it("given a booking issued and another issued then voided the next day, then one line per ticket and void, priced from the booking, with day aggregates to match", async () => {
    const agency = randomUUID();
    const company = randomUUID();
    await append("SALEAA", { ...held(agency, company, "agent-1") }, issued(1, "2026-11-20T11:00:00Z"));
    await append(
      "SALEBB",
      held(agency, company, "agent-1"),
      { type: "BookingCommented", data: { comment: "window seat", at: "2026-11-20T11:30:00Z", by: null } },
      issued(10, "2026-11-20T12:00:00Z"),
      {
        type: "BookingVoided",
        data: { operation_id: randomUUID(), at: "2026-11-21T09:00:00Z", credited: null },
      },
    );

    const oneByOne = await rebuilt(1, agency);
    const together = await rebuilt(1000, agency);
    expect(together).toEqual(oneByOne);

    const adult = [400_00, 100_00, 20_00, 10_00, 5_00, 535_00];
    const child = [300_00, 100_00, 20_00, 10_00, 5_00, 435_00];
    // The per-booking fee (50.00) goes on the first passenger's ticket, so a booking's lines add up to its price.
    const first = [400_00, 100_00, 20_00, 10_00, 55_00, 585_00];
    const row = (
      id: string,
      kind: string,
      status: string,
      locator: string,
      original: string | null,
      name: string,
      day: string,
      a: number[],
    ) => ({
      id,
      kind,
      status,
      locator,
      original_document: original,
      passenger_name: name,
      route: "KBP-WAW",
      sale_date: day,
      base_fare: a[0],
      taxes: a[1],
      agency_markup: a[2],
      company_markup: a[3],
      transaction_fee: a[4],
      total: a[5],
      currency: "UAH",
    });
    const neg = (a: number[]) => a.map((x) => -x);
    expect(together.lines).toEqual([
      row("5660000000001-ticket", "ticket", "issued", "SALEAA", null, "KOVAL/OLENA", "2026-11-20", first),
      row("5660000000002-ticket", "ticket", "issued", "SALEAA", null, "KOVAL/PETRO", "2026-11-20", adult),
      row("5660000000003-ticket", "ticket", "issued", "SALEAA", null, "KOVAL/IRA", "2026-11-20", child),
      row("5660000000010-ticket", "ticket", "voided", "SALEBB", null, "KOVAL/OLENA", "2026-11-20", first),
      row(
        "5660000000010-void",
        "void",
        "voided",
        "SALEBB",
        "5660000000010",
        "KOVAL/OLENA",
        "2026-11-21",
        neg(first),
      ),
      row("5660000000011-ticket", "ticket", "voided", "SALEBB", null, "KOVAL/PETRO", "2026-11-20", adult),
      row(
        "5660000000011-void",
        "void",
        "voided",
        "SALEBB",
        "5660000000011",
        "KOVAL/PETRO",
        "2026-11-21",
        neg(adult),
      ),
      row("5660000000012-ticket", "ticket", "voided", "SALEBB", null, "KOVAL/IRA", "2026-11-20", child),
      row(
        "5660000000012-void",
        "void",
        "voided",
        "SALEBB",
        "5660000000012",
        "KOVAL/IRA",
        "2026-11-21",
        neg(child),
      ),
    ]);
    expect(585_00 + 535_00 + 435_00).toBe(priceDetail.total.amount);

    const price = priceDetail.total.amount;
    const revenue = 60_00 + 30_00 + 65_00;
    expect(together.daily).toEqual([
      {
        sale_date: "2026-11-20",
        lines: 6,
        tickets_issued: 6,
        tickets_voided: 0,
        issued_total: 2 * price,
        total: 2 * price,
        revenue: 2 * revenue,
      },
      {
        sale_date: "2026-11-21",
        lines: 3,
        tickets_issued: 0,
        tickets_voided: 3,
        issued_total: 0,
        total: -price,
        revenue: -revenue,
      },
    ]);
    expect(together.routes).toEqual([
      { sale_date: "2026-11-20", route: "KBP-WAW", carrier: "PS", tickets: 6, total: 2 * price },
      { sale_date: "2026-11-21", route: "KBP-WAW", carrier: "PS", tickets: -3, total: -price },
    ]);
  });

  it("given a booking repriced before issue, then its tickets carry the new price", async () => {
    const agency = randomUUID();
    const raised = {
      ...priceDetail,
      passengers: [
        line("adult", 2, 500_00, 100_00, 20_00, 10_00, 5_00),
        line("child", 1, 300_00, 100_00, 20_00, 10_00, 5_00),
      ],
      base_fare: uah(1300_00),
      total: uah(priceDetail.total.amount + 200_00),
    };
    await append(
      "SALECC",
      held(agency, randomUUID(), "agent-2"),
      {
        type: "BookingRepriced",
        data: { price: raised.total, price_detail: raised, supplier_booking: null },
      },
      issued(20, "2026-11-22T08:00:00Z"),
    );
    const { lines } = await rebuilt(1000, agency);
    expect(lines.map((l) => l.total)).toEqual([685_00, 635_00, 435_00]);
    expect(lines.reduce((s, l) => s + l.total, 0)).toBe(raised.total.amount);
  });

  it("given an exchange priced and confirmed, then a refund of a new ticket and a second refund, then one line each, the replaced tickets marked, and every aggregate adds up to the lines", async () => {
    const agency = randomUUID();
    const company = randomUUID();
    const offer = (id: string, fareDifference: number, fee: number, markup: number) => ({
      reshop_offer_id: id,
      departure_at: "2026-12-08T07:15:00+02:00",
      brand_name: "Classic",
      new_price: uah(2000_00),
      fare_difference: uah(fareDifference),
      change_fee: uah(fee),
      markup: uah(markup),
      residual_value: uah(0),
      total_due: uah(fareDifference + fee + markup),
    });
    const refund = (
      number: string,
      fare: number,
      taxes: number,
      penalty: number,
      at: string,
    ): BookingEventInput => ({
      type: "TicketsRefunded",
      data: {
        operation_id: randomUUID(),
        at,
        quote_id: randomUUID(),
        lines: [
          {
            passenger_index: 0,
            ticket_number: number,
            fare_refund: uah(fare),
            taxes_refund: uah(taxes),
            penalty: uah(penalty),
            non_refundable: uah(35_00),
            refundable: uah(fare + taxes - penalty),
          },
        ],
        credited: null,
        supplier_booking: null,
      },
    });
    await append(
      "SALEEX",
      held(agency, company, "agent-3"),
      issued(30, "2026-11-20T10:00:00Z"),
      {
        type: "ReshopOffersPriced",
        data: {
          request_id: "r1",
          offers: [offer("o-cheap", 0, 10_00, 0), offer("o-chosen", 100_01, 50_00, 20_00)],
          expires_at: "2026-11-21T10:00:00Z",
          at: "2026-11-21T09:00:00Z",
        },
      },
      {
        type: "TicketsExchanged",
        data: {
          operation_id: randomUUID(),
          reshop_offer_id: "o-chosen",
          old_tickets: ["5660000000030", "5660000000031", "5660000000032"],
          tickets: [ticket(40, 0, "KOVAL/OLENA"), ticket(41, 1, "KOVAL/PETRO"), ticket(42, 2, "KOVAL/IRA")],
          fare: {
            fare_id: "f2",
            carrier: "PS",
            route: "KBP-VIE",
            departure_at: "2026-12-08T07:15:00+02:00",
            fare: {} as never,
            flights: [],
          },
          price: priceDetail.total,
          price_detail: priceDetail,
          exchanged_at: "2026-11-21T09:30:00Z",
          supplier_booking: null,
        },
      },
      refund("5660000000041", 300_00, 80_00, 50_00, "2026-11-22T09:00:00Z"),
      refund("5660000000042", 200_00, 80_00, 50_00, "2026-11-22T10:00:00Z"),
    );

    const oneByOne = await rebuilt(1, agency);
    const together = await rebuilt(1000, agency);
    expect(together).toEqual(oneByOne);
    const brief = together.lines.map((l) => [l.id, l.status, l.original_document, l.route, l.total]);
    // 170.01 due (fare difference 100.01, fee 50.00, markup 20.00) over three new tickets, each part split evenly
    // with its remainder on the first ticket.
    expect(brief).toEqual([
      ["5660000000030-ticket", "exchanged", null, "KBP-WAW", 585_00],
      ["5660000000031-ticket", "exchanged", null, "KBP-WAW", 535_00],
      ["5660000000032-ticket", "exchanged", null, "KBP-WAW", 435_00],
      ["5660000000040-exchange", "issued", "5660000000030", "KBP-VIE", 56_71],
      ["5660000000041-exchange", "refunded", "5660000000031", "KBP-VIE", 56_65],
      ["5660000000041-refund", "refunded", "5660000000041", "KBP-VIE", -330_00],
      ["5660000000042-exchange", "refunded", "5660000000032", "KBP-VIE", 56_65],
      ["5660000000042-refund", "refunded", "5660000000042", "KBP-VIE", -230_00],
    ]);
    const exchange = together.lines.find((l) => l.id === "5660000000040-exchange");
    expect([exchange?.base_fare, exchange?.agency_markup, exchange?.total]).toEqual([33_35, 6_68, 56_71]);

    const { rows } = await db.pool.query(
      `SELECT (SELECT json_agg(d ORDER BY sale_date) FROM (
                 SELECT sale_date::text, sum(lines)::int AS lines, sum(tickets_issued)::int AS issued,
                        sum(tickets_exchanged)::int AS exchanged, sum(tickets_refunded)::int AS refunded,
                        sum(total)::int AS total, sum(penalty)::int AS penalty
                   FROM read.sales_daily WHERE agency_id = $1 GROUP BY sale_date) d) AS daily,
              (SELECT json_agg(r ORDER BY period, everyone) FROM (
                 SELECT period::text, agency_id = '' AS everyone, lines, tickets_exchanged AS exchanged, total::int
                   FROM read.sales_rollup WHERE agency_id IN ($1, '') AND grain = 'month'
                    AND period = '2026-11-01' AND currency = 'UAH') r) AS months,
              (SELECT json_agg(k ORDER BY dimension, grain, key) FROM (
                 SELECT dimension, grain, key, sum(tickets)::int AS tickets, sum(total)::int AS total
                   FROM read.sales_top WHERE agency_id = $1 GROUP BY 1, 2, 3) k) AS tops`,
      [agency],
    );
    const expected = 170_01 + 585_00 + 535_00 + 435_00 - 330_00 - 230_00;
    expect(rows[0].daily).toEqual([
      { sale_date: "2026-11-20", lines: 3, issued: 3, exchanged: 0, refunded: 0, total: 1555_00, penalty: 0 },
      {
        sale_date: "2026-11-21",
        lines: 3,
        issued: 0,
        exchanged: 3,
        refunded: 0,
        total: 170_01,
        penalty: 50_00,
      },
      {
        sale_date: "2026-11-22",
        lines: 2,
        issued: 0,
        exchanged: 0,
        refunded: 2,
        total: -560_00,
        penalty: 100_00,
      },
    ]);
    // The month rolls this agency up, and (with whatever other tests sold that month) all agencies.
    expect(rows[0].months[0]).toEqual({
      period: "2026-11-01",
      everyone: false,
      lines: 8,
      exchanged: 3,
      total: expected,
    });
    expect(rows[0].months[1].everyone).toBe(true);
    expect(rows[0].months[1].lines).toBeGreaterThanOrEqual(8);
    // Each grain sums to the same: three tickets sold, exchanges replace them, two refunded.
    for (const grain of ["day", "week", "month"]) {
      const of = (dimension: string) =>
        (rows[0].tops as { dimension: string; grain: string; key: string; tickets: number; total: number }[])
          .filter((k) => k.dimension === dimension && k.grain === grain)
          .map(({ key, tickets, total }) => ({ key, tickets, total }));
      expect(of("agent")).toEqual([{ key: "agent-3", tickets: 1, total: expected }]);
      expect(of("company")).toEqual([{ key: company, tickets: 1, total: expected }]);
      expect(of("carrier")).toEqual([{ key: "PS", tickets: 1, total: expected }]);
      expect(of("route")).toEqual([
        { key: "KBP-VIE", tickets: -2, total: 170_01 - 560_00 },
        { key: "KBP-WAW", tickets: 3, total: 1555_00 },
      ]);
    }
  });

  it("given an EMD bought after issue, one issued later and one refunded, then a line per EMD under its passenger and a refund that takes back no ticket", async () => {
    const agency = randomUUID();
    const bag = (emd: string | null, passenger: number, status: "issued" | "pending") => ({
      line_id: `line-${passenger}`,
      ancillary_id: "bag-23",
      type: "checked_bag",
      title: "Checked bag 23 kg",
      segment_id: "s1",
      passenger_index: passenger,
      seat: null,
      weight_kg: 23,
      seat_zone: null,
      price: uah(45_00),
      supplier_price: uah(40_00),
      emd_number: emd,
      status,
    });
    await append(
      "SALEMD",
      held(agency, randomUUID(), "agent-4"),
      issued(50, "2026-11-20T10:00:00Z"),
      {
        type: "AncillariesAdded",
        data: {
          operation_id: randomUUID(),
          at: "2026-11-20T11:00:00Z",
          lines: [bag("5669900000001", 0, "issued"), bag(null, 2, "pending")],
          supplier_booking: null,
        },
      } as never,
      {
        type: "EmdsIssued",
        data: {
          at: "2026-11-20T12:00:00Z",
          lines: [bag("5669900000002", 2, "issued")],
          paid_with: "ancillaries",
          supplier_booking: null,
        },
      } as never,
      {
        type: "EmdRefunded",
        data: {
          operation_id: randomUUID(),
          at: "2026-11-21T08:00:00Z",
          emd_number: "5669900000001",
          line_id: "line-0",
          refunded: uah(45_00),
          credited: null,
          supplier_booking: null,
        },
      } as never,
    );
    const oneByOne = await rebuilt(1, agency);
    const together = await rebuilt(1000, agency);
    expect(together).toEqual(oneByOne);
    const emds = together.lines
      .filter((l) => l.id.startsWith("566990"))
      .map((l) => [l.id, l.kind, l.status, l.passenger_name, l.base_fare, l.agency_markup, l.total]);
    expect(emds).toEqual([
      ["5669900000001-emd", "emd", "refunded", "KOVAL/OLENA", 40_00, 5_00, 45_00],
      ["5669900000001-emd-refund", "refund", "refunded", "KOVAL/OLENA", -40_00, -5_00, -45_00],
      ["5669900000002-emd", "emd", "issued", "KOVAL/IRA", 40_00, 5_00, 45_00],
    ]);
    expect(together.daily.map((d) => [d.sale_date, d.tickets_issued, d.total])).toEqual([
      ["2026-11-20", 3, priceDetail.total.amount + 90_00],
      ["2026-11-21", 0, -45_00],
    ]);
    const { rows } = await db.pool.query(
      `SELECT sum(tickets_refunded)::int AS refunded, sum(emds_issued)::int AS emds FROM read.sales_daily
        WHERE agency_id = $1`,
      [agency],
    );
    expect(rows[0]).toEqual({ refunded: 0, emds: 2 });
    expect(together.routes.reduce((n, r) => n + r.tickets, 0)).toBe(3);
  });
});
