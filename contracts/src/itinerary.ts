import { z } from "zod";
import { CommandPosition, EmailInput } from "./account.ts";
import { Email, Language } from "./ids.ts";
import { ScheduleChangeKind } from "./supplier.ts";

/**
 * The itinerary e-mails of a booking (stream `itinerary-{locator}`, beside the booking's own): each send to a
 * traveller, on issue or on demand from the booking page, with who asked for it, to whom and when. The mail itself
 * (HTML and text, the itinerary PDF and every ticket's and EMD's receipt) is written and sent by the `send-itinerary`
 * job (the mails on issue: a sweep's batch by one `send-itineraries` job) from the booking as it stands then.
 */
export const itineraryStream = (locator: string) => `itinerary-${locator}`;

/** Why it was sent: the company's setting on issue, or an agent's request from the booking page or the API. */
export const ItineraryMailReason = z.enum(["issued", "on_demand"]);
export type ItineraryMailReason = z.infer<typeof ItineraryMailReason>;

export const ItineraryMailed = z.object({
  mail_id: z.string(),
  locator: z.string(),
  agency_id: z.string(),
  company_id: z.string(),
  to: Email,
  /** The agent's own words, shown above the itinerary. */
  note: z.string().nullable(),
  language: Language,
  reason: ItineraryMailReason,
  /** Who asked for it; null when the company's setting sent it on issue. */
  by: z.object({ user_id: z.string(), email: z.string().nullable() }).nullable(),
  at: z.string(),
});
export type ItineraryMailed = z.infer<typeof ItineraryMailed>;

/** A company's choice whether travellers get their itinerary when the booking is issued (on unless turned off). */
export const ItineraryOnIssueSet = z.object({ company_id: z.string(), on: z.boolean() });
export type ItineraryOnIssueSet = z.infer<typeof ItineraryOnIssueSet>;

/**
 * The traveller told of the airline's schedule change (issue 24.3), by the schedule-change sweep, once per change: to
 * the booking's contact address, in the agent's language. The mail itself (HTML and text, old and new flights) is
 * written from the booking's change when it is queued.
 */
export const ScheduleChangeMailed = z.object({
  mail_id: z.string(),
  locator: z.string(),
  agency_id: z.string(),
  company_id: z.string(),
  change_id: z.string(),
  kind: ScheduleChangeKind,
  to: Email,
  language: Language,
  at: z.string(),
});
export type ScheduleChangeMailed = z.infer<typeof ScheduleChangeMailed>;

export const ItineraryEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ItineraryMailed"), data: ItineraryMailed }),
  z.object({ type: z.literal("ScheduleChangeMailed"), data: ScheduleChangeMailed }),
]);
export type ItineraryEvent = z.infer<typeof ItineraryEvent>;
export const ITINERARY_EVENT_TYPES = ItineraryEvent.options.map((o) => o.shape.type.value);

/** Where the company's monthly statement is mailed (issue 24, item 4); null: nowhere. */
export const BillingContactSet = z.object({ company_id: z.string(), email: Email.nullable() });
export type BillingContactSet = z.infer<typeof BillingContactSet>;

/** Stream `company-mail-{company_id}`: the company's settings for mail to its travellers and its billing contact. */
export const companyMailStream = (companyId: string) => `company-mail-${companyId}`;
export const CompanyMailEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ItineraryOnIssueSet"), data: ItineraryOnIssueSet }),
  z.object({ type: z.literal("BillingContactSet"), data: BillingContactSet }),
]);
export type CompanyMailEvent = z.infer<typeof CompanyMailEvent>;

/** POST /bookings/{locator}/itinerary_mails: to any address, with a note, in a language (default: the agency's). */
export const SendItineraryRequest = z.object({
  itinerary: z.object({
    to: EmailInput,
    note: z.string().trim().max(1000).optional(),
    language: Language.optional(),
  }),
});
export type SendItineraryRequest = z.infer<typeof SendItineraryRequest>;

/** PATCH /companies/{id}/itinerary_on_issue */
export const ItineraryOnIssueRequest = z.object({ itinerary_on_issue: z.boolean() });

/** PATCH /companies/{id}/billing_contact: null stops the monthly statement's mail. */
export const BillingContactRequest = z.object({ billing_email: EmailInput.nullable() });
export const BillingContactResponse = z.object({
  data: z.object({ company_id: z.string(), billing_email: z.string().nullable() }),
  position: CommandPosition,
});

/** One send as the booking's history shows it. */
export const ItineraryMail = z.object({
  mail_id: z.string(),
  to: z.string(),
  note: z.string().nullable(),
  language: Language,
  /** Why it was sent; `schedule_change`: the traveller told of the airline's change (ScheduleChangeMailed). */
  reason: z.enum([...ItineraryMailReason.options, "schedule_change"]),
  by_email: z.string().nullable(),
  at: z.string(),
});
export type ItineraryMail = z.infer<typeof ItineraryMail>;

export const SendItineraryResponse = z.object({ data: ItineraryMail, position: CommandPosition });
export const ItineraryMailsResponse = z.object({ data: z.array(ItineraryMail) });
export const ItineraryOnIssueResponse = z.object({
  data: z.object({ company_id: z.string(), itinerary_on_issue: z.boolean() }),
  position: CommandPosition,
});
