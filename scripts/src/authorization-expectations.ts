import { demoId } from "@skyward/command-service/world/seed";
import type { UserType } from "@skyward/contracts/metadata";

/** The demo tenant whose ids a call uses (Dnipro Travel): its own users' calls, and the other tenant's probes. */
export interface Tenant {
  agencyId: string;
  companyIds: string[];
  userIds: string[];
  /** A real booking of the tenant, made by its agent before the matrix runs. */
  bookingLocator: string;
  /** A traveller the tenant keeps, kept by its agent before the matrix runs. */
  travellerId: string;
}

export interface RouteExpectation {
  /**
   * Who may call the route: `"public"` (anyone, signed in or not), `"signed-in"` (every user type, each scoped to
   * their own data; auditors only read), or the user types allowed — every other user gets 403 with a code naming
   * who may, an anonymous caller 401.
   */
  allow: "public" | "signed-in" | readonly UserType[];
  /** Values for the route's `:params`, taken from the tenant (another tenant's, for the cross-tenant probe). */
  params?: (tenant: Tenant) => Record<string, string>;
  query?: (tenant: Tenant) => Record<string, string>;
  /** A body that gets past validation, so the probe reaches the data; without one, validation may answer 422. */
  body?: (tenant: Tenant) => unknown;
  /** The body carries the tenant's ids: another tenant's caller must not get a 2xx. */
  tenantIdsInBody?: true;
  /** The call ends the caller's session, so the matrix makes it last. */
  endsSession?: true;
}

const administrators = ["Admin", "Support"] as const;
/** Who reads the administration data (issue 11): administrators, and auditors as read-only administrators. */
const readers = [...administrators, "Auditor"] as const;
/** A traveller profile that passes validation (the probes' PUT and POST bodies; not the tenant's kept "Matrix"). */
const travellerProfile = {
  first_name: "Petro",
  last_name: "Probe",
  date_of_birth: "1990-01-01",
  gender: "F",
  ssrs: ["VGML"],
};
/** The Dnipro tenant's seeded ticketing channel. */
const dniproChannel = demoId("channel", "dnipro");

/**
 * Every route of the app and who may call it (DESIGN.md section 5, roles table). The authorization matrix test
 * fails for a route missing here: a new route adds its line in the same change.
 */
export const routeExpectations: Record<string, RouteExpectation> = {
  // Signing in, and development outboxes (loopback only, never in production).
  "GET /csrf": { allow: "public" },
  "POST /start_sign_in": { allow: "public" },
  "POST /sign_in": { allow: "public" },
  "POST /send_voice_otp": { allow: "public" },
  "GET /dev/mailbox": { allow: "public" },
  "GET /dev/voice": { allow: "public" },
  "GET /dev/mailbox/:id/attachments/:position": {
    allow: "public",
    params: () => ({ id: "1", position: "1" }),
  },
  // Probes for a load balancer or an orchestrator: liveness and readiness.
  "GET /health": { allow: "public" },
  "GET /ready": { allow: "public" },

  // The caller's own account: every user, on their own user only.
  "DELETE /sign_out": { allow: "signed-in", endsSession: true },
  "PUT /onboarding": { allow: "signed-in" },
  "POST /account/complete": { allow: "signed-in" },
  "PUT /account/terms": { allow: "signed-in" },
  "GET /account/details": { allow: "signed-in" },
  "PUT /account/details": { allow: "signed-in" },
  "PUT /account/details/update_locale": { allow: "signed-in", body: () => ({ language: "en" }) },
  "POST /account/phone": { allow: "signed-in" },
  "PUT /account/phone": { allow: "signed-in" },
  "PUT /account/email": { allow: "signed-in" },
  "PUT /account/api_token": { allow: "signed-in" },
  "GET /account/api_token": { allow: "signed-in" },
  "DELETE /account/api_token": { allow: "signed-in" },

  // Directory.
  "GET /agencies": { allow: ["Supervisor", ...readers] },
  "GET /companies": { allow: ["Supervisor", ...readers] },
  // Partners, companies, people, connection requests and their histories (issue 11): supervisors inside their own
  // partner, administrators everywhere; support users neither create support users nor move money. Destructive
  // probes use ids they cannot harm with (a partner and a company with money are refused, missing people 404).
  "GET /agencies/:id": { allow: ["Supervisor", ...readers], params: (t) => ({ id: t.agencyId }) },
  "GET /agencies/:id/supervisors": {
    allow: ["Supervisor", ...readers],
    params: (t) => ({ id: t.agencyId }),
  },
  "GET /companies/:id": {
    allow: ["Supervisor", ...readers],
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
  },
  "GET /agent_company_relationships": { allow: ["Supervisor", ...readers] },
  "GET /join_agency_requests": { allow: "signed-in" },
  "GET /directory_history": { allow: ["Supervisor", ...readers] },
  "GET /balance_history": { allow: ["Supervisor", ...readers] },
  "GET /time_limit_notices": { allow: "signed-in" },
  "GET /notifications": { allow: "signed-in" },
  "POST /notifications/read": { allow: "signed-in", body: () => ({ all: true }) },
  "GET /notification_settings": { allow: "signed-in" },
  "PUT /notification_settings": {
    allow: "signed-in",
    body: () => ({ settings: [{ kind: "issued", in_app: true, mail: true }] }),
  },
  "GET /directory_history/:eventId": {
    allow: ["Supervisor", ...readers],
    params: () => ({ eventId: "00000000-0000-0000-0000-000000000000" }),
  },
  "GET /balance_history/:eventId": {
    allow: ["Supervisor", ...readers],
    params: () => ({ eventId: "00000000-0000-0000-0000-000000000000" }),
  },
  "POST /agencies": { allow: administrators },
  "PATCH /agencies/:id": { allow: ["Supervisor", ...administrators], params: (t) => ({ id: t.agencyId }) },
  "DELETE /agencies/:id": { allow: administrators, params: (t) => ({ id: t.agencyId }) },
  "POST /agencies/:id/duplicate": { allow: administrators, params: (t) => ({ id: t.agencyId }) },
  "PATCH /agencies/:id/production_api_on": {
    allow: administrators,
    params: (t) => ({ id: t.agencyId }),
    body: () => ({ active: false }),
  },
  "PATCH /agencies/:id/corporate_number_on": {
    allow: administrators,
    params: (t) => ({ id: t.agencyId }),
    body: () => ({ active: false }),
  },
  "PATCH /agencies/:id/ghost_segments_remarks_on": {
    allow: administrators,
    params: (t) => ({ id: t.agencyId }),
    body: () => ({ active: false }),
  },
  "PATCH /agencies/:id/auto_cancel_held_on": {
    allow: administrators,
    params: (t) => ({ id: t.agencyId }),
    body: () => ({ active: false }),
  },
  "PUT /agency_transaction_fees/:id": { allow: administrators, params: (t) => ({ id: t.agencyId }) },
  "POST /companies": { allow: ["Supervisor", ...administrators] },
  "DELETE /companies/:id": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
  },
  "PUT /companies/:id/markups": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
  },
  "PUT /companies/:id/credit_limit": { allow: ["Admin"], params: (t) => ({ id: t.companyIds[0] ?? "" }) },
  "PATCH /companies/:id/billing_contact": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
    body: () => ({ billing_email: null }),
  },
  "PATCH /companies/:id/itinerary_on_issue": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
    body: () => ({ itinerary_on_issue: true }),
  },
  "PATCH /ticketing/company_shared_bookings/:id": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
  },
  "DELETE /agent_company_relationships/:id": {
    allow: ["Supervisor", ...administrators],
    params: () => ({ id: "missing" }),
  },
  "POST /join_agency_requests": { allow: ["Agent"] },
  "PATCH /join_agency_requests/:id": {
    allow: ["Supervisor", ...administrators],
    params: () => ({ id: "missing" }),
  },
  "POST /agencies/:id/supervisors": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.agencyId }),
  },
  "PATCH /agencies/:id/supervisors/:supervisorId": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.agencyId, supervisorId: "missing" }),
  },
  "DELETE /agencies/:id/supervisors/:supervisorId": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: t.agencyId, supervisorId: "missing" }),
  },
  "POST /supports": { allow: ["Admin"] },
  "POST /transactions": { allow: ["Admin"] },
  // The AI admin assistant (issue 13): administrators and supervisors; plans are bound to their user (404 otherwise).
  // Agents may ask, to be answered a refusal naming their role (issue 25), but never execute.
  "POST /admin_panel/ask": {
    allow: ["Admin", "Support", "Supervisor", "Agent"],
    body: () => ({ text: "which bookings expire today?" }),
  },
  "POST /admin_panel/execute": {
    allow: ["Admin", "Support", "Supervisor"],
    body: () => ({ plan_id: "00000000-0000-4000-8000-000000000000", confirm_money: true }),
  },
  "PUT /account/selling_company": {
    allow: "signed-in",
    body: (t) => ({ company_id: t.companyIds[0] }),
    tenantIdsInBody: true,
  },

  // Bookings and balances: scoped to company (agents), agency (supervisors), everything (administrators).
  "GET /bookings": { allow: "signed-in" },
  "GET /bookings/:locator": { allow: "signed-in", params: (t) => ({ locator: t.bookingLocator }) },
  "GET /balances": { allow: "signed-in" },
  // Invoices, credit notes and statements (issue 24): whoever sees the company's balance.
  "GET /invoices": { allow: "signed-in", query: () => ({ month: new Date().toISOString().slice(0, 7) }) },
  "GET /invoices/:id": { allow: "signed-in", params: () => ({ id: "00000000-0000-4000-8000-000000000000" }) },
  "GET /companies/:id/statements/:month": {
    allow: "signed-in",
    params: (t) => ({ id: t.companyIds[0] ?? "", month: new Date().toISOString().slice(0, 7) }),
  },
  // Sales, reports and analytics: the same scopes; an unknown sale or report is 404 for everyone.
  "GET /sales": { allow: "signed-in" },
  "GET /sales/export": { allow: "signed-in" },
  "GET /sales/reports/:id": {
    allow: "signed-in",
    params: () => ({ id: "00000000-0000-4000-8000-000000000000" }),
  },
  "GET /sales/:id": { allow: "signed-in", params: () => ({ id: "0000000000000-ticket" }) },
  "GET /analytics": {
    allow: "signed-in",
    query: () => ({ "analytics[date_from]": "2026-01-01", "analytics[date_to]": "2026-01-31" }),
  },

  // Search and booking commands: every user type sells, each within its own scope; the locator is a real Dnipro
  // booking, so another tenant's caller must get 404.
  "GET /airports": { allow: "signed-in", query: () => ({ q: "Kyiv" }) },
  "POST /offers": { allow: "signed-in" },
  "POST /text_search": { allow: "signed-in", body: () => ({ text: "Kyiv to Warsaw tomorrow" }) },
  "POST /search_results": { allow: "signed-in" },
  "POST /fare_calendar": { allow: "signed-in" },
  "GET /fare_calendar/:id": { allow: "signed-in", params: () => ({ id: "missing" }) },
  "DELETE /search_results/:id": {
    allow: "signed-in",
    params: () => ({ id: "missing" }),
    query: () => ({ filter_key: "stops" }),
  },
  "GET /offers/:id/details": {
    allow: "signed-in",
    params: () => ({ id: "missing" }),
    query: () => ({ search_result_id: "missing" }),
  },
  "GET /offers/:id/fare_rules": {
    allow: "signed-in",
    params: () => ({ id: "missing" }),
    query: () => ({ search_result_id: "missing" }),
  },
  "GET /offers/:id/ancillaries": {
    allow: "signed-in",
    params: () => ({ id: "missing" }),
    query: () => ({ search_result_id: "missing" }),
  },
  "POST /bookings": { allow: "signed-in" },
  "POST /bookings/issue": {
    allow: "signed-in",
    body: (t) => ({ locator: t.bookingLocator }),
    tenantIdsInBody: true,
  },
  "POST /bookings/reprice": {
    allow: "signed-in",
    body: (t) => ({ locator: t.bookingLocator }),
    tenantIdsInBody: true,
  },
  "POST /bookings/reshop": {
    allow: "signed-in",
    body: (t) => ({ locator: t.bookingLocator }),
    tenantIdsInBody: true,
  },
  "POST /bookings/comment": {
    allow: "signed-in",
    body: (t) => ({ locator: t.bookingLocator, comment: "probe" }),
    tenantIdsInBody: true,
  },
  "POST /bookings/modify": {
    allow: "signed-in",
    body: (t) => ({ locator: t.bookingLocator }),
    tenantIdsInBody: true,
  },
  "DELETE /bookings/:locator": { allow: "signed-in", params: (t) => ({ locator: t.bookingLocator }) },
  // The traveller's itinerary e-mail (issue 24): on the bookings of the caller's scope.
  "POST /bookings/:locator/itinerary_mails": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({ itinerary: { to: "probe@example.org" } }),
  },
  "GET /bookings/:locator/itinerary_mails": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
  },
  // After sales: every user type on the bookings of its scope; another tenant's locator answers 404.
  "POST /orders/:locator/refund_requests/create": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({}),
  },
  "POST /orders/:locator/refund_requests/confirm": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({ quote_id: "probe" }),
  },
  "POST /orders/:locator/flights_change_requests/create": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({ departure_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) }),
  },
  "POST /orders/:locator/reshop_offers/price": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({}),
  },
  "POST /orders/:locator/flights_change_requests/confirm": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({ reshop_offer_id: "probe" }),
  },
  "POST /orders/:locator/schedule_change/check": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({}),
  },
  "POST /orders/:locator/schedule_change/answer": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({ change_id: "probe", choice: "accept" }),
  },
  // Ancillaries and EMDs: every user type on the bookings of its scope; probes name items and EMDs that do not exist.
  "GET /bookings/:locator/ancillaries": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    query: () => ({ type: "bag" }),
  },
  "GET /bookings/:locator/seat_map": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    query: () => ({ segment: "probe" }),
  },
  "POST /bookings/:locator/ancillaries": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator }),
    body: () => ({ items: [{ ancillary_id: "probe", passenger_index: 0 }] }),
  },
  "POST /bookings/:locator/emds/:emd_number/refund": {
    allow: "signed-in",
    params: (t) => ({ locator: t.bookingLocator, emd_number: "5660000000000" }),
    body: () => ({}),
  },

  // Travellers the agency keeps (issue 23): every seller keeps them in its scope (agents their companies, supervisors
  // their agency, a demo user its sandbox), auditors read; erasing is the supervisors' and administrators'. Another
  // tenant's traveller answers 404; the erase probe names one that does not exist.
  "GET /travellers": { allow: "signed-in", query: () => ({ q: "matrix" }) },
  "GET /travellers/:id": { allow: "signed-in", params: (t) => ({ id: t.travellerId }) },
  "POST /travellers": { allow: "signed-in", body: () => ({ traveller: travellerProfile }) },
  "PUT /travellers/:id": {
    allow: "signed-in",
    params: (t) => ({ id: t.travellerId }),
    body: () => ({ traveller: travellerProfile }),
  },
  "DELETE /travellers/:id": { allow: ["Supervisor", ...administrators], params: () => ({ id: "missing" }) },

  // Ticketing gates, channels, credentials and cards (issue 11). Gates and source channels are administrators';
  // an agency's channels and cards its supervisors' too. Bodies ask for what already is (gates open, channel on),
  // or name missing ids, so the probes change nothing the other rows rely on.
  "PATCH /ticketing/main_gate": { allow: administrators, body: () => ({ active: true }) },
  "PATCH /ticketing/agency_gate": { allow: administrators, body: () => ({ active: true }) },
  "PATCH /ticketing/channel_gate": { allow: administrators, body: () => ({ active: true }) },
  "PATCH /ticketing/agency_gates/:id": {
    allow: administrators,
    params: (t) => ({ id: t.agencyId }),
    body: () => ({ active: true }),
  },
  "PATCH /ticketing/company_gates/:id": {
    allow: administrators,
    params: (t) => ({ id: t.companyIds[0] ?? "" }),
    body: () => ({ active: true }),
  },
  "PATCH /ticketing/source_channels/:channel": {
    allow: administrators,
    params: () => ({ channel: dniproChannel }),
    query: () => ({ type: "web" }),
    body: () => ({ active: true }),
  },
  "POST /ticketing/agency_channels": { allow: administrators },
  "DELETE /ticketing/agency_channels/:id": { allow: administrators, params: () => ({ id: "missing" }) },
  "PATCH /ticketing/agency_channels/:id": {
    allow: ["Supervisor", ...administrators],
    params: () => ({ id: dniproChannel }),
    body: () => ({ on_by_supervisor: true }),
  },
  "POST /ticketing/agency_channels/:id/credit_cards": {
    allow: ["Supervisor", ...administrators],
    params: () => ({ id: dniproChannel }),
    body: () => ({ credit_card_id: "missing" }),
  },
  "DELETE /ticketing/agency_channels/:id/credit_cards/:card_id": {
    allow: ["Supervisor", ...administrators],
    params: () => ({ id: dniproChannel, card_id: "missing" }),
  },
  "PATCH /ticketing/company_channels/:id": {
    allow: ["Supervisor", ...administrators],
    params: (t) => ({ id: `${dniproChannel}_${t.companyIds[0]}` }),
    body: () => ({ active: true }),
  },
  "POST /ticketing/agency_channels/:id/credential": {
    allow: administrators,
    params: () => ({ id: "missing" }),
    body: () => ({ login: "probe", password: "probe" }),
  },
  "PATCH /ticketing/agency_channels/:id/credential": {
    allow: administrators,
    params: () => ({ id: "missing" }),
    body: () => ({ login: "probe", password: "probe" }),
  },
  "POST /credit_cards": { allow: ["Supervisor", ...administrators] },
  "PATCH /credit_cards/:id": {
    allow: ["Supervisor", ...administrators],
    params: () => ({ id: "missing" }),
    body: () => ({ holder: "PROBE HOLDER" }),
  },
  "DELETE /credit_cards/:id": { allow: ["Supervisor", ...administrators], params: () => ({ id: "missing" }) },
  "GET /ticketing/gates": { allow: readers },
  "GET /ticketing/agency_channels": { allow: ["Supervisor", ...readers] },
  "GET /ticketing/agency_channels/:id": {
    allow: ["Supervisor", ...readers],
    params: () => ({ id: dniproChannel }),
  },
  "GET /credit_cards": { allow: ["Supervisor", ...readers] },
  "GET /ticketing/channel_history": { allow: ["Supervisor", ...readers] },
  "GET /ticketing/channel_history/:event_id": {
    allow: ["Supervisor", ...readers],
    params: () => ({ event_id: "missing" }),
  },

  // Audit (issue 14): the history and its export scoped like bookings; the whole log's verifier and anchors for
  // those who read the whole log.
  "GET /audit/events": { allow: "signed-in", query: (t) => ({ locator: t.bookingLocator }) },
  "GET /audit/export": { allow: "signed-in", query: (t) => ({ locator: t.bookingLocator }) },
  // The history's pickers: names within the caller's own history scope (themselves at least).
  "GET /audit/names": { allow: "signed-in", query: () => ({ q: "a" }) },
  "GET /audit/verify": { allow: [...administrators, "Auditor"] },
  "GET /audit/anchors": { allow: [...administrators, "Auditor"] },
  // Replays side by side (issue 14): the log's readers compare (auditors too: scratch tables, nothing anyone reads),
  // administrators alone switch. Probes name a projection that does not exist and a run that does not.
  "GET /audit/replays": { allow: [...administrators, "Auditor"] },
  "GET /audit/replays/:id": {
    allow: [...administrators, "Auditor"],
    params: () => ({ id: "00000000-0000-4000-8000-000000000000" }),
  },
  "POST /audit/replays": { allow: [...administrators, "Auditor"], body: () => ({ projection: "probe" }) },
  "POST /audit/replays/:id/switch": {
    allow: administrators,
    params: () => ({ id: "00000000-0000-4000-8000-000000000000" }),
  },
  // The public API's OpenAPI 3.1 document (generated from the contracts).
  "GET /openapi.json": { allow: "public" },
  // Time travel: each caller within the scope it has today; another tenant's booking answers 404.
  "GET /audit/as_of/:kind/:id": {
    allow: "signed-in",
    params: (t) => ({ kind: "booking", id: t.bookingLocator }),
    query: () => ({ at: new Date().toISOString() }),
  },
};
