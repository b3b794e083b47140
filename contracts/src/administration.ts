import { z } from "zod";
import { AgencyFlag } from "./directory.ts";
import { Email, Language } from "./ids.ts";
import { Currency, Money, SellingCurrency } from "./money.ts";
import { Charge, MarkupRule } from "./pricing.ts";
import { TimeZone } from "./time-zone.ts";

/**
 * HTTP shapes of partner, company and people administration (seed-spec section 7, "Partners, companies,
 * supervisors"). Bodies come wrapped as the spec's other calls are (`{agency: {...}}`) or bare; `unwrapBody`
 * takes either.
 */

/** The body's `{key: {...}}` part when it is sent wrapped, else the body itself. */
export function unwrapBody(body: unknown, ...keys: string[]): unknown {
  if (body && typeof body === "object" && !Array.isArray(body))
    for (const key of keys) {
      const inner = (body as Record<string, unknown>)[key];
      if (inner && typeof inner === "object" && !Array.isArray(inner)) return inner;
    }
  return body;
}

const Name = z.string().trim().min(1).max(200);
const PersonName = z.string().trim().min(1).max(100);
const Id = z.string().min(1).max(100);
const Markups = z.array(MarkupRule).max(100);

export const CreateAgencyRequest = z.object({
  name: Name,
  markups: Markups.optional(),
  transaction_fee: Charge.nullable().optional(),
  production_api_on: z.boolean().optional(),
  corporate_number_on: z.boolean().optional(),
  ghost_segments_remarks_on: z.boolean().optional(),
  /** The zone its receipts, reports and mails write times in; UTC when not given. */
  time_zone: TimeZone.optional(),
});
export type CreateAgencyRequest = z.infer<typeof CreateAgencyRequest>;

export const UpdateAgencyRequest = z.object({
  name: Name.optional(),
  markups: Markups.optional(),
  time_zone: TimeZone.optional(),
});
export type UpdateAgencyRequest = z.infer<typeof UpdateAgencyRequest>;

/** PATCH /agencies/{id}/{flag}: the value to set (`active`, `on` or the flag's own name); none flips it. */
export const AgencyFlagRequest = z.object({
  active: z.boolean().optional(),
  on: z.boolean().optional(),
  value: z.boolean().optional(),
  production_api_on: z.boolean().optional(),
  corporate_number_on: z.boolean().optional(),
  ghost_segments_remarks_on: z.boolean().optional(),
  auto_cancel_held_on: z.boolean().optional(),
});

/** PUT /agency_transaction_fees/{agency id}: `{transaction_fee: Charge | null}`, or the charge itself. */
export const TransactionFeeRequest = z.preprocess(
  (body) => (body && typeof body === "object" && "kind" in body ? { transaction_fee: body } : body),
  z.object({ transaction_fee: Charge.nullable() }),
);

export const CreateCompanyRequest = z.object({
  agency_id: Id,
  name: Name,
  /** Defaults to the currency of the partner's first channel, else UAH. */
  currency: SellingCurrency.optional(),
  shared_bookings: z.boolean().default(false),
  markups: Markups.optional(),
});
export type CreateCompanyRequest = z.infer<typeof CreateCompanyRequest>;

export const CompanyMarkupsRequest = z.object({ markups: Markups });
/** PATCH /ticketing/company_shared_bookings/{company id}: `active` (or `shared_bookings`). */
export const SharedBookingsRequest = z.preprocess(
  (body) =>
    body && typeof body === "object" && !("active" in body) && "shared_bookings" in body
      ? { active: (body as { shared_bookings: unknown }).shared_bookings }
      : body,
  z.object({ active: z.boolean() }),
);

export const JoinAgencyRequestBody = z.object({ agency_id: Id, company_id: Id.optional() });
/** `status` accepted or rejected (also `accept`/`reject`, or `accepted: true|false`). */
export const JoinAgencyDecision = z.object({
  status: z.preprocess(
    (status) => (status === "accept" ? "accepted" : status === "reject" ? "rejected" : status),
    z.enum(["accepted", "rejected"]),
  ),
  /** The company the agent joins; defaults to the one asked for. */
  company_id: Id.optional(),
});

/** GET /join_agency_requests: an agent's own requests, a supervisor's partner's, all for administrators. */
export const JoinRequestsQuery = z.object({
  status: z.enum(["sent", "accepted", "rejected", "reset"]).optional(),
  agency_id: z.string().max(100).optional(),
});
/** GET /agent_company_relationships: which agents work for which companies, of one company when named. */
export const RelationshipsQuery = z.object({ company_id: z.string().max(100).optional() });

/** PUT /account/selling_company: the company searches and bookings are for when they name none. */
export const SellingCompanyRequest = z.object({ company_id: Id });

/** A new supervisor or support user, invited by e-mail. */
export const InviteUserRequest = z.object({
  email: Email,
  first_name: PersonName,
  last_name: PersonName,
  phone: z.string().trim().max(32).optional(),
  language: Language.default("en"),
  /** Companies a supervisor sells for; all of the partner's when absent. */
  company_ids: z.array(Id).max(500).optional(),
});
export type InviteUserRequest = z.infer<typeof InviteUserRequest>;

export const UpdateSupervisorRequest = z.object({
  first_name: PersonName.optional(),
  last_name: PersonName.optional(),
  phone: z.string().trim().max(32).optional(),
  active: z.boolean().optional(),
});

/** A person as administration lists them. */
export const PersonRow = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  user_type: z.string(),
  active: z.boolean(),
  company_ids: z.array(z.string()),
});
export type PersonRow = z.infer<typeof PersonRow>;

export const ChannelRef = z.object({
  id: z.string(),
  title: z.string(),
  active_by_admin: z.boolean(),
  active_by_supervisor: z.boolean(),
});

/** A partner (agency) with the fields the spec lists. */
export const Partner = z.object({
  id: z.string(),
  name: z.string(),
  channels: z.array(ChannelRef),
  supervisors: z.array(PersonRow),
  supervisors_count: z.number().int(),
  companies_count: z.number().int(),
  agency_transaction_fees: z.array(z.object({ id: z.string(), transaction_fee: Charge.nullable() })),
  production_api_on: z.boolean(),
  corporate_number_on: z.boolean(),
  ghost_segments_remarks_on: z.boolean(),
  /** Held bookings are cancelled automatically shortly before the airline's time limit. */
  auto_cancel_held_on: z.boolean().optional(),
  /** The zone its receipts, reports and mails write times in. */
  time_zone: z.string().optional(),
  markups: z.array(MarkupRule),
  active: z.boolean(),
});
export type Partner = z.infer<typeof Partner>;

export const Company = z.object({
  id: z.string(),
  agency_id: z.string(),
  name: z.string(),
  currency: Currency,
  balance_amount: Money,
  credit_limit: Money,
  shared_bookings: z.boolean(),
  avia_managers: z.array(PersonRow),
  channels: z.array(ChannelRef),
  markups: z.array(MarkupRule),
  active: z.boolean(),
});
export type Company = z.infer<typeof Company>;

export const JoinAgency = z.object({
  id: z.string(),
  agency_id: z.string(),
  user_id: z.string(),
  company_id: z.string().nullable(),
  status: z.enum(["sent", "accepted", "rejected", "reset"]),
});
export type JoinAgency = z.infer<typeof JoinAgency>;

/** One line of the partner and company change history: an event, its author and what it changed. */
export const DirectoryHistoryRow = z.object({
  event_id: z.string(),
  position: z.string(),
  stream_id: z.string(),
  agency_id: z.string().nullable(),
  company_id: z.string().nullable(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  /** Who made it: the user (null for the system), their role, and their name when the directory has it. */
  actor: z.object({ user_id: z.string().nullable(), role: z.string(), name: z.string().nullable() }),
  source: z.string(),
  at: z.string(),
  /** Where this change alone is read (GET /directory_history/{event_id}). */
  link: z.string(),
});
export type DirectoryHistoryRow = z.infer<typeof DirectoryHistoryRow>;

export const DirectoryHistoryQuery = z.object({
  agency_id: Id.optional(),
  company_id: Id.optional(),
  date_from: z.iso.date().optional(),
  date_to: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
});

/*
 * The answers of the administration routes (OpenAPI names them in openapi/administration.ts). Commands answer the
 * feed `position` of what they wrote, null when nothing was written (a change to what already was).
 */
const CommandPosition = z.string().nullable();
/** `GET /agencies` */
export const PartnerListResponse = z.object({ data: z.array(Partner) });
export type PartnerListResponse = z.infer<typeof PartnerListResponse>;
/** `GET /agencies/{id}` */
export const PartnerResponse = z.object({ partner: Partner });
export type PartnerResponse = z.infer<typeof PartnerResponse>;
/** A command on a partner (create, update, a flag, duplicate) answers the partner after it. */
export const PartnerCommandResponse = z.object({ partner: Partner, position: CommandPosition });
export type PartnerCommandResponse = z.infer<typeof PartnerCommandResponse>;
/** `PUT /agency_transaction_fees/{id}`: the partner after it and its fee. */
export const TransactionFeeResponse = PartnerCommandResponse.extend({
  agency_transaction_fee: z.object({ id: z.string(), transaction_fee: Charge.nullable() }),
});
export type TransactionFeeResponse = z.infer<typeof TransactionFeeResponse>;
/** `GET /companies` */
export const CompanyListResponse = z.object({ data: z.array(Company) });
export type CompanyListResponse = z.infer<typeof CompanyListResponse>;
/** `GET /companies/{id}` */
export const CompanyResponse = z.object({ company: Company });
export type CompanyResponse = z.infer<typeof CompanyResponse>;
/** A command on a company (create, markups, shared bookings) answers the company after it. */
export const CompanyCommandResponse = z.object({ company: Company, position: CommandPosition });
export type CompanyCommandResponse = z.infer<typeof CompanyCommandResponse>;
/** A partner, company, person or connection taken away: nothing left to show. */
export const DeletedResponse = z.object({ data: z.null(), position: CommandPosition });
export type DeletedResponse = z.infer<typeof DeletedResponse>;
/** `GET /agencies/{id}/supervisors` */
export const SupervisorsResponse = z.object({ data: z.array(PersonRow) });
export type SupervisorsResponse = z.infer<typeof SupervisorsResponse>;
/** `PUT /account/selling_company`: the caller's companies, the chosen one first. */
export const SellingCompanyResponse = z.object({
  data: z.object({ company_ids: z.array(z.string()) }),
  position: CommandPosition,
});
export type SellingCompanyResponse = z.infer<typeof SellingCompanyResponse>;
/** `GET /directory_history`: a page of changes. */
export const DirectoryHistoryResponse = z.object({
  data: z.array(DirectoryHistoryRow),
  meta: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() }),
});
export type DirectoryHistoryResponse = z.infer<typeof DirectoryHistoryResponse>;
/** `GET /directory_history/{event_id}` */
export const DirectoryChangeResponse = z.object({ data: DirectoryHistoryRow });
export type DirectoryChangeResponse = z.infer<typeof DirectoryChangeResponse>;
/** An agent's link to a company (`GET /agent_company_relationships`). */
export const RelationshipRow = z.object({
  id: z.string(),
  user_id: z.string(),
  company_id: z.string(),
  agency_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  since: z.string(),
});
export type RelationshipRow = z.infer<typeof RelationshipRow>;
export const RelationshipsResponse = z.object({ data: z.array(RelationshipRow) });
export type RelationshipsResponse = z.infer<typeof RelationshipsResponse>;
/** A connection request with the partner's name and the requester (null when the directory lacks them). */
export const JoinRequestRow = JoinAgency.extend({
  updated_at: z.string(),
  agency_name: z.string(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});
export type JoinRequestRow = z.infer<typeof JoinRequestRow>;
/** `GET /join_agency_requests`, newest first. */
export const JoinRequestsResponse = z.object({ data: z.array(JoinRequestRow) });
export type JoinRequestsResponse = z.infer<typeof JoinRequestsResponse>;
/** A connection request sent or decided. */
export const JoinAgencyResponse = z.object({ join_agency: JoinAgency, position: CommandPosition });
export type JoinAgencyResponse = z.infer<typeof JoinAgencyResponse>;

export { AgencyFlag };
