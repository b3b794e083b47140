import { BALANCE_EVENT_TYPES, BalanceEvent } from "@skyward/contracts/balances";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { defineProjection } from "@skyward/infra/projections/projection";

/** A movement as the history shows it: signed amount, and what it was for. */
function movement(event: BalanceEvent): { delta: number; locator: string | null; comment: string | null } {
  switch (event.type) {
    case "BalanceToppedUp":
      return { delta: event.data.amount.amount, locator: null, comment: event.data.comment };
    case "BalanceCredited":
      return { delta: event.data.amount.amount, locator: event.data.locator, comment: null };
    case "BalanceCharged":
      return { delta: -event.data.amount.amount, locator: event.data.locator, comment: null };
    default:
      return unhandledEvent(event);
  }
}

/** Each company's balance now, and every movement with the balance after it. */
export const balances = defineProjection({
  name: "balances",
  version: 1,
  eventTypes: BALANCE_EVENT_TYPES,
  tables: ["company_balances", "balance_history"],
  setup: (t) => `
    CREATE TABLE ${t.company_balances} (
      company_id text PRIMARY KEY, amount bigint NOT NULL, currency text NOT NULL, updated_at timestamptz NOT NULL
    );
    CREATE TABLE ${t.balance_history} (
      event_id uuid PRIMARY KEY, company_id text NOT NULL, kind text NOT NULL, amount bigint NOT NULL,
      currency text NOT NULL, balance_after bigint NOT NULL, locator text, comment text, actor_id text,
      at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.balance_history} (company_id, at DESC);
  `,
  async apply(writer, stored, t) {
    const events = stored.map((e) => parseEvent(BalanceEvent, e));
    const moves = events.map(movement);
    // One statement for the whole batch: each company's balance moves once by the batch's sum, and every history
    // line gets the balance before the batch plus the running sum of the company's movements up to it.
    await writer.query(
      `WITH movement AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                              $8::text[], $9::timestamptz[])
                  WITH ORDINALITY AS m(event_id, company_id, kind, delta, currency, locator, comment, actor_id, at, n)
       ),
       before AS (
         SELECT company_id, amount FROM ${t.company_balances}
          WHERE company_id IN (SELECT company_id FROM movement)
       ),
       balance AS (
         INSERT INTO ${t.company_balances} AS b (company_id, amount, currency, updated_at)
         SELECT company_id, sum(delta), (array_agg(currency ORDER BY n))[1], (array_agg(at ORDER BY n DESC))[1]
           FROM movement GROUP BY company_id
         ON CONFLICT (company_id) DO UPDATE SET amount = b.amount + EXCLUDED.amount, updated_at = EXCLUDED.updated_at
       )
       INSERT INTO ${t.balance_history} (event_id, company_id, kind, amount, currency, balance_after, locator,
         comment, actor_id, at)
       SELECT m.event_id, m.company_id, m.kind, m.delta, m.currency,
              coalesce(before.amount, 0) + sum(m.delta) OVER (PARTITION BY m.company_id ORDER BY m.n),
              m.locator, m.comment, m.actor_id, m.at
         FROM movement m LEFT JOIN before USING (company_id)
       ON CONFLICT (event_id) DO NOTHING`,
      [
        events.map((e) => e.eventId),
        events.map((e) => e.data.company_id),
        events.map((e) => e.type),
        moves.map((m) => m.delta),
        events.map((e) => e.data.amount.currency),
        moves.map((m) => m.locator),
        moves.map((m) => m.comment),
        events.map((e) => e.metadata.actor.user_id),
        events.map((e) => e.recordedAt.toISOString()),
      ],
    );
  },
});
