import type { Money } from "@skyward/contracts/money";
import { useTranslation } from "react-i18next";
import {
  type DateStyle,
  durationParts,
  formatDay,
  formatFromNow,
  formatInstant,
} from "../../lib/date-format.ts";
import { useSiteLanguage } from "../../lib/i18n.ts";
import { formatMoney, formatNumber } from "../../lib/money.ts";

/** The formats of the travel screens in the interface language; re-renders the caller when it changes. */
export function useFormats() {
  const language = useSiteLanguage();
  const { t } = useTranslation("search");
  return {
    language,
    money: (money: Money, options?: { whole?: boolean }) => formatMoney(money, language, options),
    day: (isoDate: string, style?: DateStyle) => formatDay(isoDate, language, style),
    instant: (instant: string, options?: { seconds?: boolean }) => formatInstant(instant, language, options),
    number: (value: number) => formatNumber(value, language),
    fromNow: (instant: string) => formatFromNow(instant, language),
    duration: (minutes: number) => t("itinerary.duration", durationParts(minutes)),
  };
}
