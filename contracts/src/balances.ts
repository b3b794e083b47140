import { z } from "zod";
import { Money } from "./money.ts";

/** A company's prepaid balance; tickets are paid from it. Stream `balance-{company_id}`. */
export const BalanceToppedUp = z.object({
  company_id: z.string(),
  amount: Money,
  comment: z.string().max(500),
});
export const BalanceCharged = z.object({
  company_id: z.string(),
  amount: Money,
  locator: z.string(),
  reason: z.string(),
  /** The booking's supplier operation that moved it (absent on events written before it was recorded here). */
  operation_id: z.string().optional(),
});
export const BalanceCredited = z.object({
  company_id: z.string(),
  amount: Money,
  locator: z.string(),
  reason: z.string(),
  operation_id: z.string().optional(),
});
/** An administrator's correction with its reason: a signed amount, never zero. */
export const BalanceCorrected = z.object({
  company_id: z.string(),
  amount: Money,
  reason: z.string().min(1).max(500),
});
/** How far below zero the company may go (the agency works on credit); zero for a prepaid company. */
export const BalanceCreditLimitSet = z.object({ company_id: z.string(), credit_limit: Money });
/** The company was deleted: nothing moves on its balance any more. */
export const BalanceClosed = z.object({ company_id: z.string() });
export type BalanceToppedUp = z.infer<typeof BalanceToppedUp>;
export type BalanceCorrected = z.infer<typeof BalanceCorrected>;
export type BalanceCreditLimitSet = z.infer<typeof BalanceCreditLimitSet>;
export type BalanceCharged = z.infer<typeof BalanceCharged>;
export type BalanceCredited = z.infer<typeof BalanceCredited>;

/** Every event of a balance stream, told apart by `type`. */
export const BalanceEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("BalanceToppedUp"), data: BalanceToppedUp }),
  z.object({ type: z.literal("BalanceCharged"), data: BalanceCharged }),
  z.object({ type: z.literal("BalanceCredited"), data: BalanceCredited }),
  z.object({ type: z.literal("BalanceCorrected"), data: BalanceCorrected }),
  z.object({ type: z.literal("BalanceCreditLimitSet"), data: BalanceCreditLimitSet }),
  z.object({ type: z.literal("BalanceClosed"), data: BalanceClosed }),
]);
export type BalanceEvent = z.infer<typeof BalanceEvent>;
export type BalanceEventType = BalanceEvent["type"];
export const BALANCE_EVENT_TYPES = BalanceEvent.options.map((o) => o.shape.type.value);

export const BalanceRow = z.object({
  company_id: z.string(),
  company_name: z.string(),
  balance_amount: Money,
  /** How far below zero the balance may go (zero for a prepaid company). */
  credit_limit: Money.optional(),
});
export type BalanceRow = z.infer<typeof BalanceRow>;
/** `GET /balances` answers the balances of the companies the caller may see. */
export const BalancesResponse = z.object({ data: z.array(BalanceRow) });
export type BalancesResponse = z.infer<typeof BalancesResponse>;

/** What moved a balance, as the balance history names it. */
export const BalanceMovementKind = z.enum(["top_up", "correction", "charge", "credit", "refund", "exchange"]);
export type BalanceMovementKind = z.infer<typeof BalanceMovementKind>;

/** One line of the balance history administrators review: a movement, its cause, author and the balance after it. */
export const BalanceHistoryRow = z.object({
  /** The event it was read from. */
  event_id: z.string(),
  position: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  kind: BalanceMovementKind,
  /** Signed: positive adds to the balance. */
  amount: Money,
  balance_after: Money,
  locator: z.string().nullable(),
  operation_id: z.string().nullable(),
  reason: z.string().nullable(),
  actor: z.object({ user_id: z.string().nullable(), role: z.string(), name: z.string().nullable() }),
  at: z.string(),
  /** Where this line alone is read (GET /balance_history/{event_id}). */
  link: z.string(),
});
export type BalanceHistoryRow = z.infer<typeof BalanceHistoryRow>;
/** `GET /balance_history` answers a page of movements. */
export const BalanceHistoryResponse = z.object({
  data: z.array(BalanceHistoryRow),
  meta: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() }),
});
export type BalanceHistoryResponse = z.infer<typeof BalanceHistoryResponse>;
/** `GET /balance_history/{event_id}` answers one movement. */
export const BalanceMovementResponse = z.object({ data: BalanceHistoryRow });
export type BalanceMovementResponse = z.infer<typeof BalanceMovementResponse>;

const IsoDate = z.iso.date();
/** GET /balance_history filters: company, period (inclusive days, UTC), kinds; newest first, paged. */
export const BalanceHistoryQuery = z.object({
  company_id: z.string().max(100).optional(),
  date_from: IsoDate.optional(),
  date_to: IsoDate.optional(),
  kind: z
    .union([BalanceMovementKind, z.array(BalanceMovementKind).max(6)])
    .transform((k) => (Array.isArray(k) ? k : [k]))
    .optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
});
export type BalanceHistoryQuery = z.infer<typeof BalanceHistoryQuery>;

const MinorUnits = z.number().int().min(-1e13).max(1e13);

/** POST /transactions: a top-up, or a signed correction, of a company balance by an administrator. */
export const TransactionRequest = z.preprocess(
  // `comment` is the top-up's own word for its reason.
  (body) =>
    body && typeof body === "object" && !("reason" in body) && "comment" in body
      ? { ...body, reason: (body as { comment: unknown }).comment }
      : body,
  z.object({
    company_id: z.string().min(1).max(100),
    kind: z.enum(["top_up", "correction"]).default("top_up"),
    /** Minor units; a bare number is in the company's currency. A top-up is positive, a correction not zero. */
    amount: z.union([
      z.object({
        amount: MinorUnits,
        currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code"),
      }),
      MinorUnits,
    ]),
    reason: z.string().trim().min(1).max(500),
  }),
);
export type TransactionRequest = z.infer<typeof TransactionRequest>;

/** PUT /companies/{id}/credit_limit. */
export const CreditLimitRequest = z.object({
  credit_limit: z.union([
    z.object({ amount: MinorUnits.min(0), currency: z.string().max(3) }),
    MinorUnits.min(0),
  ]),
});

/** `POST /transactions` and `PUT /companies/{id}/credit_limit` answer the company balance after them. */
export const BalanceCommandResponse = z.object({
  /** Null while the company's balance has never moved. */
  balance_amount: Money.nullable(),
  /** Without a currency while the balance has never moved (the limit is in the company's currency). */
  credit_limit: z.object({ amount: z.number().int(), currency: z.string().optional() }).nullable(),
  position: z.string().nullable(),
});
export type BalanceCommandResponse = z.infer<typeof BalanceCommandResponse>;

/** The one field the balance history reads from a booking event that moves money: its supplier operation. */
export const OperationOf = z.object({ operation_id: z.string() });
