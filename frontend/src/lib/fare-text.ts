import type { Cabin, FareFamilyCode, FareRuleSection } from "@skyward/contracts/offers";
import { useTranslation } from "react-i18next";
import { useFormats } from "../components/travel/use-formats.ts";

/**
 * Fare families and rule texts as suppliers send them (in English) read back in the interface language. Only the
 * wording we know (the brand names "<Cabin> <Family>" and the rule sentences our supplier files) is translated;
 * anything else is shown as sent, so a new brand or a changed rule is never hidden or guessed.
 */
const CABIN_WORDS: Record<Cabin, string> = {
  economy: "Economy",
  premium_economy: "Premium",
  business: "Business",
  first: "First",
};
const FAMILY_WORDS: Record<FareFamilyCode, string> = { light: "Light", standard: "Standard", flex: "Flex" };

const SECTION_TITLES = {
  5: "Reservations and ticketing",
  16: "Penalties",
  19: "Children and infants",
  31: "Voluntary changes",
  33: "Voluntary refunds",
} as const;
type SectionKey = `${keyof typeof SECTION_TITLES}`;

const SENTENCES = {
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
type SentenceKey = keyof typeof SENTENCES;
const SENTENCE_BY_TEXT = new Map(Object.entries(SENTENCES).map(([k, v]) => [v, k as SentenceKey]));

const ACTIONS = {
  change_before: "Changes before departure",
  change_after: "Changes after departure",
  refund_before: "Refunds before departure",
  refund_after: "Refunds after departure",
  date_change_before: "Date changes on the same route before departure",
  refund_partly_flown: "Refunds of partly flown tickets, prorated by distance,",
} as const;
type ActionKey = keyof typeof ACTIONS;
const ACTION_BY_TEXT = new Map(Object.entries(ACTIONS).map(([k, v]) => [v, k as ActionKey]));

/** "Changes before departure for 50.00 EUR per passenger." and its free / not permitted forms. */
const OUTCOME = /^(.+?) (?:(free of charge)|for (\d+)\.(\d{2}) ([A-Z]{3}) per passenger|(not permitted))\.$/;

/** Sentences end at a full stop before a space; "50.00 EUR" has none. */
const sentencesOf = (text: string) => text.split(/(?<=\.)\s+/).filter(Boolean);

export function useFareText() {
  const { t } = useTranslation("fares");
  const formats = useFormats();

  /** "Economy Light" → "Економ Лайт"; a brand the supplier named otherwise is shown as sent. */
  const brand = (fare: { brand_name: string; family: FareFamilyCode; cabin?: Cabin }): string => {
    const cabins = fare.cabin ? [fare.cabin] : (Object.keys(CABIN_WORDS) as Cabin[]);
    const cabin = cabins.find((c) => fare.brand_name === `${CABIN_WORDS[c]} ${FAMILY_WORDS[fare.family]}`);
    if (!cabin) return fare.brand_name;
    return t("brand", { cabin: t(`cabins.${cabin}`), family: t(`families.${fare.family}`) });
  };

  /** A rule section's title by its ATPCO category, when it is the standard one; else as sent. */
  const sectionTitle = (section: FareRuleSection): string => {
    const key = String(section.category) as SectionKey;
    return SECTION_TITLES[section.category as keyof typeof SECTION_TITLES] === section.title
      ? t(`sections.${key}`)
      : section.title;
  };

  /** A rule text sentence by sentence; if any sentence is one we do not know, the whole text as sent. */
  const sectionText = (text: string): string => {
    const out: string[] = [];
    for (const sentence of sentencesOf(text)) {
      const fixed = SENTENCE_BY_TEXT.get(sentence as (typeof SENTENCES)[SentenceKey]);
      if (fixed) {
        out.push(t(`sentences.${fixed}`));
        continue;
      }
      const m = OUTCOME.exec(sentence);
      const actionKey = m ? ACTION_BY_TEXT.get(m[1] as (typeof ACTIONS)[ActionKey]) : undefined;
      if (!m || !actionKey) return text;
      const action = t(`actions.${actionKey}`);
      if (m[2]) out.push(t("outcome.free", { action }));
      else if (m[6]) out.push(t("outcome.not_permitted", { action }));
      else
        out.push(
          t("outcome.fee", {
            action,
            amount: formats.money({ amount: Number(m[3]) * 100 + Number(m[4]), currency: m[5] as string }),
          }),
        );
    }
    return out.join(" ");
  };

  return { brand, sectionTitle, sectionText };
}
