import { type BookingEvent, StoredBookingEvent } from "@skyward/contracts/booking-events";
import type { PriceDetail } from "@skyward/contracts/offers";
import { defineProjection } from "@skyward/infra/projections/projection";

/**
 * The booking events that make or change sales lines. Any other booking event (and any event type added to the
 * union later) is not delivered to this projection until it is listed here and handled in `apply`'s switch.
 */
export const SALES_EVENT_TYPES = [
  "BookingHeld",
  "BookingRepriced",
  "TicketingStarted",
  "ExchangeStarted",
  "AncillariesStarted",
  "TicketsIssued",
  "BookingVoided",
  "TicketsRefunded",
  "ReshopOffersPriced",
  "TicketsExchanged",
  "AncillariesAdded",
  "EmdsIssued",
  "EmdRefunded",
] as const;
type SalesEvent = Extract<BookingEvent, { type: (typeof SALES_EVENT_TYPES)[number] }>;

/** Amount columns of a line, in this order everywhere (shares, negation, sums). */
const AMOUNTS = [
  "base_fare",
  "taxes",
  "agency_markup",
  "company_markup",
  "transaction_fee",
  "total",
] as const;

/**
 * What one passenger of each type pays, by amount column, plus `_rest`: the booking's amounts not covered by the
 * passenger lines (per-booking markups and fees), put on the first passenger's ticket so lines add up to the price.
 */
function shares(detail: PriceDetail): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const covered = AMOUNTS.map(() => 0);
  for (const line of detail.passengers) {
    out[line.type] = AMOUNTS.map((a) => line[a].amount);
    AMOUNTS.forEach((a, i) => {
      covered[i] = (covered[i] ?? 0) + line[a].amount * line.count;
    });
  }
  out._rest = AMOUNTS.map((a, i) => detail[a].amount - (covered[i] ?? 0));
  return out;
}

/** A ticket line's amount column `i`, from its booking's shares (`b`) and passenger index (`t.idx`). */
const shareOf = (i: number) =>
  `((b.shares -> b.passenger_types[t.idx + 1] ->> ${i})::bigint
     + CASE WHEN t.idx = 0 THEN (b.shares -> '_rest' ->> ${i})::bigint ELSE 0 END)`;

const LINE_COLUMNS = `id, kind, status, locator, document_number, original_document, passenger_name, carrier, route,
  departure_at, sold_at, sale_date, agent_id, company_id, agency_id, channel_id, fake_booking, base_fare, taxes,
  agency_markup, company_markup, transaction_fee, penalty, total, currency, search, paid_by`;

/** An EMD's refund is a refund line too, told from a ticket's by its id: it takes back no ticket. */
const NOT_EMD = "id NOT LIKE '%-emd-refund'";

/** Counters of the day and month rollups, each as the sum over the lines just inserted (`ins`). */
const COUNTERS: readonly (readonly [string, string])[] = [
  ["lines", "count(*)"],
  ["tickets_issued", "count(*) FILTER (WHERE kind = 'ticket')"],
  ["tickets_voided", "count(*) FILTER (WHERE kind = 'void')"],
  ["tickets_refunded", `count(*) FILTER (WHERE kind = 'refund' AND ${NOT_EMD})`],
  ["tickets_exchanged", "count(*) FILTER (WHERE kind = 'exchange')"],
  ["emds_issued", "count(*) FILTER (WHERE kind = 'emd')"],
  ["issued_total", "coalesce(sum(total) FILTER (WHERE kind = 'ticket'), 0)"],
  ["base_fare", "sum(base_fare)"],
  ["taxes", "sum(taxes)"],
  ["agency_markup", "sum(agency_markup)"],
  ["company_markup", "sum(company_markup)"],
  ["transaction_fee", "sum(transaction_fee)"],
  ["penalty", "sum(penalty)"],
  ["total", "sum(total)"],
];
const COUNTER_NAMES = COUNTERS.map(([c]) => c).join(", ");
const COUNTER_SUMS = COUNTERS.map(([, sum]) => sum).join(", ");
const COUNTER_ADDS = COUNTERS.map(([c]) => `${c} = d.${c} + EXCLUDED.${c}`).join(", ");
const COUNTER_COLUMNS = COUNTERS.map(([c]) =>
  c === "lines" || c.startsWith("tickets_") || c === "emds_issued"
    ? `${c} int NOT NULL`
    : `${c} bigint NOT NULL`,
).join(",\n      ");

/** Tickets a line adds to a route's, carrier's, agent's or company's count: an exchange replaces one, an EMD is none. */
const NET_TICKETS = `CASE WHEN kind = 'ticket' THEN 1 WHEN kind = 'void' OR (kind = 'refund' AND ${NOT_EMD}) THEN -1 ELSE 0 END`;

type AggregateTables = {
  sales_daily: string;
  sales_route_daily: string;
  sales_rollup: string;
  sales_top: string;
};

/**
 * Adds the lines just inserted (`ins`) to every aggregate, in the same statement: per agent (the agent scope), and
 * rolled up per agency and for all agencies by day and month (`sales_rollup`: figures, days, list totals of
 * supervisors and administrators) and by day, ISO week and month per route, carrier, agent and company
 * (`sales_top`), so any period reads whole months, weeks and days instead of every agent's days.
 */
const addToAggregates = (t: AggregateTables) => `,
  daily AS (
    INSERT INTO ${t.sales_daily} AS d (sale_date, agency_id, company_id, agent_id, fake_booking, currency, ${COUNTER_NAMES})
    SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency, ${COUNTER_SUMS}
      FROM ins GROUP BY sale_date, agency_id, company_id, agent_id, fake_booking, currency
    ON CONFLICT (sale_date, agency_id, company_id, agent_id, fake_booking, currency) DO UPDATE SET ${COUNTER_ADDS}
  ),
  rollup AS (
    INSERT INTO ${t.sales_rollup} AS d (grain, period, agency_id, fake_booking, currency, ${COUNTER_NAMES})
    SELECT g.grain, date_trunc(g.grain, ins.sale_date::timestamp)::date, CASE WHEN l.everyone THEN '' ELSE ins.agency_id END,
      fake_booking, currency, ${COUNTER_SUMS}
      FROM ins CROSS JOIN (VALUES ('day'), ('month')) g(grain) CROSS JOIN (VALUES (false), (true)) l(everyone)
     GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (grain, period, agency_id, fake_booking, currency) DO UPDATE SET ${COUNTER_ADDS}
  ),
  top AS (
    INSERT INTO ${t.sales_top} AS r (grain, period, dimension, agency_id, fake_booking, currency, key, tickets, total)
    SELECT g.grain, date_trunc(g.grain, ins.sale_date::timestamp)::date, x.dimension, x.agency_id, fake_booking, currency, x.key,
      sum(${NET_TICKETS}), sum(total)
      FROM ins CROSS JOIN (VALUES ('day'), ('week'), ('month')) g(grain)
      -- Agents and companies belong to one agency: their agency rows answer "all agencies" too.
      CROSS JOIN LATERAL (VALUES ('route', route, agency_id), ('route', route, ''), ('carrier', carrier, agency_id),
        ('carrier', carrier, ''), ('agent', agent_id, agency_id), ('company', company_id, agency_id))
        x(dimension, key, agency_id)
     GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (grain, period, dimension, agency_id, fake_booking, currency, key) DO UPDATE SET
      tickets = r.tickets + EXCLUDED.tickets, total = r.total + EXCLUDED.total
  )
  INSERT INTO ${t.sales_route_daily} AS r (sale_date, agency_id, company_id, agent_id, fake_booking, currency, route,
    carrier, tickets, total)
  SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier, sum(${NET_TICKETS}),
    sum(total)
    FROM ins GROUP BY sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier
  ON CONFLICT (sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier) DO UPDATE SET
    tickets = r.tickets + EXCLUDED.tickets, total = r.total + EXCLUDED.total`;

/**
 * A money amount of an offer kept in `b.reshop_offers`, split over the exchange's `x.n` new tickets (rest on the
 * first); a line's total is the sum of its shares, so the lines add up to the offer's total due.
 */
const offerShare = (part: string) => {
  const amount = `coalesce((b.reshop_offers -> x.offer -> '${part}' ->> 'amount')::bigint, 0)`;
  return `(div(${amount}, x.n) + CASE WHEN x.ord = 0 THEN mod(${amount}, x.n) ELSE 0 END)`;
};

/**
 * The order a batch's statements run in: each event's rows join those of its kind in one set-based statement, and a
 * booking whose events come out of this order (a second refund, an exchange after a refund) starts a new round.
 */
const PHASES = [
  "held",
  "repriced",
  "offers",
  "paying",
  "issued",
  "emds",
  "exchanged",
  "refunded",
  "emd_refunded",
  "voided",
] as const;
type Phase = (typeof PHASES)[number];

/**
 * Sales as the sales list, the report and analytics read them: one line per document event (ticket issued, void,
 * refund, exchange; EMDs as their events land), with the aggregates kept in the same statement.
 * `sales_bookings` keeps what a booking's later events need to price its lines (who sold it, the price per passenger,
 * the exchange offers priced). A batch is applied in a few set-based statements, one per kind of event (and round).
 */
export const sales = defineProjection({
  name: "sales",
  version: 4,
  eventTypes: SALES_EVENT_TYPES,
  tables: ["sales_bookings", "sales", "sales_daily", "sales_route_daily", "sales_rollup", "sales_top"],
  setup: (t) => `
    CREATE TABLE ${t.sales_bookings} (
      locator text PRIMARY KEY,
      company_id text NOT NULL,
      agency_id text NOT NULL,
      agent_id text NOT NULL,
      channel_id text NOT NULL,
      fake_booking boolean NOT NULL,
      carrier text NOT NULL,
      route text NOT NULL,
      departure_at text,
      currency text NOT NULL,
      passenger_types text[] NOT NULL,
      shares jsonb NOT NULL,
      -- The booking as held (fare with flights and baggage, passengers, contacts, price): the ticket receipt's source.
      held jsonb NOT NULL,
      -- Exchange offers as priced for the agent, by offer id: what an exchange's lines charge.
      reshop_offers jsonb NOT NULL DEFAULT '{}',
      -- How the latest claim that pays (issue, exchange, EMDs) pays: the lines it brings carry it.
      paid_by jsonb
    );
    CREATE TABLE ${t.sales} (
      id text PRIMARY KEY,
      kind text NOT NULL,
      status text NOT NULL,
      locator text NOT NULL,
      document_number text NOT NULL,
      original_document text,
      passenger_name text NOT NULL,
      carrier text NOT NULL,
      route text NOT NULL,
      departure_at text,
      sold_at timestamptz NOT NULL,
      sale_date date NOT NULL,
      agent_id text NOT NULL,
      company_id text NOT NULL,
      agency_id text NOT NULL,
      channel_id text NOT NULL,
      fake_booking boolean NOT NULL,
      base_fare bigint NOT NULL,
      taxes bigint NOT NULL,
      agency_markup bigint NOT NULL,
      company_markup bigint NOT NULL,
      transaction_fee bigint NOT NULL,
      penalty bigint NOT NULL DEFAULT 0,
      total bigint NOT NULL,
      currency text NOT NULL,
      -- What the list's text filter matches: ticket number, locator, passenger and route, upper case.
      search text NOT NULL,
      -- How the document was paid: {"method": "balance"} or {"method": "card", brand, last4, card_id}; a refund or
      -- void line goes back the same way; null when not known (sold before it was recorded) or nothing was paid.
      paid_by jsonb
    );
    -- The list's order (newest first, id last) behind each scope's equality, so a page is read off an index.
    CREATE INDEX ON ${t.sales} (sale_date DESC, sold_at DESC, id);
    CREATE INDEX ON ${t.sales} (agency_id, sale_date DESC, sold_at DESC, id);
    CREATE INDEX ON ${t.sales} (company_id, sale_date DESC, sold_at DESC, id);
    CREATE INDEX ON ${t.sales} (agent_id, sale_date DESC, sold_at DESC, id);
    CREATE INDEX ON ${t.sales} (locator);
    -- An agent sells for one company: without this the planner takes "agent and company" for a handful of lines
    -- and sorts thousands instead of reading the agent's index in order (measured: 4,966 buffers against 54).
    CREATE STATISTICS ${t.sales.replace(/"$/, '_agent_company"')} (dependencies) ON agent_id, company_id FROM ${t.sales};
    CREATE INDEX ON ${t.sales} USING gin (search gin_trgm_ops);
    CREATE TABLE ${t.sales_daily} (
      sale_date date NOT NULL,
      agency_id text NOT NULL,
      company_id text NOT NULL,
      agent_id text NOT NULL,
      fake_booking boolean NOT NULL,
      currency text NOT NULL,
      ${COUNTER_COLUMNS},
      PRIMARY KEY (sale_date, agency_id, company_id, agent_id, fake_booking, currency)
    );
    CREATE INDEX ON ${t.sales_daily} (agent_id, sale_date);
    CREATE INDEX ON ${t.sales_daily} (company_id, sale_date);
    CREATE TABLE ${t.sales_route_daily} (
      sale_date date NOT NULL,
      agency_id text NOT NULL,
      company_id text NOT NULL,
      agent_id text NOT NULL,
      fake_booking boolean NOT NULL,
      currency text NOT NULL,
      route text NOT NULL,
      carrier text NOT NULL,
      tickets int NOT NULL,
      total bigint NOT NULL,
      PRIMARY KEY (sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier)
    );
    CREATE INDEX ON ${t.sales_route_daily} (agent_id, sale_date);
    CREATE INDEX ON ${t.sales_route_daily} (company_id, sale_date);
    -- Per agency, and for all agencies under agency '' (administrators), by day and by month.
    CREATE TABLE ${t.sales_rollup} (
      grain text NOT NULL,
      period date NOT NULL,
      agency_id text NOT NULL,
      fake_booking boolean NOT NULL,
      currency text NOT NULL,
      ${COUNTER_COLUMNS},
      PRIMARY KEY (agency_id, grain, period, fake_booking, currency)
    );
    -- Routes and carriers per agency and for all (''), agents and companies per agency; by day, ISO week, month.
    CREATE TABLE ${t.sales_top} (
      grain text NOT NULL,
      period date NOT NULL,
      dimension text NOT NULL,
      agency_id text NOT NULL,
      fake_booking boolean NOT NULL,
      currency text NOT NULL,
      key text NOT NULL,
      tickets int NOT NULL,
      total bigint NOT NULL,
      -- The sums ride in the key's index: a year's top list is read from the index alone (its rows sit one a page).
      PRIMARY KEY (dimension, agency_id, grain, period, fake_booking, currency, key) INCLUDE (tickets, total)
    );
    CREATE INDEX ON ${t.sales_top} (dimension, grain, period, fake_booking, currency, key) INCLUDE (tickets, total)
      WHERE agency_id <> '';
  `,
  async apply(writer, events, t) {
    // Rows per (round, phase); a booking's round goes up when its next event's phase is not after its last one.
    const buckets = new Map<string, { round: number; phase: Phase; rows: Record<string, unknown>[] }>();
    const last = new Map<string, { round: number; phase: number }>();
    const add = (locator: string, phase: Phase, ...rows: Record<string, unknown>[]) => {
      const index = PHASES.indexOf(phase);
      const seen = last.get(locator);
      const round = !seen ? 0 : index > seen.phase ? seen.round : seen.round + 1;
      last.set(locator, { round, phase: index });
      const key = `${round}:${index}`;
      const bucket = buckets.get(key) ?? { round, phase, rows: [] };
      bucket.rows.push(...rows.map((r) => ({ locator, ...r })));
      buckets.set(key, bucket);
    };
    for (const stored of events) {
      // Checked in depth when appended: the large parts are taken as stored.
      const e = StoredBookingEvent.parse({ type: stored.type, data: stored.data }) as SalesEvent;
      const locator = stored.streamId.slice("booking-".length);
      switch (e.type) {
        case "BookingHeld": {
          const d = e.data;
          add(locator, "held", {
            company_id: d.company_id,
            agency_id: d.agency_id,
            agent_id: d.agent_id,
            channel_id: d.channel_id,
            fake_booking: d.fake_booking,
            carrier: d.fare.carrier,
            route: d.fare.route,
            departure_at: d.fare.departure_at,
            currency: d.price.currency,
            passenger_types: d.passengers.map((p) => p.type),
            shares: shares(d.price_detail),
            held: {
              fare: d.fare,
              passengers: d.passengers,
              contacts: d.contacts,
              price: d.price,
              price_detail: d.price_detail,
            },
          });
          break;
        }
        case "BookingRepriced":
          add(locator, "repriced", {
            shares: shares(e.data.price_detail),
            price: e.data.price,
            price_detail: e.data.price_detail,
          });
          break;
        case "TicketingStarted":
        case "ExchangeStarted":
        case "AncillariesStarted":
          if (e.data.paid_by) add(locator, "paying", { paid_by: e.data.paid_by });
          break;
        case "ReshopOffersPriced":
          add(locator, "offers", {
            offers: Object.fromEntries(e.data.offers.map((o) => [o.reshop_offer_id, o])),
          });
          break;
        case "TicketsIssued":
          add(
            locator,
            "issued",
            ...e.data.tickets.map((x) => ({
              number: x.ticket_number,
              idx: x.passenger_index,
              name: x.passenger_name,
              at: e.data.issued_at,
            })),
          );
          break;
        case "TicketsExchanged": {
          const d = e.data;
          add(
            locator,
            "exchanged",
            ...d.tickets.map((x, ord) => ({
              number: x.ticket_number,
              ord,
              n: d.tickets.length,
              name: x.passenger_name,
              old_tickets: d.old_tickets,
              offer: d.reshop_offer_id,
              carrier: d.fare.carrier,
              route: d.fare.route,
              departure_at: d.fare.departure_at,
              at: d.exchanged_at,
              // The booking's new fare and price, once per exchange (on its first ticket's row).
              booking:
                ord === 0
                  ? {
                      shares: shares(d.price_detail),
                      currency: d.price.currency,
                      fare: d.fare,
                      price: d.price,
                      price_detail: d.price_detail,
                    }
                  : null,
            })),
          );
          break;
        }
        case "TicketsRefunded":
          add(
            locator,
            "refunded",
            ...e.data.lines.map((l) => ({
              number: l.ticket_number,
              fare_refund: l.fare_refund.amount,
              taxes_refund: l.taxes_refund.amount,
              penalty: l.penalty.amount,
              refundable: l.refundable.amount,
              at: e.data.at,
            })),
          );
          break;
        case "BookingVoided":
          add(locator, "voided", { at: e.data.at });
          break;
        // EMDs issued at once come with the ancillaries; the others later: a line per EMD number, whichever says it.
        case "AncillariesAdded":
        case "EmdsIssued": {
          const at = e.data.at;
          const issued = e.data.lines.filter((l) => l.emd_number !== null);
          if (issued.length > 0)
            add(
              locator,
              "emds",
              ...issued.map((l) => ({
                number: l.emd_number,
                idx: l.passenger_index,
                title: l.title,
                price: l.price.amount,
                supplier: l.supplier_price.amount,
                currency: l.price.currency,
                at,
              })),
            );
          break;
        }
        case "EmdRefunded":
          add(locator, "emd_refunded", {
            number: e.data.emd_number,
            refunded: e.data.refunded.amount,
            at: e.data.at,
          });
          break;
        default:
          return unhandledSalesEvent(e);
      }
    }
    const ordered = [...buckets.values()].sort(
      (a, b) => a.round - b.round || PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase),
    );
    for (const { phase, rows } of ordered) {
      for (const text of STATEMENTS[phase](t)) await writer.query(text, [JSON.stringify(rows)]);
    }
  },
});

type SalesTables = Record<
  "sales_bookings" | "sales" | "sales_daily" | "sales_route_daily" | "sales_rollup" | "sales_top",
  string
>;

/**
 * The batch's locators (the `locator` of `$1`'s rows), for a join to also require its rows' `locator = ANY(...)`: the
 * rows it joins are then read by their index. Joined on the locator alone, every plan saw the recordset as
 * PostgreSQL's guess of 100 rows, and the plan a connection kept after five runs (the pool prepares every statement),
 * made while the read model was young, scanned the whole table on every batch after, a cost growing with every
 * booking sold (issue 26: 1,075 rows of sales_bookings read for 3 at the end of a 12-second flow benchmark;
 * batch-lookups.test.ts). A fixed fragment of SQL: the locators are read from the statement's own parameter.
 */
const BATCH_LOCATORS = "ARRAY(SELECT r ->> 'locator' FROM jsonb_array_elements($1::jsonb) AS r)";

/** Each phase's statements over its rows, given as one jsonb array (`$1`). */
const STATEMENTS: Record<Phase, (t: SalesTables) => string[]> = {
  held: (t) => [
    `INSERT INTO ${t.sales_bookings} (locator, company_id, agency_id, agent_id, channel_id, fake_booking, carrier,
       route, departure_at, currency, passenger_types, shares, held)
     SELECT locator, company_id, agency_id, agent_id, channel_id, fake_booking, carrier, route, departure_at, currency,
       passenger_types, shares, held
       FROM jsonb_to_recordset($1::jsonb) AS x(locator text, company_id text, agency_id text, agent_id text,
         channel_id text, fake_booking boolean, carrier text, route text, departure_at text, currency text,
         passenger_types text[], shares jsonb, held jsonb)
     ON CONFLICT (locator) DO NOTHING`,
  ],
  repriced: (t) => [
    `UPDATE ${t.sales_bookings} b SET shares = x.shares, currency = x.price ->> 'currency',
       held = b.held || jsonb_build_object('price', x.price, 'price_detail', x.price_detail)
       FROM jsonb_to_recordset($1::jsonb) AS x(locator text, shares jsonb, price jsonb, price_detail jsonb)
      WHERE b.locator = x.locator AND b.locator = ANY(${BATCH_LOCATORS})`,
  ],
  offers: (t) => [
    `UPDATE ${t.sales_bookings} b SET reshop_offers = b.reshop_offers || x.offers
       FROM jsonb_to_recordset($1::jsonb) AS x(locator text, offers jsonb)
      WHERE b.locator = x.locator AND b.locator = ANY(${BATCH_LOCATORS})`,
  ],
  paying: (t) => [
    `UPDATE ${t.sales_bookings} b SET paid_by = x.paid_by
       FROM jsonb_to_recordset($1::jsonb) AS x(locator text, paid_by jsonb)
      WHERE b.locator = x.locator AND b.locator = ANY(${BATCH_LOCATORS})`,
  ],
  issued: (t) => [
    `WITH t AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(locator text, number text, idx int, name text, at timestamptz)
     ),
     ins AS (
       INSERT INTO ${t.sales} (${LINE_COLUMNS})
       SELECT t.number || '-ticket', 'ticket', 'issued', b.locator, t.number, NULL, t.name, b.carrier, b.route,
         b.departure_at, t.at, (t.at AT TIME ZONE 'UTC')::date, b.agent_id, b.company_id, b.agency_id, b.channel_id,
         b.fake_booking, ${shareOf(0)}, ${shareOf(1)}, ${shareOf(2)}, ${shareOf(3)}, ${shareOf(4)}, 0, ${shareOf(5)},
         b.currency, upper(t.number || ' ' || b.locator || ' ' || t.name || ' ' || b.route), b.paid_by
         FROM t JOIN ${t.sales_bookings} b ON b.locator = t.locator AND b.locator = ANY(${BATCH_LOCATORS})
       ON CONFLICT (id) DO NOTHING
       RETURNING *
     )${addToAggregates(t)}`,
  ],
  // One line per new ticket, carrying the chosen offer's charges; the ticket it replaces shows exchanged.
  exchanged: (t) => [
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(locator text, number text, ord int, n int, name text,
         old_tickets text[], offer text, carrier text, route text, departure_at text, at timestamptz)
     ),
     ins AS (
       INSERT INTO ${t.sales} (${LINE_COLUMNS})
       SELECT x.number || '-exchange', 'exchange', 'issued', x.locator, x.number,
         coalesce((SELECT o.document_number FROM ${t.sales} o
                    WHERE o.locator = x.locator AND o.document_number = ANY(x.old_tickets) AND o.passenger_name = x.name
                      AND o.kind IN ('ticket', 'exchange') AND o.status = 'issued' LIMIT 1), x.old_tickets[x.ord + 1]),
         x.name, x.carrier, x.route, x.departure_at, x.at, (x.at AT TIME ZONE 'UTC')::date, b.agent_id, b.company_id,
         b.agency_id, b.channel_id, b.fake_booking, ${offerShare("fare_difference")}, 0, ${offerShare("markup")}, 0, 0,
         ${offerShare("change_fee")},
         ${offerShare("fare_difference")} + ${offerShare("markup")} + ${offerShare("change_fee")}, b.currency,
         upper(x.number || ' ' || x.locator || ' ' || x.name || ' ' || x.route), b.paid_by
         FROM x JOIN ${t.sales_bookings} b ON b.locator = x.locator AND b.locator = ANY(${BATCH_LOCATORS})
       ON CONFLICT (id) DO NOTHING
       RETURNING *
     ),
     exchanged AS (
       UPDATE ${t.sales} s SET status = 'exchanged' FROM ins
        WHERE s.locator = ins.locator AND s.document_number = ins.original_document
          AND s.kind IN ('ticket', 'exchange') AND s.status = 'issued'
     )${addToAggregates(t)}`,
    `UPDATE ${t.sales_bookings} b SET carrier = x.carrier, route = x.route, departure_at = x.departure_at,
       currency = x.booking ->> 'currency', shares = x.booking -> 'shares',
       held = b.held || jsonb_build_object('fare', x.booking -> 'fare', 'price', x.booking -> 'price',
         'price_detail', x.booking -> 'price_detail')
       FROM jsonb_to_recordset($1::jsonb) AS x(locator text, carrier text, route text, departure_at text, booking jsonb)
      WHERE b.locator = x.locator AND b.locator = ANY(${BATCH_LOCATORS}) AND x.booking IS NOT NULL`,
  ],
  // A refund line gives back the airline's fare and taxes less its penalty; our markups and fees stay earned.
  refunded: (t) => [
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(locator text, number text, fare_refund bigint,
         taxes_refund bigint, penalty bigint, refundable bigint, at timestamptz)
     ),
     ins AS (
       INSERT INTO ${t.sales} (${LINE_COLUMNS})
       SELECT x.number || '-refund', 'refund', 'refunded', x.locator, x.number, x.number, o.passenger_name, o.carrier,
         o.route, o.departure_at, x.at, (x.at AT TIME ZONE 'UTC')::date, o.agent_id, o.company_id, o.agency_id,
         o.channel_id, o.fake_booking, -x.fare_refund, -x.taxes_refund, 0, 0, 0, x.penalty, -x.refundable, o.currency,
         o.search, o.paid_by
         FROM x CROSS JOIN LATERAL (
           SELECT * FROM ${t.sales} s WHERE s.locator = x.locator AND s.document_number = x.number
              AND s.kind IN ('ticket', 'exchange') ORDER BY s.sold_at DESC LIMIT 1) o
       ON CONFLICT (id) DO NOTHING
       RETURNING *
     ),
     refunded AS (
       UPDATE ${t.sales} s SET status = 'refunded' FROM ins
        WHERE s.locator = ins.locator AND s.document_number = ins.original_document
          AND s.kind IN ('ticket', 'exchange') AND s.status = 'issued'
     )${addToAggregates(t)}`,
  ],
  // An EMD line: the airline's price as fare, our markups on it as the agency's, under the passenger's name.
  emds: (t) => [
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(locator text, number text, idx int, title text, price bigint,
         supplier bigint, currency text, at timestamptz)
     ),
     named AS (
       SELECT x.*, b.carrier, b.route, b.departure_at, b.agent_id, b.company_id, b.agency_id, b.channel_id,
         b.fake_booking, b.paid_by, upper(coalesce((b.held -> 'passengers' -> x.idx ->> 'last_name') || '/'
         || (b.held -> 'passengers' -> x.idx ->> 'first_name'), '')) AS name
         FROM x JOIN ${t.sales_bookings} b ON b.locator = x.locator AND b.locator = ANY(${BATCH_LOCATORS})
     ),
     ins AS (
       INSERT INTO ${t.sales} (${LINE_COLUMNS})
       SELECT number || '-emd', 'emd', 'issued', locator, number, NULL, name, carrier, route, departure_at, at,
         (at AT TIME ZONE 'UTC')::date, agent_id, company_id, agency_id, channel_id, fake_booking, supplier, 0,
         price - supplier, 0, 0, 0, price, currency, upper(number || ' ' || locator || ' ' || name || ' ' || route),
         paid_by
         FROM named
       ON CONFLICT (id) DO NOTHING
       RETURNING *
     )${addToAggregates(t)}`,
  ],
  // An unused EMD refunded: what it was sold for goes back (its parts as sold when that is all of it).
  emd_refunded: (t) => [
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(locator text, number text, refunded bigint, at timestamptz)
     ),
     ins AS (
       INSERT INTO ${t.sales} (${LINE_COLUMNS})
       SELECT x.number || '-emd-refund', 'refund', 'refunded', o.locator, x.number, x.number, o.passenger_name,
         o.carrier, o.route, o.departure_at, x.at, (x.at AT TIME ZONE 'UTC')::date, o.agent_id, o.company_id,
         o.agency_id, o.channel_id, o.fake_booking,
         CASE WHEN x.refunded = o.total THEN -o.base_fare ELSE -x.refunded END, 0,
         CASE WHEN x.refunded = o.total THEN -o.agency_markup ELSE 0 END, 0, 0, 0, -x.refunded, o.currency, o.search,
         o.paid_by
         FROM x JOIN ${t.sales} o ON o.id = x.number || '-emd' AND o.locator = ANY(${BATCH_LOCATORS})
       ON CONFLICT (id) DO NOTHING
       RETURNING *
     ),
     refunded AS (
       UPDATE ${t.sales} s SET status = 'refunded' FROM ins WHERE s.id = ins.original_document || '-emd'
     )${addToAggregates(t)}`,
  ],
  // A void line takes back every amount of each ticket still issued; the ticket line shows it voided.
  voided: (t) => [
    `WITH x AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(locator text, at timestamptz)),
     ins AS (
       INSERT INTO ${t.sales} (${LINE_COLUMNS})
       SELECT s.document_number || '-void', 'void', 'voided', s.locator, s.document_number, s.document_number,
         s.passenger_name, s.carrier, s.route, s.departure_at, x.at, (x.at AT TIME ZONE 'UTC')::date, s.agent_id,
         s.company_id, s.agency_id, s.channel_id, s.fake_booking, -s.base_fare, -s.taxes, -s.agency_markup,
         -s.company_markup, -s.transaction_fee, 0, -s.total, s.currency, s.search, s.paid_by
         FROM x JOIN ${t.sales} s ON s.locator = x.locator AND s.locator = ANY(${BATCH_LOCATORS})
           AND s.kind = 'ticket' AND s.status = 'issued'
       ON CONFLICT (id) DO NOTHING
       RETURNING *
     ),
     voided AS (
       UPDATE ${t.sales} s SET status = 'voided' FROM ins WHERE s.id = ins.original_document || '-ticket'
     )${addToAggregates(t)}`,
  ],
};

/** Ends the switch: an event type added to SALES_EVENT_TYPES and not handled fails to compile. */
function unhandledSalesEvent(event: never): never {
  throw new Error(`unhandled sales event ${JSON.stringify(event)}`);
}
