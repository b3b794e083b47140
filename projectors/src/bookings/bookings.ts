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

const statusOf: Record<string, string> = {
  TicketingStarted: "ticketing",
  TicketingFailed: "held",
  TicketsIssued: "issued",
  BookingVoided: "voided",
  BookingCancelled: "cancelled",
  BookingExpired: "expired",
  BookingFailedByProvider: "failed",
};

const listCase = `CASE $STATUS ${Object.entries(LIST_OF_STATUS)
  .map(([s, l]) => `WHEN '${s}' THEN '${l}'`)
  .join(" ")} END`;

/** Bookings as the lists and the booking page show them, one row per locator. */
export const bookings = defineProjection({
  name: "bookings",
  version: 2,
  eventTypes: [
    "BookingHeld",
    "BookingConfirmedByProvider",
    "BookingFailedByProvider",
    "TicketingStarted",
    "TicketingFailed",
    "TicketsIssued",
    "BookingPriceChanged",
    "BookingRepriced",
    "BookingVoided",
    "BookingCancelled",
    "BookingExpired",
    "BookingCommented",
    "BookingModified",
  ],
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
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.bookings} (company_id, list, created_at DESC);
    CREATE INDEX ON ${t.bookings} (agency_id, list, created_at DESC);
    CREATE INDEX ON ${t.bookings} (status, time_limit);
  `,
  async apply(client, events, t) {
    // Every statement of the batch goes in one round trip; each keeps the event order.
    const batch = new StatementBatch();
    for (const e of events) {
      const d = e.data as Record<string, unknown>;
      const locator = e.streamId.slice("booking-".length);
      const status = statusOf[e.type];
      if (e.type === "BookingHeld") {
        const passengers = d.passengers as { first_name: string; last_name: string }[];
        const fare = d.fare as { route: string; carrier: string; departure_at: string };
        const price = d.price as { amount: number; currency: string };
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
            fare.route,
            fare.carrier,
            fare.departure_at,
            passengers
              .map((p) => `${p.last_name}/${p.first_name}`)
              .join(", ")
              .toUpperCase(),
            price.amount,
            price.currency,
            d.time_limit,
            JSON.stringify(d),
            e.recordedAt,
          ],
        );
        continue;
      }
      if (status) {
        batch.add(
          `UPDATE ${t.bookings} SET status = $2, list = ${listCase.replace("$STATUS", "$2::text")}, updated_at = $3
           WHERE locator = $1`,
          [locator, status, e.recordedAt],
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
        case "TicketsIssued": {
          const tickets = d.tickets as { ticket_number: string }[];
          batch.add(
            `UPDATE ${t.bookings} SET tickets = $2, ticket_numbers = $3, issued_at = $4, void_until = $5 WHERE locator = $1`,
            [
              locator,
              JSON.stringify(tickets),
              tickets.map((x) => x.ticket_number).join(" "),
              d.issued_at,
              d.void_until,
            ],
          );
          break;
        }
        case "BookingPriceChanged":
          batch.add(`UPDATE ${t.bookings} SET pending_price = $2 WHERE locator = $1`, [
            locator,
            JSON.stringify({ price: d.new_price, price_detail: d.new_price_detail }),
          ]);
          break;
        case "BookingRepriced": {
          const price = d.price as { amount: number };
          batch.add(
            `UPDATE ${t.bookings} SET pending_price = NULL, price_amount = $2,
               held = jsonb_set(jsonb_set(held, '{price}', $3::jsonb), '{price_detail}', $4::jsonb) WHERE locator = $1`,
            [locator, price.amount, JSON.stringify(d.price), JSON.stringify(d.price_detail ?? null)],
          );
          break;
        }
        case "BookingCommented":
          batch.add(`UPDATE ${t.bookings} SET comments = comments || $2::jsonb WHERE locator = $1`, [
            locator,
            JSON.stringify([{ text: d.comment, at: d.at, by: d.by }]),
          ]);
          break;
        case "BookingModified":
          batch.add(
            `UPDATE ${t.bookings} SET held = jsonb_set(held, '{contacts}', (held->'contacts') || $2::jsonb) WHERE locator = $1`,
            [locator, JSON.stringify(d.contacts ?? {})],
          );
          for (const p of (d.passengers as { index: number; document: unknown }[] | undefined) ?? []) {
            batch.add(
              `UPDATE ${t.bookings} SET held = jsonb_set(held, $2::text[], $3::jsonb) WHERE locator = $1`,
              [locator, ["passengers", String(p.index), "document"], JSON.stringify(p.document)],
            );
          }
          break;
      }
    }
    await batch.run(client);
  },
});
