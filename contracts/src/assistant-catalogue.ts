import { z } from "zod";
import {
  AgencyFlag,
  AgencyFlagRequest,
  CompanyMarkupsRequest,
  CreateAgencyRequest,
  CreateCompanyRequest,
  InviteUserRequest,
  JoinAgencyDecision,
  SharedBookingsRequest,
  TransactionFeeRequest,
  UpdateAgencyRequest,
  UpdateSupervisorRequest,
} from "./administration.ts";
import { CreditLimitRequest, TransactionRequest } from "./balances.ts";
import { CreateCardRequest, UpdateCardRequest } from "./cards.ts";
import type { UserType } from "./metadata.ts";
import { ChannelSource } from "./ticketing.ts";
import {
  AttachCardRequest,
  CreateChannelRequest,
  CredentialRequest,
  ToggleRequest,
  UpdateChannelRequest,
} from "./ticketing-commands.ts";

/**
 * Every administrator and supervisor command (and the read questions worth asking) as the assistant knows them:
 * the request schemas are the ones the HTTP routes validate with, imported, never written twice. A command names
 * the ordinary route that runs it, so the assistant can do nothing its user could not do by hand.
 */

/** What an entity argument names; the planner resolves a name (or an id) against the read models. */
export const EntityKind = z.enum(["agency", "company", "channel", "supervisor", "join_request", "card"]);
export type EntityKind = z.infer<typeof EntityKind>;

/** An id, or a name the planner resolves (two matches are a question back, never a guess). */
const Ref = (what: string) => z.string().trim().min(1).max(200).describe(`the ${what}: its id or its name`);

const ADMINS = ["Admin", "Support"] as const satisfies readonly UserType[];
const MANAGERS = ["Admin", "Support", "Supervisor"] as const satisfies readonly UserType[];
const MONEY = ["Admin"] as const satisfies readonly UserType[];

/** The ordinary HTTP call a command step is run as. */
export interface RouteCall {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

export interface CatalogueEntry<Args extends z.ZodType = z.ZodType> {
  name: string;
  kind: "command" | "question";
  description: string;
  /** User types that may run it (the route checks again; scope is the route's: a supervisor's own partner). */
  roles: readonly UserType[];
  movesMoney: boolean;
  args: Args;
  /** Entity arguments: path into the arguments → what it names. */
  refs: readonly { path: readonly string[]; kind: EntityKind }[];
  /** Secrets (card numbers, supplier passwords) never pass through a model: such commands are not offered. */
  offered: boolean;
  /** The ordinary route that runs the command, from validated, resolved arguments (questions have none). */
  route?: (args: z.output<Args>) => RouteCall;
}

const seg = (v: string) => encodeURIComponent(v);

function entry<Args extends z.ZodType>(e: CatalogueEntry<Args>): CatalogueEntry<Args> {
  return e;
}

const ref = (kind: EntityKind, ...path: string[]) => ({ path, kind });

const GlobalGate = z.enum(["main", "consolidator", "channel"]);
const GATE_PATHS = { main: "main_gate", consolidator: "agency_gate", channel: "channel_gate" } as const;

export const ASSISTANT_CATALOGUE = [
  // Partners (agencies).
  entry({
    name: "create_partner",
    kind: "command",
    description: "Register a new partner (agency) with optional markups, transaction fee and switches.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ body: CreateAgencyRequest }),
    refs: [],
    offered: true,
    route: (a) => ({ method: "POST", path: "/agencies", body: a.body }),
  }),
  entry({
    name: "update_partner",
    kind: "command",
    description: "Rename a partner (administrators) or replace its markups.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), body: UpdateAgencyRequest }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "PATCH", path: `/agencies/${seg(a.agency_id)}`, body: a.body }),
  }),
  entry({
    name: "set_partner_flag",
    kind: "command",
    description:
      "Switch one of a partner's options on or off: production API, corporate number, ghost segments.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), flag: AgencyFlag, body: AgencyFlagRequest }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "PATCH", path: `/agencies/${seg(a.agency_id)}/${a.flag}`, body: a.body }),
  }),
  entry({
    name: "set_transaction_fee",
    kind: "command",
    description:
      "Set (or remove, with null) a partner's transaction fee: fixed per passenger/booking or percent.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), body: TransactionFeeRequest }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "PUT", path: `/agency_transaction_fees/${seg(a.agency_id)}`, body: a.body }),
  }),
  entry({
    name: "delete_partner",
    kind: "command",
    description: "Delete a partner with its companies (refused while money or open bookings remain).",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner") }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "DELETE", path: `/agencies/${seg(a.agency_id)}` }),
  }),
  entry({
    name: "duplicate_partner",
    kind: "command",
    description: "Copy a partner's configuration (name, pricing, switches) into a new partner.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), body: UpdateAgencyRequest }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "POST", path: `/agencies/${seg(a.agency_id)}/duplicate`, body: a.body }),
  }),
  // Companies.
  entry({
    name: "create_company",
    kind: "command",
    description: "Create a company of a partner (currency defaults to the partner's channel currency).",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ body: CreateCompanyRequest }),
    refs: [ref("agency", "body", "agency_id")],
    offered: true,
    route: (a) => ({ method: "POST", path: "/companies", body: a.body }),
  }),
  entry({
    name: "delete_company",
    kind: "command",
    description: "Delete a company (refused while it has money or open bookings).",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ company_id: Ref("company") }),
    refs: [ref("company", "company_id")],
    offered: true,
    route: (a) => ({ method: "DELETE", path: `/companies/${seg(a.company_id)}` }),
  }),
  entry({
    name: "set_company_markups",
    kind: "command",
    description: "Replace a company's markups (per carrier or for all; fixed amount or percent).",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ company_id: Ref("company"), body: CompanyMarkupsRequest }),
    refs: [ref("company", "company_id")],
    offered: true,
    route: (a) => ({ method: "PUT", path: `/companies/${seg(a.company_id)}/markups`, body: a.body }),
  }),
  entry({
    name: "set_shared_bookings",
    kind: "command",
    description: "Let a company's agents see each other's bookings, or not.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ company_id: Ref("company"), body: SharedBookingsRequest }),
    refs: [ref("company", "company_id")],
    offered: true,
    route: (a) => ({
      method: "PATCH",
      path: `/ticketing/company_shared_bookings/${seg(a.company_id)}`,
      body: a.body,
    }),
  }),
  // Money.
  entry({
    name: "balance_transaction",
    kind: "command",
    description:
      "Top up a company's balance (kind top_up, positive amount) or correct it (kind correction, signed), in minor units, with a reason.",
    roles: MONEY,
    movesMoney: true,
    args: z.object({ body: TransactionRequest }),
    refs: [ref("company", "body", "company_id")],
    offered: true,
    route: (a) => ({ method: "POST", path: "/transactions", body: a.body }),
  }),
  entry({
    name: "set_credit_limit",
    kind: "command",
    description: "Set how far below zero a company's balance may go (minor units).",
    roles: MONEY,
    movesMoney: true,
    args: z.object({ company_id: Ref("company"), body: CreditLimitRequest }),
    refs: [ref("company", "company_id")],
    offered: true,
    route: (a) => ({ method: "PUT", path: `/companies/${seg(a.company_id)}/credit_limit`, body: a.body }),
  }),
  // People.
  entry({
    name: "invite_supervisor",
    kind: "command",
    description: "Invite a supervisor of a partner by e-mail (first and last name required).",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), body: InviteUserRequest }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "POST", path: `/agencies/${seg(a.agency_id)}/supervisors`, body: a.body }),
  }),
  entry({
    name: "update_supervisor",
    kind: "command",
    description: "Change a supervisor's name or phone, or switch the account on or off.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({
      agency_id: Ref("partner"),
      supervisor_id: Ref("supervisor"),
      body: UpdateSupervisorRequest,
    }),
    refs: [ref("agency", "agency_id"), ref("supervisor", "supervisor_id")],
    offered: true,
    route: (a) => ({
      method: "PATCH",
      path: `/agencies/${seg(a.agency_id)}/supervisors/${seg(a.supervisor_id)}`,
      body: a.body,
    }),
  }),
  entry({
    name: "remove_supervisor",
    kind: "command",
    description: "Remove a supervisor of a partner.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), supervisor_id: Ref("supervisor") }),
    refs: [ref("agency", "agency_id"), ref("supervisor", "supervisor_id")],
    offered: true,
    route: (a) => ({
      method: "DELETE",
      path: `/agencies/${seg(a.agency_id)}/supervisors/${seg(a.supervisor_id)}`,
    }),
  }),
  entry({
    name: "invite_support",
    kind: "command",
    description: "Invite a support user by e-mail.",
    roles: ["Admin"],
    movesMoney: false,
    args: z.object({ body: InviteUserRequest }),
    refs: [],
    offered: true,
    route: (a) => ({ method: "POST", path: "/supports", body: a.body }),
  }),
  entry({
    name: "decide_join_request",
    kind: "command",
    description: "Accept or reject an agent's request to join a partner.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ request_id: Ref("connection request"), body: JoinAgencyDecision }),
    refs: [ref("join_request", "request_id")],
    offered: true,
    route: (a) => ({ method: "PATCH", path: `/join_agency_requests/${seg(a.request_id)}`, body: a.body }),
  }),
  // Gates and channels.
  entry({
    name: "toggle_global_gate",
    kind: "command",
    description:
      "Switch a platform-wide gate on or off: main, consolidator (every partner) or every channel.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ gate: GlobalGate, body: ToggleRequest }),
    refs: [],
    offered: true,
    route: (a) => ({ method: "PATCH", path: `/ticketing/${GATE_PATHS[a.gate]}`, body: a.body }),
  }),
  entry({
    name: "toggle_partner_gate",
    kind: "command",
    description: "Switch ticketing on or off for a whole partner.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner"), body: ToggleRequest }),
    refs: [ref("agency", "agency_id")],
    offered: true,
    route: (a) => ({ method: "PATCH", path: `/ticketing/agency_gates/${seg(a.agency_id)}`, body: a.body }),
  }),
  entry({
    name: "toggle_company_gate",
    kind: "command",
    description: "Switch ticketing on or off for one company.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ company_id: Ref("company"), body: ToggleRequest }),
    refs: [ref("company", "company_id")],
    offered: true,
    route: (a) => ({ method: "PATCH", path: `/ticketing/company_gates/${seg(a.company_id)}`, body: a.body }),
  }),
  entry({
    name: "create_channel",
    kind: "command",
    description: "Create a ticketing channel of a partner (off until enabled).",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ body: CreateChannelRequest }),
    refs: [ref("agency", "body", "agency_id")],
    offered: true,
    route: (a) => ({ method: "POST", path: "/ticketing/agency_channels", body: a.body }),
  }),
  entry({
    name: "update_channel",
    kind: "command",
    description:
      "Change a partner's ticketing channel: on/off by administrator (on_by_admin) or supervisor (on_by_supervisor), form of payment, codes.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel"), body: UpdateChannelRequest }),
    refs: [ref("channel", "channel_id")],
    offered: true,
    route: (a) => ({
      method: "PATCH",
      path: `/ticketing/agency_channels/${seg(a.channel_id)}`,
      body: a.body,
    }),
  }),
  entry({
    name: "delete_channel",
    kind: "command",
    description: "Delete a partner's ticketing channel.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel") }),
    refs: [ref("channel", "channel_id")],
    offered: true,
    route: (a) => ({ method: "DELETE", path: `/ticketing/agency_channels/${seg(a.channel_id)}` }),
  }),
  entry({
    name: "toggle_source_channel",
    kind: "command",
    description: "Switch selling through the web, API or extension on or off for a channel.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel"), source: ChannelSource, body: ToggleRequest }),
    refs: [ref("channel", "channel_id")],
    offered: true,
    route: (a) => ({
      method: "PATCH",
      path: `/ticketing/source_channels/${seg(a.channel_id)}`,
      query: { type: a.source },
      body: a.body,
    }),
  }),
  entry({
    name: "toggle_company_channel",
    kind: "command",
    description: "Switch a partner's channel on or off for one of its companies.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel"), company_id: Ref("company"), body: ToggleRequest }),
    refs: [ref("channel", "channel_id"), ref("company", "company_id")],
    offered: true,
    route: (a) => ({
      method: "PATCH",
      path: `/ticketing/company_channels/${seg(a.channel_id)}_${seg(a.company_id)}`,
      body: a.body,
    }),
  }),
  entry({
    name: "attach_card_to_channel",
    kind: "command",
    description: "Attach a stored payment card to a channel.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel"), body: AttachCardRequest }),
    refs: [ref("channel", "channel_id")],
    offered: true,
    route: (a) => ({
      method: "POST",
      path: `/ticketing/agency_channels/${seg(a.channel_id)}/credit_cards`,
      body: a.body,
    }),
  }),
  entry({
    name: "set_channel_credentials",
    kind: "command",
    description: "Store and check a channel's supplier credentials.",
    roles: ADMINS,
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel"), body: CredentialRequest }),
    refs: [ref("channel", "channel_id")],
    offered: false,
    route: (a) => ({
      method: "POST",
      path: `/ticketing/agency_channels/${seg(a.channel_id)}/credential`,
      body: a.body,
    }),
  }),
  entry({
    name: "create_card",
    kind: "command",
    description: "Store a payment card (its number goes to the vault).",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ body: CreateCardRequest }),
    refs: [],
    offered: false,
    route: (a) => ({ method: "POST", path: "/credit_cards", body: a.body }),
  }),
  entry({
    name: "update_card",
    kind: "command",
    description: "Change a stored card's holder or expiry.",
    roles: MANAGERS,
    movesMoney: false,
    args: z.object({ card_id: Ref("card"), body: UpdateCardRequest }),
    refs: [ref("card", "card_id")],
    offered: false,
    route: (a) => ({ method: "PATCH", path: `/credit_cards/${seg(a.card_id)}`, body: a.body }),
  }),
  // Read questions: answered from the read models, nothing changes.
  entry({
    name: "company_balance",
    kind: "question",
    description: "What is a company's balance (and credit limit)?",
    roles: ["Admin", "Support", "Supervisor"],
    movesMoney: false,
    args: z.object({ company_id: Ref("company") }),
    refs: [ref("company", "company_id")],
    offered: true,
  }),
  entry({
    name: "channel_changes",
    kind: "question",
    description: "Who changed a ticketing channel (or a partner's channels), and when: the latest changes.",
    roles: ["Admin", "Support", "Supervisor"],
    movesMoney: false,
    args: z.object({ channel_id: Ref("channel").optional(), agency_id: Ref("partner").optional() }),
    refs: [ref("channel", "channel_id"), ref("agency", "agency_id")],
    offered: true,
  }),
  entry({
    name: "bookings_expiring_today",
    kind: "question",
    description:
      "Which unpaid bookings reach their ticketing time limit today (optionally of one partner or company)?",
    roles: ["Admin", "Support", "Supervisor"],
    movesMoney: false,
    args: z.object({ agency_id: Ref("partner").optional(), company_id: Ref("company").optional() }),
    refs: [ref("agency", "agency_id"), ref("company", "company_id")],
    offered: true,
  }),
  entry({
    name: "sales_figures",
    kind: "question",
    description:
      "How much was sold (tickets issued, refunds netted) in a period, by a partner or a company, or by everyone the user sees? The answer names its scope and period.",
    roles: ["Admin", "Support", "Supervisor"],
    movesMoney: false,
    args: z.object({
      agency_id: Ref("partner").optional(),
      company_id: Ref("company").optional(),
      /** The first and last day of the period (both included). */
      date_from: z.iso.date(),
      date_to: z.iso.date(),
    }),
    refs: [ref("agency", "agency_id"), ref("company", "company_id")],
    offered: true,
  }),
] as const satisfies readonly CatalogueEntry<z.ZodObject>[];

export type CatalogueName = (typeof ASSISTANT_CATALOGUE)[number]["name"];
export const CATALOGUE_NAMES = ASSISTANT_CATALOGUE.map((e) => e.name) as CatalogueName[];
export const CatalogueNameSchema = z.enum(CATALOGUE_NAMES as [CatalogueName, ...CatalogueName[]]);

const byName = new Map<string, CatalogueEntry>(
  ASSISTANT_CATALOGUE.map((e) => [e.name, e as unknown as CatalogueEntry]),
);

/** A catalogue entry by name, or undefined (a model may name a tool that does not exist). */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  return byName.get(name);
}

/** The entries a user type may run (and a model may be offered): roles allow it, no secrets in its arguments. */
export function catalogueFor(userType: UserType): CatalogueEntry[] {
  return [...byName.values()].filter((e) => e.offered && e.roles.includes(userType));
}

/** An entry's arguments as JSON Schema (zod's own export): what a model sees as a tool. */
export function toolSchema(e: CatalogueEntry): Record<string, unknown> {
  return z.toJSONSchema(e.args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/** Tool definitions for a model (name, description, JSON Schema), for the entries a user type may run. */
export function catalogueTools(
  userType: UserType,
): { name: string; description: string; inputSchema: Record<string, unknown> }[] {
  return catalogueFor(userType).map((e) => ({
    name: e.name,
    description: `${e.description}${e.movesMoney ? " Moves money: needs the user's explicit confirmation." : ""}`,
    inputSchema: toolSchema(e),
  }));
}
