import { z } from "zod";
import { Currency } from "./money.ts";

/** Where a call to sell comes from; each ticketing channel can be switched off per source. */
export const ChannelSource = z.enum(["api", "web", "extension"]);
export type ChannelSource = z.infer<typeof ChannelSource>;

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
  /** A channel opened by an administrator starts switched off until enabled; absent (seeded channels): on. */
  active_by_admin: z.boolean().optional(),
});
export type ChannelCreated = z.infer<typeof ChannelCreated>;
/** A switch of the channel: by an administrator, by the agency's supervisor, or the credential check's outcome. */
export const ChannelSwitched = z.object({ active: z.boolean() });
export type ChannelSwitched = z.infer<typeof ChannelSwitched>;
export const ChannelSourceToggled = z.object({ source: ChannelSource, active: z.boolean() });
/** The channel switched on or off for one company of its agency. */
export const ChannelCompanyToggled = z.object({ company_id: z.string(), active: z.boolean() });
export const FormOfPayment = z.enum(["balance", "card"]);
export type FormOfPayment = z.infer<typeof FormOfPayment>;
export const ChannelFormOfPaymentSet = z.object({ form_of_payment: FormOfPayment, previous: FormOfPayment });
/** The card tickets of the channel are paid with; the vault token travels with it so issue needs no other read. */
export const ChannelTicketingCardSet = z.object({
  credit_card_id: z.string().nullable(),
  token: z.string().nullable(),
  previous: z.string().nullable(),
});
export const ChannelCodeSet = z.object({ code: z.string().nullable(), previous: z.string().nullable() });
export const ChannelCardLinked = z.object({ credit_card_id: z.string() });
export type ChannelSourceToggled = z.infer<typeof ChannelSourceToggled>;
export type ChannelCompanyToggled = z.infer<typeof ChannelCompanyToggled>;
export type ChannelFormOfPaymentSet = z.infer<typeof ChannelFormOfPaymentSet>;
export type ChannelTicketingCardSet = z.infer<typeof ChannelTicketingCardSet>;
export type ChannelCodeSet = z.infer<typeof ChannelCodeSet>;

/** Every event of a channel stream (`channel-{id}`), told apart by `type`. Credentials never appear here. */
export const ChannelEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ChannelCreated"), data: ChannelCreated }),
  z.object({ type: z.literal("ChannelToggledByAdmin"), data: ChannelSwitched }),
  z.object({ type: z.literal("ChannelToggledBySupervisor"), data: ChannelSwitched }),
  z.object({
    type: z.literal("ChannelCredentialChecked"),
    data: ChannelSwitched.extend({ previous: z.boolean().optional() }),
  }),
  /** New credentials were stored (encrypted, outside the event store); their check follows. */
  z.object({ type: z.literal("ChannelCredentialsReplaced"), data: z.object({}) }),
  z.object({ type: z.literal("ChannelSourceToggled"), data: ChannelSourceToggled }),
  z.object({ type: z.literal("ChannelCompanyToggled"), data: ChannelCompanyToggled }),
  z.object({ type: z.literal("ChannelFormOfPaymentSet"), data: ChannelFormOfPaymentSet }),
  z.object({ type: z.literal("ChannelTicketingCardSet"), data: ChannelTicketingCardSet }),
  z.object({ type: z.literal("ChannelNegoCodeSet"), data: ChannelCodeSet }),
  z.object({ type: z.literal("ChannelResidentFaresCodeSet"), data: ChannelCodeSet }),
  z.object({ type: z.literal("ChannelCardAttached"), data: ChannelCardLinked }),
  z.object({ type: z.literal("ChannelCardDetached"), data: ChannelCardLinked }),
  z.object({ type: z.literal("ChannelDeleted"), data: z.object({}) }),
]);
export type ChannelEvent = z.infer<typeof ChannelEvent>;
export const CHANNEL_EVENT_TYPES = ChannelEvent.options.map((o) => o.shape.type.value);

/**
 * The global gates: main (all selling), consolidator (every partner agency: `PATCH /ticketing/agency_gate`) and
 * channel (every ticketing channel: `PATCH /ticketing/channel_gate`).
 */
export const GateName = z.enum(["main", "consolidator", "channel"]);
export const GateToggled = z.object({ gate: GateName, active: z.boolean() });
export type GateName = z.infer<typeof GateName>;
export type GateToggled = z.infer<typeof GateToggled>;

/** Every event of the global gates stream (`ticketing-gates`). */
export const GateEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("GateToggled"), data: GateToggled }),
]);
export type GateEvent = z.infer<typeof GateEvent>;
