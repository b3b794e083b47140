import { z } from "zod";
import {
  AccountDetailsUpdated,
  AccountInfoCompleted,
  ApiTokenIssued,
  ApiTokenRevoked,
  EmailChanged,
  LocaleChanged,
  PhoneChanged,
  TermsAccepted,
} from "./account.ts";
import { Email, Language } from "./ids.ts";
import { UserType } from "./metadata.ts";
import { Currency } from "./money.ts";
import { Charge, MarkupRule } from "./pricing.ts";
import { TimeZone } from "./time-zone.ts";

/** Events of agencies (partners), companies and users: who works where, with which role. */
export const AgencyRegistered = z.object({
  agency_id: z.string(),
  name: z.string().min(1).max(200),
  /** The partner whose configuration this one was copied from (POST /agencies/{id}/duplicate). */
  duplicated_from: z.string().optional(),
});
/** A partner's own settings changed (PATCH /agencies/{id}). */
export const AgencyUpdated = z.object({ agency_id: z.string(), name: z.string().min(1).max(200) });
/**
 * The partner switches of PATCH /agencies/{id}/<flag>; `auto_cancel_held_on`: held bookings are cancelled shortly
 * before the airline's time limit (the ticketing-deadline watchdog).
 */
export const AgencyFlag = z.enum([
  "production_api_on",
  "corporate_number_on",
  "ghost_segments_remarks_on",
  "auto_cancel_held_on",
]);
export const AgencyFlagSet = z.object({ agency_id: z.string(), flag: AgencyFlag, on: z.boolean() });
export const AgencyDeleted = z.object({ agency_id: z.string() });
/**
 * The zone the partner's receipts, reports and mails write instants in (a new event beside AgencyRegistered, whose
 * shape stays as stored: a partner without one writes UTC, see time-zone.ts).
 */
export const AgencyTimeZoneSet = z.object({ agency_id: z.string(), time_zone: TimeZone });
/** Agents of the company see each other's bookings when on. */
export const CompanySharedBookingsSet = z.object({ company_id: z.string(), shared_bookings: z.boolean() });
export const CompanyDeleted = z.object({ company_id: z.string() });
/** An agent connected to a company of an agency (a join request accepted). */
export const UserConnectedToCompany = z.object({
  user_id: z.string(),
  agency_id: z.string(),
  company_id: z.string(),
});
/** An agent taken off a company (DELETE /agent_company_relationships/{id}). */
export const UserDisconnectedFromCompany = z.object({ user_id: z.string(), company_id: z.string() });
/** A supervisor switched on or off by an administrator or a supervisor of the agency. */
export const UserActivationSet = z.object({ user_id: z.string(), active: z.boolean() });
/**
 * The company a user sells for when a search names none (PUT /account/selling_company): first of its companies for
 * agents and supervisors, the only one for administrators, who belong to none.
 */
export const SellingCompanyChosen = z.object({ user_id: z.string(), company_id: z.string() });
export type SellingCompanyChosen = z.infer<typeof SellingCompanyChosen>;
/** A user removed: signs in no more, and the e-mail address is free again. */
export const UserRemoved = z.object({ user_id: z.string() });
export const CompanyRegistered = z.object({
  company_id: z.string(),
  agency_id: z.string(),
  name: z.string().min(1).max(200),
  currency: Currency,
  shared_bookings: z.boolean(),
});
export const UserRegistered = z.object({
  user_id: z.string(),
  email: Email,
  first_name: z.string().min(1).max(100),
  last_name: z.string().min(1).max(100),
  user_type: UserType,
  phone: z.string().max(32).nullable(),
  language: Language,
  agency_id: z.string().nullable(),
  company_ids: z.array(z.string()),
  demo_user: z.boolean(),
  /** How the user signs in: by e-mail code, or by password (set separately, never stored in an event). */
  auth_method: z.enum(["otp", "password"]),
});
/** The agency's markups on every company's sales and its transaction fee, replacing the previous ones. */
export const AgencyPricingSet = z.object({
  agency_id: z.string(),
  markups: z.array(MarkupRule),
  transaction_fee: Charge.nullable(),
});
/** The company's own markups, replacing the previous ones. */
export const CompanyMarkupsSet = z.object({ company_id: z.string(), markups: z.array(MarkupRule) });
/** The agency's (partner's) or the company's ticketing gate; the stream names which. */
export const AgencyGateToggled = z.object({ active: z.boolean() });
export const CompanyGateToggled = z.object({ active: z.boolean() });
export type AgencyRegistered = z.infer<typeof AgencyRegistered>;
export type CompanyRegistered = z.infer<typeof CompanyRegistered>;
export type UserRegistered = z.infer<typeof UserRegistered>;
export type AgencyPricingSet = z.infer<typeof AgencyPricingSet>;
export type CompanyMarkupsSet = z.infer<typeof CompanyMarkupsSet>;
export type AgencyGateToggled = z.infer<typeof AgencyGateToggled>;
export type AgencyUpdated = z.infer<typeof AgencyUpdated>;
export type AgencyFlag = z.infer<typeof AgencyFlag>;
export type AgencyFlagSet = z.infer<typeof AgencyFlagSet>;
export type AgencyTimeZoneSet = z.infer<typeof AgencyTimeZoneSet>;
export type CompanySharedBookingsSet = z.infer<typeof CompanySharedBookingsSet>;
export type UserConnectedToCompany = z.infer<typeof UserConnectedToCompany>;
export type UserDisconnectedFromCompany = z.infer<typeof UserDisconnectedFromCompany>;
export type UserActivationSet = z.infer<typeof UserActivationSet>;
export type UserRemoved = z.infer<typeof UserRemoved>;
export type CompanyGateToggled = z.infer<typeof CompanyGateToggled>;

/** A connection request: an agent asks to join a partner (stream `joinagency-{id}`, one per agent and partner). */
export const JoinAgencyRequested = z.object({
  request_id: z.string(),
  user_id: z.string(),
  agency_id: z.string(),
  /** The company the agent asks to work for; the partner may pick another of its own when accepting. */
  company_id: z.string().nullable(),
});
export const JoinAgencyRequestAccepted = z.object({ request_id: z.string(), company_id: z.string() });
export const JoinAgencyRequestRejected = z.object({ request_id: z.string() });
/** The agent was disconnected: the request starts over, and a new one may be sent. */
export const JoinAgencyRequestReset = z.object({ request_id: z.string() });
export type JoinAgencyRequested = z.infer<typeof JoinAgencyRequested>;

export const JoinAgencyEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("JoinAgencyRequested"), data: JoinAgencyRequested }),
  z.object({ type: z.literal("JoinAgencyRequestAccepted"), data: JoinAgencyRequestAccepted }),
  z.object({ type: z.literal("JoinAgencyRequestRejected"), data: JoinAgencyRequestRejected }),
  z.object({ type: z.literal("JoinAgencyRequestReset"), data: JoinAgencyRequestReset }),
]);
export type JoinAgencyEvent = z.infer<typeof JoinAgencyEvent>;

/** Every event of an agency stream (`agency-{id}`), told apart by `type`. */
export const AgencyEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("AgencyRegistered"), data: AgencyRegistered }),
  z.object({ type: z.literal("AgencyPricingSet"), data: AgencyPricingSet }),
  z.object({ type: z.literal("AgencyGateToggled"), data: AgencyGateToggled }),
  z.object({ type: z.literal("AgencyUpdated"), data: AgencyUpdated }),
  z.object({ type: z.literal("AgencyFlagSet"), data: AgencyFlagSet }),
  z.object({ type: z.literal("AgencyTimeZoneSet"), data: AgencyTimeZoneSet }),
  z.object({ type: z.literal("AgencyDeleted"), data: AgencyDeleted }),
]);
export type AgencyEvent = z.infer<typeof AgencyEvent>;
export const AGENCY_EVENT_TYPES = AgencyEvent.options.map((o) => o.shape.type.value);

/** Every event of a company stream (`company-{id}`), told apart by `type`. */
export const CompanyEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("CompanyRegistered"), data: CompanyRegistered }),
  z.object({ type: z.literal("CompanyMarkupsSet"), data: CompanyMarkupsSet }),
  z.object({ type: z.literal("CompanyGateToggled"), data: CompanyGateToggled }),
  z.object({ type: z.literal("CompanySharedBookingsSet"), data: CompanySharedBookingsSet }),
  z.object({ type: z.literal("CompanyDeleted"), data: CompanyDeleted }),
]);
export type CompanyEvent = z.infer<typeof CompanyEvent>;
export const COMPANY_EVENT_TYPES = CompanyEvent.options.map((o) => o.shape.type.value);

/**
 * What the directory of who's who is folded from: every agency and company event, and the events of a user
 * stream that shape a profile (sign-ins and other audit events leave it as is).
 */
export const DirectoryEvent = z.discriminatedUnion("type", [
  ...AgencyEvent.options,
  ...CompanyEvent.options,
  ...JoinAgencyEvent.options,
  z.object({ type: z.literal("UserRegistered"), data: UserRegistered }),
  z.object({ type: z.literal("AccountInfoCompleted"), data: AccountInfoCompleted }),
  z.object({ type: z.literal("AccountDetailsUpdated"), data: AccountDetailsUpdated }),
  z.object({ type: z.literal("TermsAccepted"), data: TermsAccepted }),
  z.object({ type: z.literal("LocaleChanged"), data: LocaleChanged }),
  z.object({ type: z.literal("PhoneChanged"), data: PhoneChanged }),
  z.object({ type: z.literal("EmailChanged"), data: EmailChanged }),
  z.object({ type: z.literal("ApiTokenIssued"), data: ApiTokenIssued }),
  z.object({ type: z.literal("ApiTokenRevoked"), data: ApiTokenRevoked }),
  z.object({ type: z.literal("UserConnectedToCompany"), data: UserConnectedToCompany }),
  z.object({ type: z.literal("UserDisconnectedFromCompany"), data: UserDisconnectedFromCompany }),
  z.object({ type: z.literal("UserActivationSet"), data: UserActivationSet }),
  z.object({ type: z.literal("UserRemoved"), data: UserRemoved }),
  z.object({ type: z.literal("SellingCompanyChosen"), data: SellingCompanyChosen }),
]);
export type DirectoryEvent = z.infer<typeof DirectoryEvent>;
export const DIRECTORY_EVENT_TYPES = DirectoryEvent.options.map((o) => o.shape.type.value);

export const AgencyRow = z.object({ id: z.string(), name: z.string(), companies_count: z.number().int() });
export const CompanyRow = z.object({
  id: z.string(),
  agency_id: z.string(),
  name: z.string(),
  currency: Currency,
  shared_bookings: z.boolean(),
});
export type AgencyRow = z.infer<typeof AgencyRow>;
export type CompanyRow = z.infer<typeof CompanyRow>;
