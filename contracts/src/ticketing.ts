import { z } from "zod";
import { Currency } from "./money.ts";

/** A ticketing channel: a supplier connection with credentials, owned by an agency. */
export const ChannelCreated = z.object({
  channel_id: z.string(),
  agency_id: z.string(),
  title: z.string().min(1).max(200),
  supplier: z.literal("sandbox"),
  currency: Currency,
  form_of_payment: z.enum(["balance", "card"]),
  /** Hours after issue during which a ticket may be voided, capped at the end of the issue day (UTC). */
  void_window_hours: z.number().int().min(0).max(48),
  credential_active: z.boolean(),
  sources: z.object({ web: z.boolean(), api: z.boolean(), extension: z.boolean() }),
});
export type ChannelCreated = z.infer<typeof ChannelCreated>;

export const GateName = z.enum(["main", "consolidator"]);
export const GateToggled = z.object({ gate: GateName, active: z.boolean() });
