import "@mantine/dates/styles.css";
import { Calendar, type CalendarLevel, DatesProvider } from "@mantine/dates";
import dayjs from "dayjs";
import "dayjs/locale/en-gb";
import "dayjs/locale/es";
import "dayjs/locale/fr";
import "dayjs/locale/pl";
import "dayjs/locale/uk";
import type { MantineSize, TextInputProps } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSiteLanguage } from "../../lib/i18n.ts";

const DAYJS_LOCALES = { en: "en-gb", ua: "uk", pl: "pl", fr: "fr", es: "es" } as const;

/** The date field's calendar: its own chunk, loaded when a field first opens (search's first load stays small). */
export default function DateCalendar({
  value,
  minDate,
  maxDate,
  defaultLevel,
  size,
  onPick,
  allowDeselect,
}: {
  value: string | null;
  minDate?: string | undefined;
  maxDate?: string | undefined;
  defaultLevel?: CalendarLevel | undefined;
  size?: TextInputProps["size"];
  onPick: (day: string | null) => void;
  allowDeselect: boolean;
}) {
  const { t } = useTranslation("common");
  const language = useSiteLanguage();
  // The month shown follows a typed date, as Mantine's DateInput does.
  const [date, setDate] = useState<string | undefined>(value ?? undefined);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (value) setDate(value);
  }
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALES[language], firstDayOfWeek: 1 }}>
      <Calendar
        __staticSelector="DateInput"
        __preventFocus
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
        minDate={minDate}
        maxDate={maxDate}
        defaultLevel={defaultLevel}
        // The field's sizes are Mantine's named ones (xs…xl), which the calendar takes too.
        size={size as MantineSize | undefined}
        date={date}
        onDateChange={setDate}
        getDayProps={(day) => {
          const selected = value !== null && dayjs(value).isSame(day, "day");
          return { selected, onClick: () => onPick(allowDeselect && selected ? null : day) };
        }}
      />
    </DatesProvider>
  );
}
