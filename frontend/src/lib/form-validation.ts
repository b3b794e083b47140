import type { FormErrors } from "@mantine/form";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { isOneOf } from "./one-of.ts";

/**
 * A form's `validate` from a zod resolver of a schema whose messages are catalogue keys: the schema decides, and
 * `say` words each field's key (or the field itself) in the interface language, so the message follows the language.
 */
export function translatedValidation<Values>(
  resolve: (values: Values) => FormErrors,
  say: (key: string, field: string) => string,
) {
  return (values: Values): FormErrors =>
    Object.fromEntries(
      Object.entries(resolve(values)).map(([field, key]) => [field, say(String(key), field)]),
    );
}

/** Keys the booking form's catalogue words already (search `booking.errors`). */
const isBookingKey = isOneOf(["required", "email", "phone"] as const);
/** Keys of the form-errors catalogue. */
const isFormKey = isOneOf([
  "too_long",
  "date_time",
  "before_start",
  "range_too_long",
  "amount",
  "date",
  "adults",
  "children",
  "count",
  "carrier",
] as const);

/**
 * The words for a form schema's message keys (contracts' *-forms.ts): `max` is the length a `too_long` field allows,
 * `days` the longest range a `range_too_long` one does.
 * Anything else is already words (a server's detail) and is shown as it is.
 */
export function useFormErrorWords({ max, days }: { max?: number; days?: number } = {}) {
  const { t: tBooking } = useTranslation("search");
  const { t } = useTranslation("form-errors");
  // The same function while the language stays: a form's `validate` built on it keeps the form's setters stable.
  return useCallback(
    (key: string) =>
      isBookingKey(key) ? tBooking(`booking.errors.${key}`) : isFormKey(key) ? t(key, { max, days }) : key,
    [t, tBooking, max, days],
  );
}
