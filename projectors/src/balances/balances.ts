import { StatementBatch } from "@skyward/infra/db";
import { defineProjection } from "@skyward/infra/projections/projection";

const SIGN: Record<string, number> = { BalanceToppedUp: 1, BalanceCredited: 1, BalanceCharged: -1 };

/** Each company's balance now, and every movement with the balance after it. */
export const balances = defineProjection({
  name: "balances",
  version: 1,
  eventTypes: Object.keys(SIGN),
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
  async apply(client, events, t) {
    // One statement per movement (the balance and its history line together), all in one round trip.
    const batch = new StatementBatch();
    for (const e of events) {
      const d = e.data as {
        company_id: string;
        amount: { amount: number; currency: string };
        locator?: string;
        comment?: string;
      };
      const delta = (SIGN[e.type] ?? 0) * d.amount.amount;
      batch.add(
        `WITH balance AS (
           INSERT INTO ${t.company_balances} (company_id, amount, currency, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (company_id) DO UPDATE SET amount = ${t.company_balances}.amount + $2, updated_at = $4
           RETURNING amount
         )
         INSERT INTO ${t.balance_history} (event_id, company_id, kind, amount, currency, balance_after, locator,
           comment, actor_id, at)
         SELECT $5, $1, $6, $2, $3, balance.amount, $7, $8, $9, $4 FROM balance
         ON CONFLICT (event_id) DO NOTHING`,
        [
          d.company_id,
          delta,
          d.amount.currency,
          e.recordedAt,
          e.eventId,
          e.type,
          d.locator ?? null,
          d.comment ?? null,
          e.metadata.actor.user_id,
        ],
      );
    }
    await batch.run(client);
  },
});
