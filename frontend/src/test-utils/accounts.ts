import type { AccountDetailsResponse, Onboarding } from "@skyward/contracts/account";

/** An agent's GET /account/details, as the demo world's Taras Shevchuk. */
export function accountDetails(onboarding: Onboarding = "done"): AccountDetailsResponse {
  return {
    account: {
      skyward_id: "u-taras",
      email: "agent@dnipro.test",
      first_name: "Taras",
      last_name: "Shevchuk",
      user_type: "Agent",
      phone: "+380671112233",
      language: "en",
      company: { id: "c-kyiv", name: "Dnipro Travel Kyiv" },
      companies: [{ id: "c-kyiv", name: "Dnipro Travel Kyiv" }],
      agencies: [{ id: "a-dnipro", name: "Dnipro Travel" }],
      demo_user: false,
      logo: null,
      score: null,
    },
    settings: { active: true, active_by_supervisor: true, api_token: false, channels: [] },
    onboarding,
    terms_version: onboarding === "done" ? "2026-11" : null,
  };
}
