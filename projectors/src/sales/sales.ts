import { type BookingEvent, StoredBookingEvent } from "@skyward/contracts/booking-events";
import type { PriceDetail } from "@skyward/contracts/offers";
import { StatementBatch } from "@skyward/infra/db";
import { defineProjection } from "@skyward/infra/projections/projection";

/**
 * The booking events that make or change sales lines. Any other booking event (and any event type added to the
 * union later) is not delivered to this projection until it is listed here and handled in `apply`'s switch.
 */
export const SALES_EVENT_TYPES = [
  "BookingHeld",
  "BookingRepriced",
  "TicketsIssued",
  "BookingVoided",
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
  agency_markup, company_markup, transaction_fee, penalty, total, currency, search`;

/** Adds the lines just inserted (`ins`) to the day aggregates: what analytics and the list totals read. */
const addToDaily = (t: { sales_daily: string; sales_route_daily: string }) => `,
  daily AS (
    INSERT INTO ${t.sales_daily} AS d (sale_date, agency_id, company_id, agent_id, fake_booking, currency, lines,
      tickets_issued, tickets_voided, tickets_refunded, tickets_exchanged, emds_issued, issued_total, base_fare, taxes,
      agency_markup, company_markup, transaction_fee, penalty, total)
    SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency, count(*),
      count(*) FILTER (WHERE kind = 'ticket'), count(*) FILTER (WHERE kind = 'void'),
      count(*) FILTER (WHERE kind = 'refund'), count(*) FILTER (WHERE kind = 'exchange'),
      count(*) FILTER (WHERE kind = 'emd'), coalesce(sum(total) FILTER (WHERE kind = 'ticket'), 0),
      sum(base_fare), sum(taxes), sum(agency_markup), sum(company_markup), sum(transaction_fee), sum(penalty), sum(total)
      FROM ins GROUP BY sale_date, agency_id, company_id, agent_id, fake_booking, currency
    ON CONFLICT (sale_date, agency_id, company_id, agent_id, fake_booking, currency) DO UPDATE SET
      lines = d.lines + EXCLUDED.lines, tickets_issued = d.tickets_issued + EXCLUDED.tickets_issued,
      tickets_voided = d.tickets_voided + EXCLUDED.tickets_voided,
      tickets_refunded = d.tickets_refunded + EXCLUDED.tickets_refunded,
      tickets_exchanged = d.tickets_exchanged + EXCLUDED.tickets_exchanged,
      emds_issued = d.emds_issued + EXCLUDED.emds_issued, issued_total = d.issued_total + EXCLUDED.issued_total,
      base_fare = d.base_fare + EXCLUDED.base_fare, taxes = d.taxes + EXCLUDED.taxes,
      agency_markup = d.agency_markup + EXCLUDED.agency_markup,
      company_markup = d.company_markup + EXCLUDED.company_markup,
      transaction_fee = d.transaction_fee + EXCLUDED.transaction_fee, penalty = d.penalty + EXCLUDED.penalty,
      total = d.total + EXCLUDED.total
  )
  INSERT INTO ${t.sales_route_daily} AS r (sale_date, agency_id, company_id, agent_id, fake_booking, currency, route,
    carrier, tickets, total)
  SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier,
    count(*) FILTER (WHERE kind IN ('ticket', 'exchange')) - count(*) FILTER (WHERE kind IN ('void', 'refund')),
    sum(total)
    FROM ins GROUP BY sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier
  ON CONFLICT (sale_date, agency_id, company_id, agent_id, fake_booking, currency, route, carrier) DO UPDATE SET
    tickets = r.tickets + EXCLUDED.tickets, total = r.total + EXCLUDED.total`;

/**
 * Sales as the sales list, the report and analytics read them: one line per document event (ticket issued, void;
 * refunds, exchanges and EMDs as their events land), with the day aggregates kept in the same statement.
 * `sales_bookings` keeps what a booking's later events need to price its lines (who sold it, the price per passenger).
 */
export const sales = defineProjection({
  name: "sales",
  version: 1,
  eventTypes: SALES_EVENT_TYPES,
  tables: ["sales_bookings", "sales", "sales_daily", "sales_route_daily"],
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
      held jsonb NOT NULL
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
      search text NOT NULL
    );
    CREATE INDEX ON ${t.sales} (sale_date DESC, sold_at DESC, id);
    CREATE INDEX ON ${t.sales} (agency_id, sale_date DESC, sold_at DESC);
    CREATE INDEX ON ${t.sales} (company_id, sale_date DESC, sold_at DESC);
    CREATE INDEX ON ${t.sales} (locator);
    CREATE INDEX ON ${t.sales} USING gin (search gin_trgm_ops);
    CREATE TABLE ${t.sales_daily} (
      sale_date date NOT NULL,
      agency_id text NOT NULL,
      company_id text NOT NULL,
      agent_id text NOT NULL,
      fake_booking boolean NOT NULL,
      currency text NOT NULL,
      lines int NOT NULL,
      tickets_issued int NOT NULL,
      tickets_voided int NOT NULL,
      tickets_refunded int NOT NULL,
      tickets_exchanged int NOT NULL,
      emds_issued int NOT NULL,
      issued_total bigint NOT NULL,
      base_fare bigint NOT NULL,
      taxes bigint NOT NULL,
      agency_markup bigint NOT NULL,
      company_markup bigint NOT NULL,
      transaction_fee bigint NOT NULL,
      penalty bigint NOT NULL,
      total bigint NOT NULL,
      PRIMARY KEY (sale_date, agency_id, company_id, agent_id, fake_booking, currency)
    );
    CREATE INDEX ON ${t.sales_daily} (agency_id, sale_date);
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
    CREATE INDEX ON ${t.sales_route_daily} (agency_id, sale_date);
    CREATE INDEX ON ${t.sales_route_daily} (company_id, sale_date);
  `,
  async apply(writer, events, t) {
    const batch = new StatementBatch();
    for (const stored of events) {
      // Checked in depth when appended: the large parts are taken as stored.
      const e = StoredBookingEvent.parse({ type: stored.type, data: stored.data }) as SalesEvent;
      const locator = stored.streamId.slice("booking-".length);
      switch (e.type) {
        case "BookingHeld": {
          const d = e.data;
          batch.add(
            `INSERT INTO ${t.sales_bookings} (locator, company_id, agency_id, agent_id, channel_id, fake_booking, carrier,
               route, departure_at, currency, passenger_types, shares, held)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) ON CONFLICT (locator) DO NOTHING`,
            [
              locator,
              d.company_id,
              d.agency_id,
              d.agent_id,
              d.channel_id,
              d.fake_booking,
              d.fare.carrier,
              d.fare.route,
              d.fare.departure_at,
              d.price.currency,
              d.passengers.map((p) => p.type),
              JSON.stringify(shares(d.price_detail)),
              JSON.stringify({
                fare: d.fare,
                passengers: d.passengers,
                contacts: d.contacts,
                price: d.price,
                price_detail: d.price_detail,
              }),
            ],
          );
          break;
        }
        case "BookingRepriced":
          batch.add(
            `UPDATE ${t.sales_bookings} SET shares = $2, currency = $3,
               held = held || jsonb_build_object('price', $4::jsonb, 'price_detail', $5::jsonb) WHERE locator = $1`,
            [
              locator,
              JSON.stringify(shares(e.data.price_detail)),
              e.data.price.currency,
              JSON.stringify(e.data.price),
              JSON.stringify(e.data.price_detail),
            ],
          );
          break;
        case "TicketsIssued": {
          const tickets = e.data.tickets;
          batch.add(
            `WITH t AS (
               SELECT * FROM unnest($2::text[], $3::int[], $4::text[]) AS t(number, idx, name)
             ),
             ins AS (
               INSERT INTO ${t.sales} (${LINE_COLUMNS})
               SELECT t.number || '-ticket', 'ticket', 'issued', b.locator, t.number, NULL, t.name, b.carrier, b.route,
                 b.departure_at, $5::timestamptz, ($5::timestamptz AT TIME ZONE 'UTC')::date, b.agent_id, b.company_id,
                 b.agency_id, b.channel_id, b.fake_booking, ${shareOf(0)}, ${shareOf(1)}, ${shareOf(2)}, ${shareOf(3)},
                 ${shareOf(4)}, 0, ${shareOf(5)}, b.currency,
                 upper(t.number || ' ' || b.locator || ' ' || t.name || ' ' || b.route)
                 FROM t JOIN ${t.sales_bookings} b ON b.locator = $1
               ON CONFLICT (id) DO NOTHING
               RETURNING *
             )${addToDaily(t)}`,
            [
              locator,
              tickets.map((x) => x.ticket_number),
              tickets.map((x) => x.passenger_index),
              tickets.map((x) => x.passenger_name),
              e.data.issued_at,
            ],
          );
          break;
        }
        case "BookingVoided":
          // A void line takes back every amount of each ticket still issued; the ticket line shows it voided.
          batch.add(
            `WITH ins AS (
               INSERT INTO ${t.sales} (${LINE_COLUMNS})
               SELECT document_number || '-void', 'void', 'voided', locator, document_number, document_number,
                 passenger_name, carrier, route, departure_at, $2::timestamptz, ($2::timestamptz AT TIME ZONE 'UTC')::date,
                 agent_id, company_id, agency_id, channel_id, fake_booking, -base_fare, -taxes, -agency_markup,
                 -company_markup, -transaction_fee, 0, -total, currency, search
                 FROM ${t.sales} WHERE locator = $1 AND kind = 'ticket' AND status = 'issued'
               ON CONFLICT (id) DO NOTHING
               RETURNING *
             ),
             voided AS (
               UPDATE ${t.sales} s SET status = 'voided' FROM ins WHERE s.id = ins.original_document || '-ticket'
             )${addToDaily(t)}`,
            [locator, e.data.at],
          );
          break;
        default:
          return unhandledSalesEvent(e);
      }
    }
    await batch.run(writer);
  },
});

/** Ends the switch: an event type added to SALES_EVENT_TYPES and not handled fails to compile. */
function unhandledSalesEvent(event: never): never {
  throw new Error(`unhandled sales event ${JSON.stringify(event)}`);
}
