import { z } from "zod";
import { TicketDownloadQuery, TicketFilter } from "./sales.ts";

/**
 * The sales screen's ticket filter as the form holds it (dates from the date fields, null when cleared), held to the
 * contract's TicketFilter. Each issue's message is a catalogue key (form-errors): `too_long`, `before_start`,
 * `range_too_long`.
 */
export const SalesFiltersForm = z
  .object({
    text: z.string().refine((text) => TicketFilter.shape.text.safeParse(text).success, { error: "too_long" }),
    date_from: z.string().nullable(),
    date_to: z.string().nullable(),
  })
  .superRefine(({ date_from, date_to }, context) => {
    const range = TicketFilter.safeParse({
      date_from: date_from ?? undefined,
      date_to: date_to ?? undefined,
    });
    if (range.success || !date_from || !date_to) return;
    // The contract refuses the end only: before the start, or too far after it.
    const message = date_to < date_from ? "before_start" : "range_too_long";
    context.addIssue({ code: "custom", path: ["date_to"], message });
  });
export type SalesFiltersValues = z.input<typeof SalesFiltersForm>;

const CustomPrices = TicketDownloadQuery.shape.custom_prices.unwrap();

/**
 * The receipt's own prices as typed in major units (a number input gives "" when empty), for a currency of `unit`
 * minor units to the major one; parses to the contract's `custom_prices` (the fare required, taxes and fees 0 when
 * empty). Messages are keys: `required`, `amount` (form-errors).
 */
export const receiptPricesForm = (unit: number) => {
  const amount = (required: boolean) =>
    z
      .union([z.number(), z.string()])
      .refine((typed) => !required || typed !== "", { error: "required", abort: true })
      .transform((typed) => (typed === "" ? 0 : Math.round(Number(typed) * unit)))
      .refine((minor) => CustomPrices.shape.fare.safeParse(minor).success, { error: "amount" });
  return z.object({ fare: amount(true), taxes: amount(false), fees: amount(false) });
};
export type ReceiptPricesValues = z.input<ReturnType<typeof receiptPricesForm>>;
