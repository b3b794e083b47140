import {
  BOOKING_EVENT_TYPES,
  type BookingEvent,
  StoredBookingEvent,
} from "@skyward/contracts/booking-events";
import { StatementBatch } from "@skyward/infra/db";
import { defineProjection } from "@skyward/infra/projections/projection";

/** Which list of the bookings page a status belongs to; issued and exchanged both show under "issued". */
export const LIST_OF_STATUS: Record<string, string> = {
  held: "new",
  ticketing: "new",
  failed: "new",
  issued: "issued",
  exchanged: "issued",
  voided: "cancelled",
  cancelled: "cancelled",
  expired: "cancelled",
  refunded: "refunded",
};

/** The status an event moves a booking to, if it moves it. */
function statusAfter(event: BookingEvent): string | null {
  switch (event.type) {
    case "BookingHeld":
    case "BookingConfirmedByProvider":
    case "BookingPriceChanged":
    case "BookingRepriced":
    case "BookingCommented":
    case "BookingModified":
    case "VoidStarted":
    case "VoidFailed":
    case "CancelStarted":
    case "CancelFailed":
    case "RefundQuoted":
    case "RefundStarted":
    case "RefundFailed":
    case "TicketsRefunded": // refunded only with its last ticket: decided in its own statement below
    case "FlightsChangeRequested":
    case "ReshopOffersPriced":
    case "ExchangeStarted":
    case "ExchangeFailed":
    case "AncillariesStarted":
    case "AncillariesAdded":
    case "AncillariesFailed":
    case "EmdsIssued":
    case "EmdRefundStarted":
    case "EmdRefunded":
    case "EmdRefundFailed":
      return null;
    case "TicketsExchanged":
      return "exchanged";
    case "TicketingStarted":
      return "ticketing";
    case "TicketingFailed":
      return "held";
    case "TicketsIssued":
      return "issued";
    case "BookingVoided":
      return "voided";
    case "BookingCancelled":
      return "cancelled";
    case "BookingExpired":
      return "expired";
    case "BookingFailedByProvider":
      return "failed";
    default:
      return assertNever(event);
  }
}

/** The supplier operation an event opens (its kind) or closes (null); undefined when it does neither. */
function operationAfter(event: BookingEvent): { id: string; kind: string; at: string } | null | undefined {
  switch (event.type) {
    case "TicketingStarted":
      return { id: event.data.operation_id, kind: "issue", at: event.data.at };
    case "VoidStarted":
      return { id: event.data.operation_id, kind: "void", at: event.data.at };
    case "CancelStarted":
      return { id: event.data.operation_id, kind: "cancel", at: event.data.at };
    case "RefundStarted":
      return { id: event.data.operation_id, kind: "refund", at: event.data.at };
    case "ExchangeStarted":
      return { id: event.data.operation_id, kind: "exchange", at: event.data.at };
    case "AncillariesStarted":
      return { id: event.data.operation_id, kind: "ancillaries", at: event.data.at };
    case "EmdRefundStarted":
      return { id: event.data.operation_id, kind: "emd_refund", at: event.data.at };
    case "AncillariesAdded":
    case "AncillariesFailed":
    case "EmdRefunded":
    case "EmdRefundFailed":
    case "TicketsRefunded":
    case "RefundFailed":
    case "TicketsExchanged":
    case "ExchangeFailed":
    case "TicketsIssued":
    case "TicketingFailed":
    case "BookingVoided":
    case "VoidFailed":
    case "BookingCancelled":
    case "CancelFailed":
    case "BookingExpired":
    case "BookingFailedByProvider":
      return null;
    default:
      return undefined;
  }
}

function assertNever(value: never): never {
  throw new Error(`unhandled booking event ${JSON.stringify(value)}`);
}

/** Bookings as the lists and the booking page show them, one row per locator. */
export const bookings = defineProjection({
  name: "bookings",
  version: 5,
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
      route text NOT NULL,
      carrier text NOT NULL,
      departure_at text, -- local time at the departure airport, with its offset, as the ticket shows it
      passenger_names text NOT NULL,
      ticket_numbers text NOT NULL DEFAULT '',
      price_amount bigint NOT NULL,
      currency text NOT NULL,
      time_limit timestamptz,
      held jsonb NOT NULL,
      tickets jsonb NOT NULL DEFAULT '[]',
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
      history jsonb NOT NULL DEFAULT '[]',
      -- Bags, cabin bags and seats with their EMDs; async_emd_issue while an EMD waits for the airline.
      ancillaries jsonb NOT NULL DEFAULT '[]',
      async_emd_issue boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.bookings} (company_id, list, created_at DESC);
    CREATE INDEX ON ${t.bookings} (agency_id, list, created_at DESC);
    CREATE INDEX ON ${t.bookings} (status, time_limit);
    CREATE INDEX ON ${t.bookings} (operation_started_at) WHERE operation_id IS NOT NULL;
    CREATE INDEX ON ${t.bookings} (updated_at) WHERE async_emd_issue;
  `,
  async apply(client, events, t) {
    // Every statement of the batch goes in one round trip; each keeps the event order.
    const batch = new StatementBatch();
    for (const stored of events) {
      // Checked in depth when appended: the large parts are taken as stored.
      const e = StoredBookingEvent.parse({ type: stored.type, data: stored.data });
      const locator = stored.streamId.slice("booking-".length);
      if (e.type === "BookingHeld") {
        const d = e.data;
        const initial = d.provider_status === "failed" ? "failed" : "held";
        batch.add(
          `INSERT INTO ${t.bookings} (locator, status, list, company_id, agency_id, agent_id, fake_booking,
             provider_status, route, carrier, departure_at, passenger_names, price_amount, currency, time_limit, held,
             created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$17) ON CONFLICT (locator) DO NOTHING`,
          [
            locator,
            initial,
            LIST_OF_STATUS[initial],
            d.company_id,
            d.agency_id,
            d.agent_id,
            d.fake_booking,
            d.provider_status,
            d.fare.route,
            d.fare.carrier,
            d.fare.departure_at,
            d.passengers
              .map((p) => `${p.last_name}/${p.first_name}`)
              .join(", ")
              .toUpperCase(),
            d.price.amount,
            d.price.currency,
            d.time_limit,
            JSON.stringify(stored.data),
            stored.recordedAt,
          ],
        );
        continue;
      }
      // Status and the operation in flight move together (an operation's start and end), in one statement.
      const status = statusAfter(e);
      const operation = operationAfter(e);
      if (status || operation !== undefined) {
        batch.add(
          `UPDATE ${t.bookings} SET status = coalesce($2, status), list = coalesce($3, list), updated_at = $4,
             operation_id = CASE WHEN $5 THEN $6 ELSE operation_id END,
             operation_kind = CASE WHEN $5 THEN $7 ELSE operation_kind END,
             operation_started_at = CASE WHEN $5 THEN $8::timestamptz ELSE operation_started_at END
           WHERE locator = $1`,
          [
            locator,
            status,
            status ? LIST_OF_STATUS[status] : null,
            stored.recordedAt,
            operation !== undefined,
            operation?.id ?? null,
            operation?.kind ?? null,
            operation?.at ?? null,
          ],
        );
      }
      switch (e.type) {
        case "BookingConfirmedByProvider":
        case "BookingFailedByProvider":
          batch.add(`UPDATE ${t.bookings} SET provider_status = $2 WHERE locator = $1`, [
            locator,
            e.type === "BookingConfirmedByProvider" ? "confirmed" : "failed",
          ]);
          break;
        case "TicketsIssued":
          batch.add(
            `UPDATE ${t.bookings} SET tickets = $2, ticket_numbers = $3, issued_at = $4, void_until = $5 WHERE locator = $1`,
            [
              locator,
              JSON.stringify(e.data.tickets),
              e.data.tickets.map((x) => x.ticket_number).join(" "),
              e.data.issued_at,
              e.data.void_until,
            ],
          );
          break;
        case "BookingPriceChanged":
          batch.add(`UPDATE ${t.bookings} SET pending_price = $2 WHERE locator = $1`, [
            locator,
            JSON.stringify({ price: e.data.new_price, price_detail: e.data.new_price_detail }),
          ]);
          break;
        case "BookingRepriced":
          batch.add(
            `UPDATE ${t.bookings} SET pending_price = NULL, price_amount = $2,
               held = jsonb_set(jsonb_set(held, '{price}', $3::jsonb), '{price_detail}', $4::jsonb) WHERE locator = $1`,
            [locator, e.data.price.amount, JSON.stringify(e.data.price), JSON.stringify(e.data.price_detail)],
          );
          break;
        case "BookingCommented":
          batch.add(`UPDATE ${t.bookings} SET comments = comments || $2::jsonb WHERE locator = $1`, [
            locator,
            JSON.stringify([{ text: e.data.comment, at: e.data.at, by: e.data.by }]),
          ]);
          break;
        case "BookingModified":
          batch.add(
            `UPDATE ${t.bookings} SET held = jsonb_set(held, '{contacts}', (held->'contacts') || $2::jsonb) WHERE locator = $1`,
            [locator, JSON.stringify(e.data.contacts ?? {})],
          );
          for (const p of e.data.passengers ?? []) {
            batch.add(
              `UPDATE ${t.bookings} SET held = jsonb_set(held, $2::text[], $3::jsonb) WHERE locator = $1`,
              [locator, ["passengers", String(p.index), "document"], JSON.stringify(p.document)],
            );
          }
          break;
        default:
          afterSales(batch, t.bookings, locator, e, stored.recordedAt);
          break;
      }
      history(batch, t.bookings, locator, e, stored.recordedAt);
    }
    await batch.run(client);
  },
});

/** Refund quotes and refunds, flights-change requests, offers and exchanges. */
function afterSales(batch: StatementBatch, table: string, locator: string, e: BookingEvent, at: Date): void {
  switch (e.type) {
    case "RefundQuoted":
      batch.add(`UPDATE ${table} SET refund_quote = $2 WHERE locator = $1`, [
        locator,
        JSON.stringify(e.data),
      ]);
      break;
    case "RefundFailed":
      batch.add(`UPDATE ${table} SET refund_quote = NULL WHERE locator = $1`, [locator]);
      break;
    case "TicketsRefunded": {
      const refund = { at: e.data.at, lines: e.data.lines, credited: e.data.credited };
      // The booking is refunded with its last open ticket; a partial refund leaves its status.
      batch.add(
        `UPDATE ${table} SET refund_quote = NULL, refunded_passengers = refunded_passengers || $2::jsonb,
           refunds = refunds || $3::jsonb, updated_at = $4,
           status = CASE WHEN jsonb_array_length(tickets) <= jsonb_array_length(refunded_passengers || $2::jsonb)
             THEN 'refunded' ELSE status END,
           list = CASE WHEN jsonb_array_length(tickets) <= jsonb_array_length(refunded_passengers || $2::jsonb)
             THEN 'refunded' ELSE list END
         WHERE locator = $1`,
        [locator, JSON.stringify(e.data.lines.map((l) => l.passenger_index)), JSON.stringify([refund]), at],
      );
      break;
    }
    case "FlightsChangeRequested":
      batch.add(`UPDATE ${table} SET change_request = $2 WHERE locator = $1`, [
        locator,
        JSON.stringify({ ...e.data, offers: [], expires_at: null }),
      ]);
      break;
    case "ReshopOffersPriced":
      batch.add(
        `UPDATE ${table} SET change_request = change_request || $3::jsonb
          WHERE locator = $1 AND change_request->>'request_id' = $2`,
        [
          locator,
          e.data.request_id,
          JSON.stringify({ offers: e.data.offers, expires_at: e.data.expires_at }),
        ],
      );
      break;
    case "ExchangeFailed":
      // A failed exchange empties the offers (spec: a reissue failure resets the results).
      batch.add(
        `UPDATE ${table} SET change_request = change_request || '{"offers": [], "expires_at": null}'::jsonb
          WHERE locator = $1 AND change_request IS NOT NULL`,
        [locator],
      );
      break;
    case "AncillariesAdded":
    case "EmdsIssued":
    case "EmdRefunded":
    case "BookingVoided":
      ancillaryLines(batch, table, locator, e);
      break;
    case "TicketsExchanged":
      batch.add(
        `UPDATE ${table} SET tickets = $2, ticket_numbers = $3, void_until = NULL, change_request = NULL,
           refund_quote = NULL, price_amount = $4, departure_at = $5,
           held = held || jsonb_build_object('fare', $6::jsonb, 'price', $7::jsonb, 'price_detail', $8::jsonb)
         WHERE locator = $1`,
        [
          locator,
          JSON.stringify(e.data.tickets),
          e.data.tickets.map((x) => x.ticket_number).join(" "),
          e.data.price.amount,
          e.data.fare.departure_at,
          JSON.stringify(e.data.fare),
          JSON.stringify(e.data.price),
          JSON.stringify(e.data.price_detail),
        ],
      );
      break;
    default:
      break;
  }
}

/** The booking's ancillary lines: added, numbered (EMDs issued), refunded, voided with the booking. */
function ancillaryLines(batch: StatementBatch, table: string, locator: string, e: BookingEvent): void {
  // Lines replaced by line_id; async_emd_issue follows whether any line still waits for its EMD.
  const patch = (change: unknown[]) =>
    batch.add(
      `UPDATE ${table} SET ancillaries = x.lines,
         async_emd_issue = EXISTS (SELECT 1 FROM jsonb_array_elements(x.lines) l WHERE l->>'status' = 'pending')
         FROM (SELECT coalesce(jsonb_agg(coalesce(
                 (SELECT c FROM jsonb_array_elements($2::jsonb) c WHERE c->>'line_id' = a->>'line_id'), a)
               ORDER BY n), '[]') AS lines
                 FROM ${table} b, jsonb_array_elements(b.ancillaries) WITH ORDINALITY AS y(a, n)
                WHERE b.locator = $1) x
       WHERE locator = $1`,
      [locator, JSON.stringify(change)],
    );
  switch (e.type) {
    case "AncillariesAdded":
      batch.add(
        `UPDATE ${table} SET ancillaries = ancillaries || $2::jsonb,
           async_emd_issue = async_emd_issue OR $3 WHERE locator = $1`,
        [locator, JSON.stringify(e.data.lines), e.data.lines.some((l) => l.status === "pending")],
      );
      break;
    case "EmdsIssued":
      patch(e.data.lines);
      break;
    case "EmdRefunded":
      batch.add(
        `UPDATE ${table} SET ancillaries = (
           SELECT coalesce(jsonb_agg(CASE WHEN a->>'line_id' = $2 THEN a || '{"status": "refunded"}'::jsonb ELSE a END
             ORDER BY n), '[]') FROM jsonb_array_elements(ancillaries) WITH ORDINALITY AS x(a, n))
         WHERE locator = $1`,
        [locator, e.data.line_id],
      );
      break;
    case "BookingVoided":
      batch.add(
        `UPDATE ${table} SET async_emd_issue = false, ancillaries = (
           SELECT coalesce(jsonb_agg(CASE WHEN a->>'status' = 'refunded' THEN a ELSE a || '{"status": "voided"}'::jsonb END
             ORDER BY n), '[]') FROM jsonb_array_elements(ancillaries) WITH ORDINALITY AS x(a, n))
         WHERE locator = $1 AND ancillaries <> '[]'::jsonb`,
        [locator],
      );
      break;
    default:
      break;
  }
}

const negative = (m: { amount: number; currency: string } | null) =>
  m ? { amount: -m.amount, currency: m.currency } : null;

/** The booking's history of supplier operations: a start appends one, its outcome completes it. */
function history(batch: StatementBatch, table: string, locator: string, e: BookingEvent, at: Date): void {
  const started = (kind: string, operationId: string, startedAt: string, effect: unknown) =>
    batch.add(`UPDATE ${table} SET history = history || $2::jsonb WHERE locator = $1`, [
      locator,
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
        },
      ]),
    ]);
  const finished = (operationId: string, change: Record<string, unknown>) =>
    batch.add(
      `UPDATE ${table} SET history = (
         SELECT coalesce(jsonb_agg(CASE WHEN h->>'operation_id' = $2 THEN h || $3::jsonb ELSE h END ORDER BY n), '[]')
           FROM jsonb_array_elements(history) WITH ORDINALITY AS x(h, n))
       WHERE locator = $1`,
      [locator, operationId, JSON.stringify({ finished_at: at.toISOString(), ...change })],
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
      started("issue", e.data.operation_id, e.data.at, e.data.charged);
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
      started("exchange", e.data.operation_id, e.data.at, e.data.charged);
      break;
    case "AncillariesStarted":
      started("ancillaries", e.data.operation_id, e.data.at, e.data.charged);
      break;
    case "EmdRefundStarted":
      started("emd_refund", e.data.operation_id, e.data.at, null);
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
