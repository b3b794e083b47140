import type { Cabin, FareFamilyCode } from "./offers.ts";

/**
 * The English wording suppliers use for fare brands and rule texts, read into parts the interface can say in the
 * user's language. A text with any sentence not listed here is shown as sent (never half translated, never guessed).
 * The sandbox supplier's rules are checked against it (command-service sandbox fare-wording.test.ts).
 */
export const BRAND_CABIN_WORDS: Readonly<Record<Cabin, string>> = {
  economy: "Economy",
  premium_economy: "Premium",
  business: "Business",
  first: "First",
};
export const BRAND_FAMILY_WORDS: Readonly<Record<FareFamilyCode, string>> = {
  light: "Light",
  standard: "Standard",
  flex: "Flex",
};

/** The brand's cabin when the brand is the standard "<Cabin> <Family>", else null (a supplier's own brand). */
export function standardBrandCabin(fare: {
  brand_name: string;
  family: FareFamilyCode;
  cabin?: Cabin;
}): Cabin | null {
  const cabins = fare.cabin ? [fare.cabin] : (Object.keys(BRAND_CABIN_WORDS) as Cabin[]);
  return (
    cabins.find((c) => fare.brand_name === `${BRAND_CABIN_WORDS[c]} ${BRAND_FAMILY_WORDS[fare.family]}`) ??
    null
  );
}

/** ATPCO category → its standard title. */
export const RULE_SECTION_TITLES = {
  5: "Reservations and ticketing",
  16: "Penalties",
  19: "Children and infants",
  31: "Voluntary changes",
  33: "Voluntary refunds",
} as const;
export type RuleSectionKey = `${keyof typeof RULE_SECTION_TITLES}`;

export const RULE_SENTENCES = {
  ticket_hour: "Ticket within one hour of booking.",
  no_void: "Tickets cannot be voided.",
  ticket_time_limit: "Ticket by the booking's time limit.",
  void_same_day: "A ticket can be voided until the end of the day of issue.",
  children_adult_fare: "Children (2-11) pay the adult fare.",
  infants_flat_fee: "Infants (under 2, on an adult's lap) pay a flat fee.",
  children_75: "Children (2-11) pay 75% of the adult fare.",
  infants_10: "Infants (under 2, on an adult's lap) pay 10%.",
  fare_difference: "The fare difference is collected; a lower new fare leaves no residual.",
  taxes_refunded:
    "Unused government taxes and airport charges are refunded on request even when the fare is not.",
} as const;
export type RuleSentenceKey = keyof typeof RULE_SENTENCES;

export const RULE_ACTIONS = {
  change_before: "Changes before departure",
  change_after: "Changes after departure",
  refund_before: "Refunds before departure",
  refund_after: "Refunds after departure",
  date_change_before: "Date changes on the same route before departure",
  refund_partly_flown: "Refunds of partly flown tickets, prorated by distance,",
} as const;
export type RuleActionKey = keyof typeof RULE_ACTIONS;

export type RulePart =
  | { kind: "sentence"; key: RuleSentenceKey }
  | { kind: "free"; action: RuleActionKey }
  | { kind: "not_permitted"; action: RuleActionKey }
  | { kind: "fee"; action: RuleActionKey; amount: number; currency: string };

const sentenceByText = new Map<string, RuleSentenceKey>(
  Object.entries(RULE_SENTENCES).map(([k, v]) => [v, k as RuleSentenceKey]),
);
const actionByText = new Map<string, RuleActionKey>(
  Object.entries(RULE_ACTIONS).map(([k, v]) => [v, k as RuleActionKey]),
);
/** "Changes before departure for 50.00 EUR per passenger." and its free / not permitted forms. */
const OUTCOME = /^(.+?) (?:(free of charge)|for (\d+)\.(\d{2}) ([A-Z]{3}) per passenger|(not permitted))\.$/;

/** A rule text as known parts (amounts in minor units), or null when any sentence is not known wording. */
export function readRuleText(text: string): RulePart[] | null {
  const parts: RulePart[] = [];
  // Sentences end at a full stop before a space; "50.00 EUR" has none.
  for (const sentence of text.split(/(?<=\.)\s+/).filter(Boolean)) {
    const key = sentenceByText.get(sentence);
    if (key) {
      parts.push({ kind: "sentence", key });
      continue;
    }
    const m = OUTCOME.exec(sentence);
    const action = m ? actionByText.get(m[1] as string) : undefined;
    if (!m || !action) return null;
    if (m[2]) parts.push({ kind: "free", action });
    else if (m[6]) parts.push({ kind: "not_permitted", action });
    else
      parts.push({
        kind: "fee",
        action,
        amount: Number(m[3]) * 100 + Number(m[4]),
        currency: m[5] as string,
      });
  }
  return parts;
}
