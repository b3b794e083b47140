import {
  BOOKING_EVENT_TYPES,
  type BookingEvent,
  StoredBookingEvent,
} from "@skyward/contracts/booking-events";
import {
  BOOKING_TRANSITIONS,
  listOfStatus,
  statusAfterHold,
  transitionOf,
} from "@skyward/contracts/booking-lifecycle";
import type { BookingStatus } from "@skyward/contracts/bookings";
import type { PaidBy } from "@skyward/contracts/cards";
import { StatementBatch } from "@skyward/infra/db";
import { defineProjection } from "@skyward/infra/projections/projection";

/**
 * The status an event moves a booking to, if it moves it, as the lifecycle table says (contracts
 * booking-lifecycle.ts). A refund moves it only with its last ticket: decided in its own statement below.
 */
function statusAfter(event: BookingEvent): BookingStatus | null {
  const transition = transitionOf(event.type);
  return transition.to && !transition.withLastTicket ? transition.to : null;
}

/** The supplier operation an event opens (its kind) or closes (null), as the lifecycle table says; undefined when it does neither. */
function operationAfter(event: BookingEvent): { id: string; kind: string; at: string } | null | undefined {
  const { operation } = transitionOf(event.type);
  if (operation === undefined) return undefined;
  if (operation === "closes") return null;
  // Every event that opens an operation names it and says when (its "started" event).
  const { operation_id, at } = event.data as { operation_id: string; at: string };
  return { id: operation_id, kind: operation, at };
}

/** How a claim that pays (issue, exchange, EMDs) is paid; null for any other event or when it pays nothing. */
function payingClaim(event: BookingEvent): PaidBy | null {
  switch (event.type) {
    case "TicketingStarted":
    case "ExchangeStarted":
    case "AncillariesStarted":
      return event.data.paid_by;
    default:
      return null;
  }
}

/** Tickets as issued or exchanged, each with how its claim paid it (the row's `paid_by`, set by the claim). */
const paidTickets = (row: RowUpdate, tickets: readonly unknown[]) =>
  `(SELECT coalesce(jsonb_agg(x || jsonb_build_object('paid_by', paid_by) ORDER BY n), '[]')
     FROM jsonb_array_elements(${row.param(JSON.stringify(tickets))}::jsonb) WITH ORDINALITY AS y(x, n))`;

/** Bookings as the lists and the booking page show them, one row per locator. */
export const bookings = defineProjection({
  name: "bookings",
  version: 8,
  eventTypes: BOOKING_EVENT_TYPES,
  tables: ["bookings"],
  setup: (t) => `
    CREATE TABLE ${t.bookings} (
      locator text PRIMARY KEY,
      status text NOT NULL,
      list text NOT NULL,
      company_id text NOT NULL,
      agency_id text NOT NULL,
      agent_id text NOT NULL,
      fake_booking boolean NOT NULL,
      provider_status text NOT NULL,
      -- Why the airline failed the booking (provider_status failed), in its words.
      error text,
      route text NOT NULL,
      carrier text NOT NULL,
      departure_at text, -- local time at the departure airport, with its offset, as the ticket shows it
      passenger_names text NOT NULL,
      ticket_numbers text NOT NULL DEFAULT '',
      price_amount bigint NOT NULL,
      currency text NOT NULL,
      time_limit timestamptz,
      held jsonb NOT NULL,
      -- Each ticket with how it was paid (paid_by: the balance, or a card's brand and last four).
      tickets jsonb NOT NULL DEFAULT '[]',
      -- How the latest claim that pays (issue, exchange, EMDs) pays: its documents carry it when they come.
      paid_by jsonb,
      comments jsonb NOT NULL DEFAULT '[]',
      pending_price jsonb,
      issued_at timestamptz,
      void_until timestamptz,
      -- The supplier operation in flight (issue, void, cancel), until its outcome is recorded.
      operation_id text,
      operation_kind text,
      operation_started_at timestamptz,
      -- After sales: refunded passengers (indexes), refunds made, the quote and change request waiting, and every
      -- supplier operation with its outcome and balance effect.
      refunded_passengers jsonb NOT NULL DEFAULT '[]',
      refunds jsonb NOT NULL DEFAULT '[]',
      refund_quote jsonb,
      change_request jsonb,
      -- The airline's latest schedule change with the agent's answer (null while it waits).
      schedule_change jsonb,
      history jsonb NOT NULL DEFAULT '[]',
      -- Bags, cabin bags and seats with their EMDs; async_emd_issue while an EMD waits for the airline.
      ancillaries jsonb NOT NULL DEFAULT '[]',
      async_emd_issue boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.bookings} (company_id, list, created_at DESC);
    CREATE INDEX ON ${t.bookings} (agency_id, list, created_at DESC);
    -- An administrator's list (every partner's), a page at a time (version 8).
    CREATE INDEX ON ${t.bookings} (list, created_at DESC);
    CREATE INDEX ON ${t.bookings} (status, time_limit);
    CREATE INDEX ON ${t.bookings} (operation_started_at) WHERE operation_id IS NOT NULL;
    CREATE INDEX ON ${t.bookings} (updated_at) WHERE async_emd_issue;
  `,
  async apply(client, events, t) {
    // Every statement of the batch goes in one round trip; each keeps the event order, and each event changes its
    // row in one UPDATE (its status, operation, details and history together). The batch's new bookings are one
    // INSERT, sent first: a BookingHeld is its stream's first event, so no statement before it in the batch touches
    // its row, and each later event's UPDATE still follows it (issue 26: one statement per batch, not per booking).
    const batch = new StatementBatch();
    const held: HeldRow[] = [];
    const alike = new AlikeUpdates(batch, t.bookings);
    for (const stored of events) {
      // Checked in depth when appended: the large parts are taken as stored.
      const e = StoredBookingEvent.parse({ type: stored.type, data: stored.data });
      const locator = stored.streamId.slice("booking-".length);
      if (e.type === "BookingHeld") {
        const d = e.data;
        const initial = statusAfterHold(d);
        held.push({
          locator,
          status: initial,
          list: listOfStatus(initial),
          company_id: d.company_id,
          agency_id: d.agency_id,
          agent_id: d.agent_id,
          fake_booking: d.fake_booking,
          provider_status: d.provider_status,
          route: d.fare.route,
          carrier: d.fare.carrier,
          departure_at: d.fare.departure_at ?? null,
          passenger_names: d.passengers
            .map((p) => `${p.last_name}/${p.first_name}`)
            .join(", ")
            .toUpperCase(),
          price_amount: d.price.amount,
          currency: d.price.currency,
          time_limit: d.time_limit ?? null,
          held: stored.data,
          created_at: stored.recordedAt.toISOString(),
          error: d.supplier_booking?.error ?? null,
        });
        continue;
      }
      // A statement about this booking follows the updates of it still waiting to be sent together.
      alike.release(locator);
      const row = new RowUpdate(locator);
      // Status and the operation in flight move together (an operation's start and end).
      const status = statusAfter(e);
      const operation = operationAfter(e);
      if (status) {
        row.set("status", row.param(status));
        row.set("list", row.param(listOfStatus(status)));
      }
      if (status || operation !== undefined) row.set("updated_at", row.param(stored.recordedAt));
      const paying = payingClaim(e);
      if (paying) row.set("paid_by", `${row.param(JSON.stringify(paying))}::jsonb`);
      if (operation !== undefined) {
        row.set("operation_id", row.param(operation?.id ?? null));
        row.set("operation_kind", row.param(operation?.kind ?? null));
        row.set("operation_started_at", `${row.param(operation?.at ?? null)}::timestamptz`);
      }
      switch (e.type) {
        case "BookingConfirmedByProvider":
        case "BookingFailedByProvider":
          row.set(
            "provider_status",
            row.param(e.type === "BookingConfirmedByProvider" ? "confirmed" : "failed"),
          );
          if (e.type === "BookingFailedByProvider")
            row.set("error", row.param(e.data.error ?? e.data.supplier_booking.error ?? null));
          break;
        case "TicketsIssued":
          row.set("tickets", paidTickets(row, e.data.tickets));
          row.set("ticket_numbers", row.param(e.data.tickets.map((x) => x.ticket_number).join(" ")));
          row.set("issued_at", `${row.param(e.data.issued_at)}::timestamptz`);
          row.set("void_until", `${row.param(e.data.void_until)}::timestamptz`);
          break;
        case "BookingPriceChanged":
          row.set(
            "pending_price",
            `${row.param(JSON.stringify({ price: e.data.new_price, price_detail: e.data.new_price_detail }))}::jsonb`,
          );
          break;
        case "BookingRepriced":
          row.set("pending_price", "NULL");
          row.set("price_amount", `${row.param(e.data.price.amount)}::bigint`);
          row.set(
            "held",
            `jsonb_set(jsonb_set(held, '{price}', ${row.param(JSON.stringify(e.data.price))}::jsonb), '{price_detail}', ${row.param(JSON.stringify(e.data.price_detail))}::jsonb)`,
          );
          break;
        case "BookingCommented":
          row.set(
            "comments",
            `comments || ${row.param(JSON.stringify([{ text: e.data.comment, at: e.data.at, by: e.data.by }]))}::jsonb`,
          );
          break;
        case "BookingModified": {
          let held = `jsonb_set(held, '{contacts}', (held->'contacts') || ${row.param(JSON.stringify(e.data.contacts ?? {}))}::jsonb)`;
          for (const p of e.data.passengers ?? [])
            held = `jsonb_set(${held}, ${row.param(["passengers", String(p.index), "document"])}::text[], ${row.param(JSON.stringify(p.document))}::jsonb)`;
          row.set("held", held);
          break;
        }
        case "PassengerServicesRequested": {
          // On each named passenger, as the booking page shows them: a null loyalty leaves none.
          let held = "held";
          for (const p of e.data.passengers)
            held = `jsonb_set(${held}, ${row.param(["passengers", String(p.index)])}::text[],
              (((${held})->'passengers'->(${row.param(p.index)}::int)) - 'loyalty') ||
              jsonb_strip_nulls(jsonb_build_object('loyalty', ${row.param(JSON.stringify(p.loyalty))}::jsonb)) ||
              jsonb_build_object('ssrs', ${row.param(JSON.stringify(p.ssrs))}::jsonb))`;
          row.set("held", held);
          break;
        }
        default:
          afterSales(batch, row, e, t.bookings);
          break;
      }
      history(row, e, stored.recordedAt);
      if (MERGED_UPDATES.has(e.type)) alike.add(row);
      else row.addTo(batch, t.bookings);
    }
    alike.releaseAll();
    if (held.length > 0)
      await client.query(
        `INSERT INTO ${t.bookings} (locator, status, list, company_id, agency_id, agent_id, fake_booking,
           provider_status, route, carrier, departure_at, passenger_names, price_amount, currency, time_limit, held,
           created_at, updated_at, error)
         SELECT locator, status, list, company_id, agency_id, agent_id, fake_booking, provider_status, route, carrier,
                departure_at, passenger_names, price_amount, currency, time_limit, held, created_at, created_at, error
           FROM jsonb_to_recordset($1::jsonb) AS h(locator text, status text, list text, company_id text,
                agency_id text, agent_id text, fake_booking boolean, provider_status text, route text, carrier text,
                departure_at text, passenger_names text, price_amount bigint, currency text, time_limit timestamptz,
                held jsonb, created_at timestamptz, error text)
         ON CONFLICT (locator) DO NOTHING`,
        [JSON.stringify(held)],
      );
    await batch.run(client);
  },
});

/** A new booking's row, as the batch's one INSERT of new bookings reads it (jsonb_to_recordset). */
interface HeldRow {
  locator: string;
  status: string;
  list: string;
  company_id: string;
  agency_id: string;
  agent_id: string;
  fake_booking: boolean;
  provider_status: string;
  route: string;
  carrier: string;
  departure_at: string | null;
  passenger_names: string;
  price_amount: number;
  currency: string;
  time_limit: string | null;
  held: unknown;
  created_at: string;
  error: string | null;
}

/**
 * Event types whose row updates in one batch go as one statement when they change their rows alike (the booking
 * flow's issue: issue 26, statements per flow). Each is one UPDATE of its own row, all of whose parameters are typed
 * by their value or cast in the expression (see RowUpdate.together).
 */
const MERGED_UPDATES: ReadonlySet<string> = new Set(["TicketingStarted", "TicketsIssued"]);

/**
 * Row updates of a batch held back to go as one statement with the others of the same text (other bookings'
 * rows). A booking is in one group at most, and its group is sent before any later statement about it (release),
 * so each row still changes in the events' order; the rows of different bookings are independent.
 */
class AlikeUpdates {
  private readonly groups = new Map<string, RowUpdate[]>();
  private readonly groupOf = new Map<string, string>();

  constructor(
    private readonly batch: StatementBatch,
    private readonly table: string,
  ) {}

  add(row: RowUpdate): void {
    this.release(row.locator);
    const key = row.shape(this.table);
    if (key === null) return;
    const group = this.groups.get(key) ?? [];
    group.push(row);
    this.groups.set(key, group);
    this.groupOf.set(row.locator, key);
  }

  /** Sends the group holding this booking's waiting update, if any. */
  release(locator: string): void {
    const key = this.groupOf.get(locator);
    if (key !== undefined) this.send(key);
  }

  releaseAll(): void {
    for (const key of [...this.groups.keys()]) this.send(key);
  }

  private send(key: string): void {
    const group = this.groups.get(key) ?? [];
    this.groups.delete(key);
    for (const row of group) this.groupOf.delete(row.locator);
    const [only] = group;
    if (group.length === 1 && only) only.addTo(this.batch, this.table);
    else if (group.length > 1) {
      const { text, values } = RowUpdate.together(group, this.table);
      this.batch.add(text, values);
    }
  }
}

/** The recordset type of an update's parameter, from its value (a null is a text, as an untyped parameter is). */
function recordType(value: unknown): string {
  if (value instanceof Date) return "timestamptz";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "bigint" : "numeric";
  if (Array.isArray(value)) return "text[]";
  if (value === null || value === undefined || typeof value === "string") return "text";
  return "jsonb";
}

/**
 * One booking row's change from one event, sent as one UPDATE: each column set once, to an expression over the row
 * as it was and parameters (every expression sees the old row, so no column may be set from another's new value).
 */
class RowUpdate {
  private readonly sets = new Map<string, string>();
  readonly values: unknown[];

  constructor(readonly locator: string) {
    this.values = [locator];
  }

  /** The placeholder of a new parameter. */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Each column once: a second expression would leave the first one's parameters unused (and unknown to PG). */
  set(column: string, expression: string): void {
    if (this.sets.has(column)) throw new Error(`${column} is set twice in one booking update`);
    this.sets.set(column, expression);
  }

  private assignments(): string {
    return [...this.sets].map(([column, expression]) => `${column} = ${expression}`).join(", ");
  }

  addTo(batch: StatementBatch, table: string): void {
    if (this.sets.size === 0) return;
    batch.add(`UPDATE ${table} SET ${this.assignments()} WHERE locator = $1`, this.values);
  }

  /** What updates must share to go together: the same assignments, with parameters of the same types (null: none). */
  shape(table: string): string | null {
    if (this.sets.size === 0) return null;
    return `${table} ${this.assignments()} ${this.values.map(recordType).join(",")}`;
  }

  /**
   * Updates of the same shape (each another booking's row) as one statement: each one's parameters are a row of a
   * typed recordset, `$n` in the assignments reading its column `pn` (the locator, $1, picks the row to change). The
   * locators go as an array too ($2): PostgreSQL then plans each batch for its own locators, read by the key's index.
   * Without it, every plan saw the recordset as its guess of 100 rows, and the one it kept after five, made while the
   * read model was young, scanned the whole table on every batch after (issue 26, batch-lookups.test.ts).
   */
  static together(rows: readonly RowUpdate[], table: string): { text: string; values: unknown[] } {
    const [first] = rows;
    if (!first) throw new Error("no update to send");
    const columns = first.values.map((value, i) => `p${i + 1} ${recordType(value)}`).join(", ");
    const assignments = first.assignments().replace(/\$(\d+)/g, (_, n: string) => `each_row.p${n}`);
    return {
      text: `UPDATE ${table} SET ${assignments}
        FROM jsonb_to_recordset($1::jsonb) AS each_row(${columns})
       WHERE locator = each_row.p1 AND locator = ANY($2::text[])`,
      values: [
        JSON.stringify(
          rows.map((row) => Object.fromEntries(row.values.map((value, i) => [`p${i + 1}`, value]))),
        ),
        rows.map((row) => row.locator),
      ],
    };
  }
}

/** Refund quotes and refunds, flights-change requests, offers and exchanges, ancillary lines. */
function afterSales(batch: StatementBatch, row: RowUpdate, e: BookingEvent, table: string): void {
  switch (e.type) {
    case "RefundQuoted":
      row.set("refund_quote", `${row.param(JSON.stringify(e.data))}::jsonb`);
      break;
    case "RefundFailed":
      row.set("refund_quote", "NULL");
      break;
    case "TicketsRefunded": {
      const refund = { at: e.data.at, lines: e.data.lines, credited: e.data.credited };
      const refunded = `(refunded_passengers || ${row.param(JSON.stringify(e.data.lines.map((l) => l.passenger_index)))}::jsonb)`;
      // The booking moves with its last open ticket (withLastTicket); a partial refund leaves its status.
      const last = `jsonb_array_length(tickets) <= jsonb_array_length(${refunded})`;
      const to = BOOKING_TRANSITIONS.TicketsRefunded.to;
      row.set("refund_quote", "NULL");
      row.set("refunded_passengers", refunded);
      row.set("refunds", `refunds || ${row.param(JSON.stringify([refund]))}::jsonb`);
      row.set("status", `CASE WHEN ${last} THEN ${row.param(to)} ELSE status END`);
      row.set("list", `CASE WHEN ${last} THEN ${row.param(listOfStatus(to))} ELSE list END`);
      // An involuntary refund (claimed as a schedule change's answer, the operation still open) answers it.
      row.set(
        "schedule_change",
        `CASE WHEN operation_kind = 'schedule_change' THEN schedule_change || '{"answer": "refund"}'::jsonb ELSE schedule_change END`,
      );
      break;
    }
    case "ScheduleChanged":
      row.set("schedule_change", `${row.param(JSON.stringify({ ...e.data, answer: null }))}::jsonb`);
      break;
    case "ScheduleChangeAccepted": {
      const departure = e.data.flights[0]?.departure_at ?? null;
      row.set("schedule_change", `schedule_change || '{"answer": "accept"}'::jsonb`);
      const dep = row.param(departure);
      row.set("departure_at", `coalesce(${dep}::text, departure_at)`);
      row.set(
        "held",
        `jsonb_set(jsonb_set(held, '{fare,flights}', ${row.param(JSON.stringify(e.data.flights))}::jsonb),
           '{fare,departure_at}', to_jsonb(coalesce(${dep}::text, held->'fare'->>'departure_at')))`,
      );
      break;
    }
    case "FlightsChangeRequested":
      row.set(
        "change_request",
        `${row.param(JSON.stringify({ ...e.data, offers: [], expires_at: null }))}::jsonb`,
      );
      break;
    case "ReshopOffersPriced":
      // Only the offers of the request still waiting.
      row.set(
        "change_request",
        `CASE WHEN change_request->>'request_id' = ${row.param(e.data.request_id)}
           THEN change_request || ${row.param(JSON.stringify({ offers: e.data.offers, expires_at: e.data.expires_at }))}::jsonb
           ELSE change_request END`,
      );
      break;
    case "ExchangeFailed":
      // A failed exchange empties the offers (spec: a reissue failure resets the results); no request stays none.
      row.set("change_request", `change_request || '{"offers": [], "expires_at": null}'::jsonb`);
      break;
    case "AncillariesAdded":
    case "EmdsIssued":
    case "EmdRefunded":
    case "BookingVoided":
      ancillaryLines(batch, row, e, table);
      break;
    case "TicketsExchanged":
      row.set("tickets", paidTickets(row, e.data.tickets));
      row.set("ticket_numbers", row.param(e.data.tickets.map((x) => x.ticket_number).join(" ")));
      row.set("void_until", "NULL");
      row.set("change_request", "NULL");
      row.set("refund_quote", "NULL");
      // An involuntary exchange (claimed as a schedule change's answer, the operation still open) answers it.
      row.set(
        "schedule_change",
        `CASE WHEN operation_kind = 'schedule_change' THEN schedule_change || '{"answer": "exchange"}'::jsonb ELSE schedule_change END`,
      );
      row.set("price_amount", `${row.param(e.data.price.amount)}::bigint`);
      row.set("departure_at", row.param(e.data.fare.departure_at));
      row.set(
        "held",
        `held || jsonb_build_object('fare', ${row.param(JSON.stringify(e.data.fare))}::jsonb, 'price', ${row.param(JSON.stringify(e.data.price))}::jsonb, 'price_detail', ${row.param(JSON.stringify(e.data.price_detail))}::jsonb)`,
      );
      break;
    default:
      break;
  }
}

/** The booking's ancillary lines: added, numbered (EMDs issued), refunded, voided with the booking. */
function ancillaryLines(batch: StatementBatch, row: RowUpdate, e: BookingEvent, table: string): void {
  switch (e.type) {
    case "AncillariesAdded":
      // Lines held are paid with the tickets (EmdsIssued says so); the others by this purchase's claim.
      row.set(
        "ancillaries",
        `ancillaries || (SELECT coalesce(jsonb_agg(l || jsonb_build_object('paid_by',
           CASE WHEN l->>'status' = 'held' THEN NULL ELSE paid_by END) ORDER BY n), '[]')
           FROM jsonb_array_elements(${row.param(JSON.stringify(e.data.lines))}::jsonb) WITH ORDINALITY AS y(l, n))`,
      );
      row.set(
        "async_emd_issue",
        `async_emd_issue OR ${row.param(e.data.lines.some((l) => l.status === "pending"))}::boolean`,
      );
      break;
    case "EmdsIssued":
      // Lines replaced by line_id; async_emd_issue follows whether any line still waits for its EMD (its own
      // statement: both columns derive from the new lines).
      batch.add(
        `UPDATE ${table} SET ancillaries = x.lines,
           async_emd_issue = EXISTS (SELECT 1 FROM jsonb_array_elements(x.lines) l WHERE l->>'status' = 'pending')
           FROM (SELECT coalesce(jsonb_agg(coalesce(
                   (SELECT c || jsonb_build_object('paid_by', CASE WHEN $3 = 'issue' THEN b.paid_by ELSE a->'paid_by' END)
                      FROM jsonb_array_elements($2::jsonb) c WHERE c->>'line_id' = a->>'line_id'), a)
                 ORDER BY n), '[]') AS lines
                   FROM ${table} b, jsonb_array_elements(b.ancillaries) WITH ORDINALITY AS y(a, n)
                  WHERE b.locator = $1) x
         WHERE locator = $1`,
        [row.values[0], JSON.stringify(e.data.lines), e.data.paid_with],
      );
      break;
    case "EmdRefunded":
      row.set(
        "ancillaries",
        `(SELECT coalesce(jsonb_agg(CASE WHEN a->>'line_id' = ${row.param(e.data.line_id)} THEN a || '{"status": "refunded"}'::jsonb ELSE a END
           ORDER BY n), '[]') FROM jsonb_array_elements(ancillaries) WITH ORDINALITY AS x(a, n))`,
      );
      break;
    case "BookingVoided":
      row.set("async_emd_issue", "false");
      row.set(
        "ancillaries",
        `(SELECT coalesce(jsonb_agg(CASE WHEN a->>'status' = 'refunded' THEN a ELSE a || '{"status": "voided"}'::jsonb END
           ORDER BY n), '[]') FROM jsonb_array_elements(ancillaries) WITH ORDINALITY AS x(a, n))`,
      );
      break;
    default:
      break;
  }
}

const negative = (m: { amount: number; currency: string } | null) =>
  m ? { amount: -m.amount, currency: m.currency } : null;

/** The booking's history of supplier operations: a start appends one, its outcome completes it. */
function history(row: RowUpdate, e: BookingEvent, at: Date): void {
  const started = (
    kind: string,
    operationId: string,
    startedAt: string,
    effect: unknown,
    paidBy: PaidBy | null = null,
  ) =>
    row.set(
      "history",
      `history || ${row.param(
        JSON.stringify([
          {
            operation_id: operationId,
            kind,
            started_at: startedAt,
            finished_at: null,
            outcome: "in_flight",
            balance_effect: effect,
            tickets: [],
            error: null,
            paid_by: paidBy,
          },
        ]),
      )}::jsonb`,
    );
  const finished = (operationId: string, change: Record<string, unknown>) =>
    row.set(
      "history",
      `(SELECT coalesce(jsonb_agg(CASE WHEN h->>'operation_id' = ${row.param(operationId)}
           THEN h || ${row.param(JSON.stringify({ finished_at: at.toISOString(), ...change }))}::jsonb ELSE h END
         ORDER BY n), '[]') FROM jsonb_array_elements(history) WITH ORDINALITY AS x(h, n))`,
    );
  // A failed issue or exchange gave back what its claim charged: it moved nothing in the end.
  const failed = (d: { operation_id: string; reason: string }, chargedBack: boolean) =>
    finished(d.operation_id, {
      outcome: "failed",
      error: d.reason,
      ...(chargedBack ? { balance_effect: null } : {}),
    });
  switch (e.type) {
    case "TicketingStarted":
      started("issue", e.data.operation_id, e.data.at, e.data.charged, e.data.paid_by);
      break;
    case "VoidStarted":
      started("void", e.data.operation_id, e.data.at, null);
      break;
    case "CancelStarted":
      started("cancel", e.data.operation_id, e.data.at, null);
      break;
    case "RefundStarted":
      started("refund", e.data.operation_id, e.data.at, null);
      break;
    case "ExchangeStarted":
      started("exchange", e.data.operation_id, e.data.at, e.data.charged, e.data.paid_by);
      break;
    case "AncillariesStarted":
      started("ancillaries", e.data.operation_id, e.data.at, e.data.charged, e.data.paid_by);
      break;
    case "EmdRefundStarted":
      started("emd_refund", e.data.operation_id, e.data.at, null);
      break;
    case "ScheduleChangeAnswerStarted":
      started("schedule_change", e.data.operation_id, e.data.at, null);
      break;
    case "ScheduleChangeAccepted":
      finished(e.data.operation_id, { outcome: "done" });
      break;
    case "ScheduleChangeAnswerFailed":
      failed(e.data, false);
      break;
    case "AncillariesAdded":
      finished(e.data.operation_id, {
        outcome: "done",
        tickets: e.data.lines.flatMap((l) => (l.emd_number ? [l.emd_number] : [])),
      });
      break;
    case "AncillariesFailed":
      failed(e.data, true);
      break;
    case "EmdRefundFailed":
      failed(e.data, false);
      break;
    case "EmdRefunded":
      finished(e.data.operation_id, {
        outcome: "done",
        balance_effect: negative(e.data.credited),
        tickets: [e.data.emd_number],
      });
      break;
    case "TicketsIssued":
    case "TicketsExchanged":
      finished(e.data.operation_id, { outcome: "done", tickets: e.data.tickets.map((x) => x.ticket_number) });
      break;
    case "TicketingFailed":
    case "ExchangeFailed":
      failed(e.data, true);
      break;
    case "VoidFailed":
    case "CancelFailed":
    case "RefundFailed":
      failed(e.data, false);
      break;
    case "BookingVoided":
      finished(e.data.operation_id, { outcome: "done", balance_effect: negative(e.data.credited) });
      break;
    case "BookingCancelled":
      if (e.data.operation_id) finished(e.data.operation_id, { outcome: "done" });
      break;
    case "TicketsRefunded":
      finished(e.data.operation_id, {
        outcome: "done",
        balance_effect: negative(e.data.credited),
        tickets: e.data.lines.map((l) => l.ticket_number),
      });
      break;
    default:
      break;
  }
}
