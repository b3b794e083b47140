import { DateInput, type DateInputProps, DatesProvider } from "@mantine/dates";
import "dayjs/locale/en-gb";
import "dayjs/locale/es";
import "dayjs/locale/fr";
import "dayjs/locale/pl";
import "dayjs/locale/uk";
import { IconCalendar } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSiteLanguage } from "../../lib/i18n.ts";

const DAYJS_LOCALES = { en: "en-gb", ua: "uk", pl: "pl", fr: "fr", es: "es" } as const;

/** Calendars in the interface language, weeks from Monday. */
export function TravelDatesProvider({ children }: { children: ReactNode }) {
  const language = useSiteLanguage();
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALES[language], firstDayOfWeek: 1 }}>
      {children}
    </DatesProvider>
  );
}

const valid = (year: number, month: number, day: number): string | null => {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return date.toISOString().slice(0, 10);
};

/** What agents type: 12.04.1985, 12/04/1985, 12-04-1985 or 1985-04-12. */
export function parseTypedDate(text: string): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(trimmed);
  if (dmy) return valid(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]));
  return null;
}

/** A date typed as DD.MM.YYYY or picked from a calendar; the value is "YYYY-MM-DD" or null. */
export function DateField(props: Omit<DateInputProps, "valueFormat" | "dateParser">) {
  const { t } = useTranslation("common");
  return (
    <DateInput
      // The calendar's arrow and level buttons are icons only: these give them names.
      ariaLabels={{
        nextMonth: t("calendar.next_month"),
        previousMonth: t("calendar.previous_month"),
        nextYear: t("calendar.next_year"),
        previousYear: t("calendar.previous_year"),
        nextDecade: t("calendar.next_decade"),
        previousDecade: t("calendar.previous_decade"),
        monthLevelControl: t("calendar.month_level"),
        yearLevelControl: t("calendar.year_level"),
      }}
      valueFormat="DD.MM.YYYY"
      dateParser={parseTypedDate}
      placeholder="DD.MM.YYYY"
      leftSection={<IconCalendar size={15} />}
      popoverProps={{ withinPortal: true }}
      {...props}
    />
  );
}
