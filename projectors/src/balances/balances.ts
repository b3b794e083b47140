import {
  BALANCE_EVENT_TYPES,
  BalanceEvent,
  type BalanceMovementKind,
  OperationOf,
} from "@skyward/contracts/balances";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { defineProjection } from "@skyward/infra/projections/projection";

interface Movement {
  kind: BalanceMovementKind;
  delta: number;
  currency: string;
  locator: string | null;
  reason: string | null;
  /** Named by the balance event itself since it carries it; otherwise found from the booking event beside it. */
  operation_id: string | null;
}

/** What a charge or credit was for, as the booking side named it ("issue", "void", "refund", "exchange"...). */
const bookingKind = (reason: string, otherwise: "charge" | "credit"): BalanceMovementKind =>
  reason.includes("exchange") ? "exchange" : reason.includes("refund") ? "refund" : otherwise;

/** A movement as the history shows it (signed amount, kind, cause), or null for a setting of the balance. */
function movement(event: BalanceEvent): Movement | null {
  switch (event.type) {
    case "BalanceToppedUp":
      return {
        kind: "top_up",
        delta: event.data.amount.amount,
        currency: event.data.amount.currency,
        locator: null,
        reason: event.data.comment,
        operation_id: null,
      };
    case "BalanceCorrected":
      return {
        kind: "correction",
        delta: event.data.amount.amount,
        currency: event.data.amount.currency,
        locator: null,
        reason: event.data.reason,
        operation_id: null,
      };
    case "BalanceCredited":
      return {
        kind: bookingKind(event.data.reason, "credit"),
        delta: event.data.amount.amount,
        currency: event.data.amount.currency,
        locator: event.data.locator,
        reason: event.data.reason,
        operation_id: event.data.operation_id ?? null,
      };
    case "BalanceCharged":
      return {
        kind: bookingKind(event.data.reason, "charge"),
        delta: -event.data.amount.amount,
        currency: event.data.amount.currency,
        locator: event.data.locator,
        reason: event.data.reason,
        operation_id: event.data.operation_id ?? null,
      };
    case "BalanceCreditLimitSet":
    case "BalanceClosed":
      return null;
    default:
      return unhandledEvent(event);
  }
}

/**
 * Booking events that move money in the same append as their balance event: they name the supplier operation a
 * history line belongs to (issue, void, refund, exchange, EMDs and their refunds).
 */
const OPERATION_EVENT_TYPES = [
  "TicketingStarted",
  "TicketingFailed",
  "BookingVoided",
  "TicketsRefunded",
  "ExchangeStarted",
  "ExchangeFailed",
  "AncillariesStarted",
  "AncillariesFailed",
  "EmdRefunded",
];

/**
 * Each company's balance now (with its credit limit), and every movement with its kind, booking, author, reason
 * and the balance after it: the balance history administrators review.
 */
export const balances = defineProjection({
  name: "balances",
  version: 3,
  eventTypes: [...BALANCE_EVENT_TYPES, ...OPERATION_EVENT_TYPES],
  tables: ["company_balances", "balance_history", "balance_operations"],
  setup: (t) => `
    CREATE TABLE ${t.company_balances} (
      company_id text PRIMARY KEY, amount bigint NOT NULL, currency text NOT NULL, updated_at timestamptz NOT NULL,
      credit_limit bigint NOT NULL DEFAULT 0, closed boolean NOT NULL DEFAULT false
    );
    CREATE TABLE ${t.balance_history} (
      event_id uuid PRIMARY KEY, position bigint NOT NULL, company_id text NOT NULL, kind text NOT NULL,
      amount bigint NOT NULL, currency text NOT NULL, balance_after bigint NOT NULL, locator text, reason text,
      operation_id text, actor_id text, actor_role text NOT NULL, at timestamptz NOT NULL, tx text NOT NULL
    );
    CREATE INDEX ON ${t.balance_history} (tx, locator) WHERE operation_id IS NULL;
    CREATE TABLE ${t.balance_operations} (
      tx text NOT NULL, locator text NOT NULL, operation_id text NOT NULL, PRIMARY KEY (tx, locator)
    );
    CREATE INDEX ON ${t.balance_history} (company_id, position DESC);
    CREATE INDEX ON ${t.balance_history} (position DESC);
  `,
  async apply(writer, stored, t) {
    // The booking events that name an operation: a movement of this batch finds its operation, a line of an earlier
    // batch gets it.
    const operations = stored
      .filter((e) => OPERATION_EVENT_TYPES.includes(e.type))
      .map((e) => ({
        tx: e.transactionId.toString(),
        locator: e.streamId.slice("booking-".length),
        operation_id: OperationOf.parse(e.data).operation_id,
      }));
    const parsed = stored
      .filter((e) => !OPERATION_EVENT_TYPES.includes(e.type))
      .map((e) => parseEvent(BalanceEvent, e));
    const events: ((typeof parsed)[number] & { move: Movement })[] = [];
    for (const e of parsed) {
      const move = movement(e);
      if (move) events.push({ ...e, move });
    }
    // Operations alone (a batch that moves no balance): recorded, and named on an earlier batch's lines.
    if (operations.length > 0 && events.length === 0)
      await writer.query(
        `WITH op AS (
           INSERT INTO ${t.balance_operations} (tx, locator, operation_id)
           SELECT tx, locator, operation_id FROM jsonb_to_recordset($1::jsonb) AS x(tx text, locator text, operation_id text)
           ON CONFLICT (tx, locator) DO NOTHING
         )
         UPDATE ${t.balance_history} h SET operation_id = x.operation_id
           FROM jsonb_to_recordset($1::jsonb) AS x(tx text, locator text, operation_id text)
          WHERE h.tx = x.tx AND h.locator = x.locator AND h.operation_id IS NULL`,
        [JSON.stringify(operations)],
      );
    const moves = events.map((e) => e.move);
    // One statement for the whole batch: its operations recorded (and named on an earlier batch's lines), each
    // company's balance moved once by the batch's sum, and every history line given the balance before the batch
    // plus the running sum of the company's movements up to it and its operation (an earlier batch's, else the first
    // of this one's, as when the operations were written first by a statement of their own: one statement a batch
    // less, issue 26); none when the batch moves no balance (only operations, or settings).
    if (events.length > 0)
      await writer.query(
        `WITH ops AS (
         SELECT DISTINCT ON (tx, locator) tx, locator, operation_id
           FROM unnest($14::text[], $15::text[], $16::text[]) WITH ORDINALITY AS o(tx, locator, operation_id, n)
          ORDER BY tx, locator, n
       ),
       op_rows AS (
         INSERT INTO ${t.balance_operations} (tx, locator, operation_id)
         SELECT tx, locator, operation_id FROM ops
         ON CONFLICT (tx, locator) DO NOTHING
       ),
       named AS (
         UPDATE ${t.balance_history} h SET operation_id = ops.operation_id FROM ops
          WHERE h.tx = ops.tx AND h.locator = ops.locator AND h.operation_id IS NULL
       ),
       movement AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                              $8::text[], $9::timestamptz[], $10::bigint[], $11::text[], $12::text[], $13::text[])
                  WITH ORDINALITY AS m(event_id, company_id, kind, delta, currency, locator, reason, actor_id, at,
                                       position, actor_role, tx, operation_id, n)
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
       INSERT INTO ${t.balance_history} (event_id, position, company_id, kind, amount, currency, balance_after,
         locator, reason, actor_id, actor_role, at, tx, operation_id)
       SELECT m.event_id, m.position, m.company_id, m.kind, m.delta, m.currency,
              coalesce(before.amount, 0) + sum(m.delta) OVER (PARTITION BY m.company_id ORDER BY m.n),
              m.locator, m.reason, m.actor_id, m.actor_role, m.at, m.tx,
              coalesce(m.operation_id, op.operation_id, bo.operation_id)
         FROM movement m LEFT JOIN before USING (company_id)
         LEFT JOIN ${t.balance_operations} op ON op.tx = m.tx AND op.locator = m.locator
         LEFT JOIN ops bo ON bo.tx = m.tx AND bo.locator = m.locator
       ON CONFLICT (event_id) DO NOTHING`,
        [
          events.map((e) => e.eventId),
          events.map((e) => e.data.company_id),
          moves.map((m) => m.kind),
          moves.map((m) => m.delta),
          moves.map((m) => m.currency),
          moves.map((m) => m.locator),
          moves.map((m) => m.reason),
          events.map((e) => e.metadata.actor.user_id),
          events.map((e) => e.recordedAt.toISOString()),
          events.map((e) => e.globalPosition.toString()),
          events.map((e) => e.metadata.actor.role),
          events.map((e) => e.transactionId.toString()),
          moves.map((m) => m.operation_id),
          operations.map((o) => o.tx),
          operations.map((o) => o.locator),
          operations.map((o) => o.operation_id),
        ],
      );
    // Settings of a balance after its movements: neither changes the amount.
    for (const e of parsed) {
      if (e.type === "BalanceCreditLimitSet")
        await writer.query(
          `INSERT INTO ${t.company_balances} AS b (company_id, amount, currency, updated_at, credit_limit)
           VALUES ($1, 0, $2, $3, $4)
           ON CONFLICT (company_id) DO UPDATE SET credit_limit = EXCLUDED.credit_limit, updated_at = EXCLUDED.updated_at`,
          [
            e.data.company_id,
            e.data.credit_limit.currency,
            e.recordedAt.toISOString(),
            e.data.credit_limit.amount,
          ],
        );
      if (e.type === "BalanceClosed")
        await writer.query(`UPDATE ${t.company_balances} SET closed = true WHERE company_id = $1`, [
          e.data.company_id,
        ]);
    }
  },
});
