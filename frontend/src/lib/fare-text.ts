import {
  BRAND_FAMILY_WORDS,
  RULE_SECTION_TITLES,
  type RuleSectionKey,
  readRuleText,
  standardBrandCabin,
} from "@skyward/contracts/fare-wording";
import type { Cabin, FareFamilyCode, FareRuleSection } from "@skyward/contracts/offers";
import { useTranslation } from "react-i18next";
import { useFormats } from "../components/travel/use-formats.ts";

/**
 * Fare families and rule texts as suppliers send them (in English) read back in the interface language. Only the
 * known wording (contracts/src/fare-wording.ts) is translated; anything else is shown as sent, so a new brand or a
 * changed rule is never hidden or guessed.
 */
export function useFareText() {
  const { t } = useTranslation("fares");
  const formats = useFormats();

  /**
   * "Economy Light" → "Економ Лайт"; a brand the supplier named otherwise is shown as sent. The brand's own cabin
   * word is read, whatever the fare's cabin (a mixed-cabin fare keeps its brand): never half translated.
   */
  const brand = (fare: { brand_name: string; family: FareFamilyCode; cabin?: Cabin }): string => {
    const cabin = standardBrandCabin({ brand_name: fare.brand_name, family: fare.family });
    if (!cabin) return fare.brand_name;
    return t("brand", { cabin: t(`cabins.${cabin}`), family: t(`families.${fare.family}`) });
  };

  /** A brand known only by its name (an exchange offer's): the standard "<Cabin> <Family>" read, else as sent. */
  const brandName = (name: string): string => {
    const family = (Object.keys(BRAND_FAMILY_WORDS) as FareFamilyCode[]).find((f) =>
      name.endsWith(` ${BRAND_FAMILY_WORDS[f]}`),
    );
    return family ? brand({ brand_name: name, family }) : name;
  };

  /** A rule section's title by its ATPCO category, when it is the standard one; else as sent. */
  const sectionTitle = (section: FareRuleSection): string =>
    RULE_SECTION_TITLES[section.category as keyof typeof RULE_SECTION_TITLES] === section.title
      ? t(`sections.${String(section.category) as RuleSectionKey}`)
      : section.title;

  /** A rule text sentence by sentence; if any sentence is not known wording, the whole text as sent. */
  const sectionText = (text: string): string => {
    const parts = readRuleText(text);
    if (!parts) return text;
    return parts
      .map((part) => {
        if (part.kind === "sentence") return t(`sentences.${part.key}`);
        const action = t(`actions.${part.action}`);
        if (part.kind === "free") return t("outcome.free", { action });
        if (part.kind === "not_permitted") return t("outcome.not_permitted", { action });
        return t("outcome.fee", {
          action,
          amount: formats.money({ amount: part.amount, currency: part.currency }),
        });
      })
      .join(" ");
  };

  return { brand, brandName, sectionTitle, sectionText };
}
