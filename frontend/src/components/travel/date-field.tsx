import { Input, Loader, Popover, TextInput, type TextInputProps } from "@mantine/core";
import type { CalendarLevel } from "@mantine/dates";
import { IconCalendar } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useEscapeLayer } from "../ui/layers.ts";

// The calendar (Mantine's dates, dayjs and its locales) loads when a field first opens or takes the focus.
const loadCalendar = () => import("./date-calendar.tsx");
const DateCalendar = lazy(loadCalendar);

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

/** "YYYY-MM-DD" as the field shows it, DD.MM.YYYY. */
const display = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}` : "";

export interface DateFieldProps extends Omit<TextInputProps, "value" | "defaultValue" | "onChange"> {
  value: string | null;
  onChange: (value: string | null) => void;
  minDate?: string | undefined;
  maxDate?: string | undefined;
  defaultLevel?: CalendarLevel | undefined;
  clearable?: boolean | undefined;
}

/**
 * A date typed as DD.MM.YYYY or picked from a calendar; the value is "YYYY-MM-DD" or null. Behaves as Mantine's
 * DateInput (opens on focus and click, Escape closes, the text settles on blur), with the calendar loaded lazily.
 */
export function DateField({
  value,
  onChange,
  minDate,
  maxDate,
  defaultLevel,
  clearable = false,
  size,
  disabled,
  readOnly,
  onFocus,
  onBlur,
  onClick,
  onKeyDown,
  ...rest
}: DateFieldProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // The open calendar is the innermost layer: Escape closes it, not the dialog or drawer it sits in.
  useEscapeLayer(opened, () => setOpened(false));
  const [text, setText] = useState(display(value));
  // A value set from outside (a reset, a swap, a pick) shows at once unless the agent is typing.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (!opened) setText(display(value));
  }
  const open = () => {
    void loadCalendar().catch(() => undefined); // the dropdown shows a loader until it arrives, and retries
    setOpened(true);
  };
  const inRange = (iso: string) => (!minDate || iso >= minDate) && (!maxDate || iso <= maxDate);
  const pick = (day: string | null) => {
    onChange(day);
    setText(display(day));
    setOpened(false);
  };
  return (
    <Popover
      opened={opened}
      onDismiss={() => setOpened(false)}
      trapFocus={false}
      position="bottom-start"
      disabled={readOnly || disabled}
      withRoles={false}
      withinPortal
    >
      <Popover.Target>
        <TextInput
          autoComplete="off"
          placeholder="DD.MM.YYYY"
          leftSection={<IconCalendar size={15} />}
          rightSection={
            clearable && value && !readOnly && !disabled ? (
              <Input.ClearButton aria-label={t("date_time.clear")} onClick={() => pick(null)} />
            ) : undefined
          }
          size={size}
          disabled={disabled}
          readOnly={readOnly}
          {...rest}
          value={text}
          onChange={(event) => {
            const typed = event.currentTarget.value;
            setText(typed);
            setOpened(true);
            if (typed.trim() === "" && clearable) return onChange(null);
            const parsed = parseTypedDate(typed);
            if (parsed && inRange(parsed)) onChange(parsed);
          }}
          onFocus={(event) => {
            onFocus?.(event);
            open();
          }}
          onClick={(event) => {
            onClick?.(event);
            open();
          }}
          onBlur={(event) => {
            onBlur?.(event);
            setOpened(false);
            setText(display(value));
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape") setOpened(false);
            onKeyDown?.(event);
          }}
        />
      </Popover.Target>
      <Popover.Dropdown onMouseDown={(event) => event.preventDefault()} data-dates-dropdown>
        <Suspense fallback={<Loader size="sm" m="md" />}>
          <DateCalendar
            value={value}
            minDate={minDate}
            maxDate={maxDate}
            defaultLevel={defaultLevel}
            size={size}
            onPick={pick}
            allowDeselect={clearable}
          />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
