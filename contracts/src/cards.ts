import { z } from "zod";

/** True when the digits pass the Luhn check every payment card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export const CardBrand = z.enum(["visa", "mastercard", "amex", "discover", "unionpay", "other"]);
export type CardBrand = z.infer<typeof CardBrand>;

/** The brand a card number's issuer prefix names (IIN ranges). */
export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  if (/^62/.test(digits)) return "unionpay";
  return "other";
}

/** A card number as typed (spaces and dashes allowed), reduced to its 12-19 digits and Luhn-checked. */
export const CardNumber = z
  .string()
  .max(40)
  .transform((v) => v.replace(/[\s-]/g, ""))
  .pipe(
    z
      .string()
      .regex(/^\d{12,19}$/, "must be 12 to 19 digits")
      .refine(luhnValid, "is not a valid card number"),
  );

const Holder = z.string().trim().min(2).max(100);
const ExpMonth = z.coerce.number().int().min(1).max(12);
/** Two-digit years are read as 20xx, as printed on cards. */
const ExpYear = z.coerce
  .number()
  .int()
  .min(0)
  .max(2100)
  .transform((y) => (y < 100 ? 2000 + y : y))
  .pipe(z.number().int().min(2000).max(2100));

const unwrap = (key: string) => (v: unknown) =>
  v && typeof v === "object" && key in v && typeof (v as Record<string, unknown>)[key] === "object"
    ? (v as Record<string, unknown>)[key]
    : v;

/** `POST /credit_cards/`: the number is handed to the card vault and never kept; agency_id for a partner's card. */
export const CreateCardRequest = z.preprocess(
  unwrap("credit_card"),
  z.object({
    number: CardNumber,
    exp_month: ExpMonth,
    exp_year: ExpYear,
    holder: Holder,
    agency_id: z.string().min(1).max(100).nullable().optional(),
  }),
);
export type CreateCardRequest = z.infer<typeof CreateCardRequest>;

/** `PATCH /credit_cards/{id}`: a renewed expiry or holder; a new number is a new card. */
export const UpdateCardRequest = z.preprocess(
  unwrap("credit_card"),
  z
    .object({ exp_month: ExpMonth.optional(), exp_year: ExpYear.optional(), holder: Holder.optional() })
    .refine((v) => Object.values(v).some((x) => x !== undefined), "give exp_month, exp_year or holder"),
);
export type UpdateCardRequest = z.infer<typeof UpdateCardRequest>;

/** What a card is known by after the vault took its number (PCI DSS: never the number itself). */
export const CardFacts = z.object({
  brand: CardBrand,
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(2000).max(2100),
  holder: z.string(),
});
export type CardFacts = z.infer<typeof CardFacts>;

/**
 * How a ticket or EMD was paid, as its claim recorded it: the company balance, or a card by its brand and last four
 * (never more of it).
 */
export const PaidBy = z.discriminatedUnion("method", [
  z.object({ method: z.literal("balance") }),
  z.object({
    method: z.literal("card"),
    card_id: z.string(),
    brand: CardBrand,
    last4: z.string().regex(/^\d{4}$/),
  }),
]);
export type PaidBy = z.infer<typeof PaidBy>;

const BRAND_NAMES: Record<CardBrand, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  unionpay: "UnionPay",
  other: "Card",
};

/** How a document was paid, for people: the language's word for the balance, or "Visa •••• 4242". */
export function paidByText(paid: PaidBy, balanceWord: string): string {
  return paid.method === "balance" ? balanceWord : `${BRAND_NAMES[paid.brand]} •••• ${paid.last4}`;
}

/** The channel's card as an issuing claim read it from the card's stream (null: it names none, or none exists). */
export const ClaimCard = CardFacts.omit({ holder: true }).extend({
  card_id: z.string(),
  status: z.enum(["active", "deleted"]),
});
export type ClaimCard = z.infer<typeof ClaimCard>;

/** What a claim that may charge pays with: the channel's form of payment and, for a card, the card as read. */
export const PaymentChoice = z.discriminatedUnion("method", [
  z.object({ method: z.literal("balance") }),
  z.object({ method: z.literal("card"), card: ClaimCard.nullable() }),
]);
export type PaymentChoice = z.infer<typeof PaymentChoice>;

export const CardRegistered = CardFacts.extend({
  card_id: z.string(),
  /** null: an administrators' card any agency's channel may use. */
  agency_id: z.string().nullable(),
  /** The card vault's token; charges go through it. */
  token: z.string().min(1).max(200),
});
export const CardUpdated = z.object({
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  holder: z.string(),
});
export const CardChannelLink = z.object({ channel_id: z.string() });
export type CardRegistered = z.infer<typeof CardRegistered>;
export type CardUpdated = z.infer<typeof CardUpdated>;

/** Every event of a card stream (`card-{id}`). */
export const CardEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("CardRegistered"), data: CardRegistered }),
  z.object({ type: z.literal("CardUpdated"), data: CardUpdated }),
  z.object({ type: z.literal("CardAttachedToChannel"), data: CardChannelLink }),
  z.object({ type: z.literal("CardDetachedFromChannel"), data: CardChannelLink }),
  z.object({ type: z.literal("CardDeleted"), data: z.object({}) }),
]);
export type CardEvent = z.infer<typeof CardEvent>;
export const CARD_EVENT_TYPES = CardEvent.options.map((o) => o.shape.type.value);

export const CardRow = CardFacts.extend({
  id: z.string(),
  agency_id: z.string().nullable(),
  channel_ids: z.array(z.string()),
  created_at: z.string(),
});
export type CardRow = z.infer<typeof CardRow>;
