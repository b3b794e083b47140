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
/** A switch of the channel: by an administrator, by the agency's supervisor, or the credential check's outcome. */
export const ChannelSwitched = z.object({ active: z.boolean() });
export type ChannelSwitched = z.infer<typeof ChannelSwitched>;

/** Every event of a channel stream (`channel-{id}`), told apart by `type`. */
export const ChannelEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ChannelCreated"), data: ChannelCreated }),
  z.object({ type: z.literal("ChannelToggledByAdmin"), data: ChannelSwitched }),
  z.object({ type: z.literal("ChannelToggledBySupervisor"), data: ChannelSwitched }),
  z.object({ type: z.literal("ChannelCredentialChecked"), data: ChannelSwitched }),
  z.object({ type: z.literal("ChannelDeleted"), data: z.object({}) }),
]);
export type ChannelEvent = z.infer<typeof ChannelEvent>;
export const CHANNEL_EVENT_TYPES = ChannelEvent.options.map((o) => o.shape.type.value);

export const GateName = z.enum(["main", "consolidator"]);
export const GateToggled = z.object({ gate: GateName, active: z.boolean() });
export type GateName = z.infer<typeof GateName>;
export type GateToggled = z.infer<typeof GateToggled>;

/** Every event of the global gates stream (`ticketing-gates`): the main and the consolidator gate. */
export const GateEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("GateToggled"), data: GateToggled }),
]);
export type GateEvent = z.infer<typeof GateEvent>;
