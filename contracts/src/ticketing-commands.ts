import { z } from "zod";
import { CardFacts, CardRow } from "./cards.ts";
import { IsoDate } from "./offers.ts";
import { ChannelSource, FormOfPayment, GateName } from "./ticketing.ts";

/** Bodies may come flat or wrapped in their resource's name (`{channel: {...}}`), as the spec's forms send them. */
const unwrap =
  (...keys: string[]) =>
  (v: unknown) => {
    if (!v || typeof v !== "object") return v;
    for (const key of keys) {
      const inner = (v as Record<string, unknown>)[key];
      if (inner && typeof inner === "object" && !Array.isArray(inner)) return inner;
    }
    return v;
  };

const Id = z.string().trim().min(1).max(100);

/** `PATCH /ticketing/main_gate` and every other gate and switch: on or off. */
export const ToggleRequest = z.preprocess(unwrap("gate", "channel"), z.object({ active: z.boolean() }));
export type ToggleRequest = z.infer<typeof ToggleRequest>;

/** `PATCH /ticketing/source_channels/{channel}?type=api|web|extension`. */
export const SourceChannelQuery = z.object({ type: ChannelSource });

/** `POST /ticketing/agency_channels`: a channel of an agency, switched off until it is enabled. */
export const CreateChannelRequest = z.preprocess(
  unwrap("channel", "agency_channel"),
  z.object({ agency_id: Id, name: z.string().trim().min(1).max(200) }),
);
export type CreateChannelRequest = z.infer<typeof CreateChannelRequest>;

/** A negotiated-fare or resident-fare code; empty clears it. */
export const ChannelCode = z
  .string()
  .trim()
  .max(50)
  .regex(/^[A-Za-z0-9 _./-]*$/, "may hold letters, digits, spaces and _ . / -")
  .transform((v) => (v === "" ? null : v))
  .nullable();

/** A channel's settings, each optional: what an update may change. */
export const ChannelSettingsFields = z.object({
  on_by_admin: z.boolean().optional(),
  on_by_supervisor: z.boolean().optional(),
  form_of_payment: FormOfPayment.optional(),
  ticketing_credit_card_id: Id.nullable().optional(),
  nego_code: ChannelCode.optional(),
  resident_fares_code: ChannelCode.optional(),
});

/** `PATCH /ticketing/agency_channels/{id}`: any of the channel's settings; on_by_admin is for administrators only. */
export const UpdateChannelRequest = z.preprocess(
  unwrap("channel", "agency_channel"),
  ChannelSettingsFields.refine(
    (v) => Object.values(v).some((x) => x !== undefined),
    "give at least one setting to change",
  ),
);
export type UpdateChannelRequest = z.infer<typeof UpdateChannelRequest>;

/** `POST /ticketing/agency_channels/{id}/credit_cards`. */
export const AttachCardRequest = z.preprocess(
  unwrap("credit_card"),
  z.object({ credit_card_id: Id }).or(z.object({ id: Id }).transform((v) => ({ credit_card_id: v.id }))),
);

/** Create or edit a channel's supplier credentials; they are checked at once and never returned. */
export const CredentialRequest = z.preprocess(
  unwrap("credential"),
  z.object({
    login: z.string().trim().min(1).max(100),
    password: z.string().min(1).max(200),
    office_id: z.string().trim().max(20).optional(),
  }),
);
export type CredentialRequest = z.infer<typeof CredentialRequest>;

/** The spec's messages for a credentials check (section 8), word for word. */
export const CREDENTIAL_MESSAGES = {
  inactive: "Invalid credentials. Enter current cretentials.",
  active: "The credentials are correct.",
  enable: "Enable the channel to get started.",
} as const;

export const ChannelCardRow = CardFacts.extend({ id: z.string() });

/** A channel as administrators and supervisors see it (spec section 3, Channel). */
export const ChannelRow = z.object({
  id: z.string(),
  agency_id: z.string(),
  title: z.string(),
  currency: z.string(),
  active: z.boolean(),
  active_by_admin: z.boolean(),
  active_by_company: z.boolean(),
  active_by_main_gate: z.boolean(),
  active_by_supervisor: z.boolean(),
  active_credential: z.boolean(),
  credential: z.object({ active: z.boolean(), agency_id: z.string() }).nullable(),
  form_of_payment: FormOfPayment,
  credit_card: ChannelCardRow.nullable(),
  credit_cards: z.array(ChannelCardRow),
  nego_code: z.string().nullable(),
  resident_fares_code: z.string().nullable(),
  api: z.boolean(),
  web: z.boolean(),
  extension: z.boolean(),
  /** The agency's companies and whether the channel sells for each (`id` is the channel and company's link). */
  companies: z.array(
    z.object({ id: z.string(), company_id: z.string(), name: z.string(), active: z.boolean() }),
  ),
});
export type ChannelRow = z.infer<typeof ChannelRow>;

export const GateKind = z.enum([...GateName.options, "agency", "company"]);
export type GateKind = z.infer<typeof GateKind>;

/** `GET /ticketing/channel_history`: the channel-change audit, newest first. */
export const ChannelHistoryQuery = z.object({
  channel_id: Id.optional(),
  agency_id: Id.optional(),
  company_id: Id.optional(),
  gate: GateKind.optional(),
  actor_id: Id.optional(),
  source: z.enum(["web", "api", "extension", "system", "assistant"]).optional(),
  date_from: IsoDate.optional(),
  date_to: IsoDate.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(50),
});
export type ChannelHistoryQuery = z.infer<typeof ChannelHistoryQuery>;

/** One change of a channel or gate: who, when, what, before → after, from which source, and its event. */
export const ChannelHistoryRow = z.object({
  event_id: z.string(),
  event_type: z.string(),
  stream_id: z.string(),
  stream_position: z.number().int(),
  at: z.string(),
  actor: z.object({ user_id: z.string().nullable(), role: z.string(), name: z.string().nullable() }),
  source: z.string(),
  trace_id: z.string(),
  agency_id: z.string().nullable(),
  company_id: z.string().nullable(),
  channel_id: z.string().nullable(),
  gate: GateKind.nullable(),
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /**
   * The payment cards `before` and `after` name by id (the channel's paying card, a card attached or detached), by
   * id: brand and last four, so the change reads as a card, also after the card was deleted.
   */
  cards: z.record(z.string(), z.object({ brand: z.string(), last4: z.string() })).optional(),
  /** Where the event itself is read. */
  link: z.string(),
});
export type ChannelHistoryRow = z.infer<typeof ChannelHistoryRow>;

/** Commands of a channel stream; time and ids come with them, so the deciders stay pure. */
export const ChannelCommand = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("CreateChannel"),
    channel_id: z.string(),
    agency_id: z.string(),
    title: z.string(),
    currency: z.string(),
  }),
  z.object({ type: z.literal("ToggleChannel"), by: z.enum(["admin", "supervisor"]), active: z.boolean() }),
  z.object({ type: z.literal("ToggleSource"), source: ChannelSource, active: z.boolean() }),
  z.object({ type: z.literal("ToggleCompany"), company_id: z.string(), active: z.boolean() }),
  z.object({
    type: z.literal("UpdateChannel"),
    form_of_payment: FormOfPayment.optional(),
    /** The card to pay tickets with (already attached or attached by this command), or null to clear it. */
    ticketing_card: z.object({ id: z.string(), token: z.string() }).nullable().optional(),
    nego_code: z.string().nullable().optional(),
    resident_fares_code: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal("AttachCard"), credit_card_id: z.string() }),
  z.object({ type: z.literal("DetachCard"), credit_card_id: z.string() }),
  z.object({ type: z.literal("ReplaceCredentials"), active: z.boolean() }),
  z.object({ type: z.literal("DeleteChannel") }),
]);
export type ChannelCommand = z.infer<typeof ChannelCommand>;

export const GateCommand = z.object({ type: z.literal("ToggleGate"), active: z.boolean() });
export type GateCommand = z.infer<typeof GateCommand>;

export const CardCommand = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("RegisterCard"),
    card_id: z.string(),
    agency_id: z.string().nullable(),
    facts: CardFacts,
    token: z.string(),
    /** The command's moment, for the expiry check. */
    now: z.date(),
  }),
  z.object({
    type: z.literal("UpdateCard"),
    exp_month: z.number().int().optional(),
    exp_year: z.number().int().optional(),
    holder: z.string().optional(),
    now: z.date(),
  }),
  z.object({ type: z.literal("AttachToChannel"), channel_id: z.string() }),
  z.object({ type: z.literal("DetachFromChannel"), channel_id: z.string() }),
  z.object({ type: z.literal("DeleteCard") }),
]);
export type CardCommand = z.infer<typeof CardCommand>;

/** `GET /ticketing/agency_channels?agency_id=`. */
export const ChannelListQuery = z.object({ agency_id: Id.optional() });

/*
 * The answers of the ticketing routes (OpenAPI names them in openapi/ticketing.ts). Commands answer the feed
 * `position` of what they wrote, null when nothing was written (a switch set as it already was).
 */
const CommandPosition = z.string().nullable();
/** `GET /ticketing/agency_channels` */
export const ChannelListResponse = z.object({ data: z.array(ChannelRow) });
export type ChannelListResponse = z.infer<typeof ChannelListResponse>;
/** `GET /ticketing/agency_channels/{id}` */
export const ChannelResponse = z.object({ data: ChannelRow });
export type ChannelResponse = z.infer<typeof ChannelResponse>;
/** `GET /ticketing/channel_history`: a page of changes. */
export const ChannelHistoryResponse = z.object({
  data: z.array(ChannelHistoryRow),
  meta: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() }),
});
export type ChannelHistoryResponse = z.infer<typeof ChannelHistoryResponse>;
/** `GET /ticketing/channel_history/{event_id}`: one change with its event as recorded. */
export const ChannelChangeResponse = z.object({
  data: ChannelHistoryRow.extend({
    event: z.object({
      type: z.string(),
      data: z.record(z.string(), z.unknown()),
      metadata: z.record(z.string(), z.unknown()),
    }),
  }),
});
export type ChannelChangeResponse = z.infer<typeof ChannelChangeResponse>;
/** `GET /ticketing/gates`: the global gates, and each partner's and company's. */
export const GatesResponse = z.object({
  data: z.object({
    main_gate: z.boolean(),
    agency_gate: z.boolean(),
    channel_gate: z.boolean(),
    agencies: z.array(z.object({ id: z.string(), name: z.string(), active: z.boolean() })),
    companies: z.array(
      z.object({ id: z.string(), name: z.string(), agency_id: z.string(), active: z.boolean() }),
    ),
  }),
});
export type GatesResponse = z.infer<typeof GatesResponse>;
/** A global gate opened or closed. */
export const GlobalGateResponse = z.object({
  data: z.object({ gate: GateName, active: z.boolean() }),
  position: CommandPosition,
});
/** A partner's or company's gate opened or closed. */
export const PartnerGateResponse = z.object({
  data: z.object({ id: z.string(), active: z.boolean() }),
  position: CommandPosition,
});
/** A channel's source (api, web, extension) switched. */
export const ChannelSourceResponse = z.object({
  data: z.object({ id: z.string(), type: ChannelSource, active: z.boolean() }),
  position: CommandPosition,
});
/** A channel switched for one company. */
export const CompanyChannelResponse = z.object({
  data: z.object({ id: z.string(), channel_id: z.string(), company_id: z.string(), active: z.boolean() }),
  position: CommandPosition,
});
/** `POST /ticketing/agency_channels`: the channel created (off until its credentials check). */
export const ChannelCreatedResponse = z.object({
  data: z.object({
    id: z.string(),
    agency_id: z.string(),
    title: z.string(),
    currency: z.string(),
    active: z.boolean(),
    active_by_admin: z.boolean(),
    active_credential: z.boolean(),
  }),
  position: CommandPosition,
});
export type ChannelCreatedResponse = z.infer<typeof ChannelCreatedResponse>;
/** `PATCH /ticketing/agency_channels/{id}`: the channel's settings after the change. */
export const ChannelUpdatedResponse = z.object({
  data: z.object({
    id: z.string(),
    agency_id: z.string(),
    title: z.string(),
    active_by_admin: z.boolean(),
    active_by_supervisor: z.boolean(),
    active_credential: z.boolean(),
    form_of_payment: FormOfPayment,
    ticketing_credit_card_id: z.string().nullable(),
    credit_card_ids: z.array(z.string()),
    nego_code: z.string().nullable(),
    resident_fares_code: z.string().nullable(),
    api: z.boolean(),
    web: z.boolean(),
    extension: z.boolean(),
  }),
  position: CommandPosition,
});
/** A channel or card deleted. */
export const TicketingDeletedResponse = z.object({
  data: z.object({ id: z.string(), deleted: z.literal(true) }),
  position: CommandPosition,
});
/** A channel's supplier credentials set or edited: checked at once, with the spec's messages. */
export const CredentialResponse = z.object({
  credential: z.object({ active: z.boolean(), agency_id: z.string() }),
  companies: z.array(z.object({ id: z.string(), name: z.string() })),
  messages: z.array(z.object({ type: z.enum(["success", "error"]), text: z.string() })),
  position: CommandPosition,
});
export type CredentialResponse = z.infer<typeof CredentialResponse>;
/** A card attached to a channel. */
export const CardAttachedResponse = z.object({
  data: z.object({ id: z.string(), credit_card_id: z.string() }),
  position: CommandPosition,
});
/** A card detached from a channel. */
export const CardDetachedResponse = z.object({
  data: z.object({ id: z.string(), credit_card_id: z.string(), detached: z.literal(true) }),
  position: CommandPosition,
});
/** `GET /credit_cards` */
export const CardsResponse = z.object({ data: z.array(CardRow) });
export type CardsResponse = z.infer<typeof CardsResponse>;
/** `POST /credit_cards`: the card as the vault left it (never its number). */
export const CardCreatedResponse = z.object({
  data: CardFacts.extend({ id: z.string(), agency_id: z.string().nullable() }),
  position: CommandPosition,
});
export type CardCreatedResponse = z.infer<typeof CardCreatedResponse>;
/** `PATCH /credit_cards/{id}`: the card after the change, with the channels it pays for. */
export const CardUpdatedResponse = z.object({
  data: CardFacts.extend({
    id: z.string(),
    agency_id: z.string().nullable(),
    channel_ids: z.array(z.string()),
  }),
  position: CommandPosition,
});
