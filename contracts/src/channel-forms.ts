import type { z } from "zod";
import { ChannelSettingsFields } from "./ticketing-commands.ts";

/**
 * A channel's settings as its form holds them: UpdateChannelRequest's fields (its output is such a request), all
 * given, with the server's rule that paying by card needs the card that pays (card_required). Messages are the
 * fields' hint keys.
 */
export const ChannelSettingsForm = ChannelSettingsFields.pick({
  form_of_payment: true,
  ticketing_credit_card_id: true,
  nego_code: true,
  resident_fares_code: true,
})
  .required()
  .refine((v) => v.form_of_payment !== "card" || v.ticketing_credit_card_id !== null, {
    path: ["ticketing_credit_card_id"],
    error: "card_required",
  });
export type ChannelSettingsValues = z.input<typeof ChannelSettingsForm>;
