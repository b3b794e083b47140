import { describe, expect, it } from "@jest/globals";
import { AccountDetailsResponse, Onboarding } from "./account.ts";
import { Language } from "./ids.ts";
import { UserType } from "./metadata.ts";
import { accountDetailsOf, SESSION_CHECK_LISTS } from "./session-check.ts";

const session = {
  account: {
    skyward_id: "u-1",
    email: "agent@dnipro.test",
    first_name: "Taras",
    last_name: "Shevchuk",
    user_type: "Agent",
    phone: null,
    language: "ua",
    company: { id: "c-1", name: "Dnipro Travel" },
    companies: [{ id: "c-1", name: "Dnipro Travel" }],
    agencies: [],
    demo_user: true,
    logo: null,
    score: null,
  },
  settings: { active: true, active_by_supervisor: true, api_token: false, channels: [{ any: "shape" }] },
  onboarding: "done",
  terms_version: "2026-11",
};

type Sample = Record<string, unknown>;
const withAccount = (change: Sample): Sample => ({ ...session, account: { ...session.account, ...change } });
const withSettings = (change: Sample): Sample => ({
  ...session,
  settings: { ...session.settings, ...change },
});

/** What the zod-free check gives: the parsed session, or "refused". */
function checked(value: unknown): unknown {
  try {
    return accountDetailsOf(value);
  } catch {
    return "refused";
  }
}
function parsed(value: unknown): unknown {
  const result = AccountDetailsResponse.safeParse(value);
  return result.success ? result.data : "refused";
}

describe("the session's check without zod", () => {
  it("given the same samples, when checked, then it accepts, refuses and answers what AccountDetailsResponse does", () => {
    const samples: unknown[] = [
      session,
      { ...session, extra: 1, account: { ...session.account, extra: 2 } },
      withAccount({ phone: "+380441234567", logo: "https://x.test/logo.png", score: 4.5, company: null }),
      withAccount({ email: "not-an-e-mail" }),
      withAccount({ email: `${"a".repeat(250)}@x.io` }),
      withAccount({ user_type: "Pilot" }),
      withAccount({ language: "de" }),
      withAccount({ company: { id: "c-1" } }),
      withAccount({ companies: null }),
      withAccount({ agencies: [{ id: 1, name: "x" }] }),
      withAccount({ demo_user: "yes" }),
      withAccount({ score: Number.NaN }),
      withAccount({ skyward_id: undefined }),
      withSettings({ active: null }),
      withSettings({ channels: {} }),
      { ...session, onboarding: "later" },
      { ...session, terms_version: null },
      { ...session, terms_version: 3 },
      { ...session, settings: undefined },
      null,
      [],
      "session",
    ];
    for (const [i, sample] of samples.entries()) expect([i, checked(sample)]).toEqual([i, parsed(sample)]);
  });

  it("given the contracts' enums, when compared, then the check's lists are the same", () => {
    expect(SESSION_CHECK_LISTS.LANGUAGES).toEqual(Language.options);
    expect(SESSION_CHECK_LISTS.USER_TYPES).toEqual(UserType.options);
    expect(SESSION_CHECK_LISTS.ONBOARDING).toEqual(Onboarding.options);
  });
});
