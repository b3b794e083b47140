import type { Channel } from "../features/channels/api/channels.ts";

/** Dnipro's sandbox channel as `GET /ticketing/agency_channels` answers it: on at every level, with a credential. */
export const sandboxChannel = {
  id: "ch1",
  agency_id: "a-dnipro",
  title: "Sandbox NDC",
  currency: "UAH",
  active: true,
  active_by_admin: true,
  active_by_company: true,
  active_by_main_gate: true,
  active_by_supervisor: true,
  active_credential: true,
  credential: { active: true, agency_id: "a-dnipro" },
  form_of_payment: "balance",
  credit_card: null,
  credit_cards: [],
  nego_code: "NEGO1",
  resident_fares_code: null,
  api: true,
  web: true,
  extension: false,
  companies: [],
} satisfies Channel;
