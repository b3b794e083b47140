import { Group, Input, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "./travel/date-field.tsx";

/** "HH:MM" or "HH:MM:SS" on a 24-hour clock, as typed. */
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * A moment typed as the site writes dates (DD.MM.YYYY, whatever the browser's own locale) and a 24-hour time; the
 * value is a local "YYYY-MM-DDTHH:MM[:SS]" (as a datetime-local field gives it) or "" when no date is given. A time
 * that does not read as one is passed on as typed, for the form's check to name.
 */
export function DateTimeField({
  label,
  value,
  onChange,
  error,
  size = "xs",
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  size?: "xs" | "sm";
}) {
  const { t } = useTranslation();
  const [date, time] = value ? [value.slice(0, 10), value.slice(11)] : [null, ""];
  const [typedTime, setTypedTime] = useState(time);
  const [shownTime, setShownTime] = useState(time);
  if (shownTime !== time) {
    setShownTime(time);
    setTypedTime(time);
  }
  const emit = (day: string | null, clock: string) => {
    if (!day) return onChange("");
    const match = TIME.exec(clock.trim());
    const normal = match
      ? `${match[1]?.padStart(2, "0")}:${match[2]}${match[3] ? `:${match[3]}` : ""}`
      : clock.trim() || "00:00";
    onChange(`${day}T${normal}`);
  };
  return (
    <Input.Wrapper label={label} error={error} size={size}>
      <Group gap={4} wrap="nowrap">
        <DateField
          size={size}
          w={130}
          aria-label={label}
          clearable
          value={date}
          error={Boolean(error)}
          onChange={(day) => emit(day, typedTime)}
        />
        <TextInput
          size={size}
          w={90}
          aria-label={t("date_time.time", { label })}
          placeholder={t("date_time.time_placeholder")}
          value={typedTime}
          error={Boolean(error)}
          onChange={(event) => {
            setTypedTime(event.currentTarget.value);
            emit(date, event.currentTarget.value);
          }}
        />
      </Group>
    </Input.Wrapper>
  );
}
