import { describe, expect, it } from "@jest/globals";
import { TERMS_VERSION } from "@skyward/contracts/account";
import type { UserRegistered } from "@skyward/contracts/directory";
import { deciderKit } from "../testing/decider-kit.ts";
import { type AccountCommand, decideAccount, decideEmailChange, type EmailChangeCommand } from "./decide.ts";
import { type EmailClaim, evolveUser, noUser, type UserEvent, type UserState } from "./user.ts";

const registered: UserEvent = {
  type: "UserRegistered",
  data: {
    user_id: "u1",
    email: "taras@dnipro.test",
    first_name: "Taras",
    last_name: "Shevchuk",
    user_type: "Agent",
    phone: null,
    language: "en",
    agency_id: "a1",
    company_ids: ["c1"],
    demo_user: false,
    auth_method: "otp",
  } satisfies UserRegistered,
};
const infoCompleted: UserEvent = {
  type: "AccountInfoCompleted",
  data: { first_name: "Taras", last_name: "Shevchuk" },
};
const termsAccepted: UserEvent = { type: "TermsAccepted", data: { terms_version: TERMS_VERSION } };

/** given(events).when(command) → thenEvents(events) | thenRefused(error code); whenEmail: the email change's. */
const account = deciderKit<AccountCommand, UserState, UserEvent>({
  decide: decideAccount,
  evolve: evolveUser,
  initial: noUser,
});
function given(...history: UserEvent[]) {
  const then = account.given(...history);
  return {
    ...then,
    whenEmail: (command: EmailChangeCommand, claim: EmailClaim = { user_id: null }) =>
      decideEmailChange(command, then.state, claim),
  };
}

describe("account decider", () => {
  it("given a user, when a sign-in is recorded, then UserSignedIn carries the method and client, never a secret", () => {
    given(registered)
      .when({ type: "RecordSignIn", method: "email_code", ip: "127.0.0.1", userAgent: "jest" })
      .thenEvents([
        { type: "UserSignedIn", data: { method: "email_code", ip: "127.0.0.1", user_agent: "jest" } },
      ]);
  });

  it("given no user, when any account command comes, then it is refused as not found", () => {
    given().when({ type: "RecordSignOut" }).thenRefused("account_not_found");
  });

  it("given a new user, when account info is completed, then AccountInfoCompleted keeps only the fields given", () => {
    given(registered)
      .when({
        type: "CompleteAccountInfo",
        info: { first_name: "Taras", last_name: "Shevchenko", language: "ua" },
      })
      .thenEvents([
        {
          type: "AccountInfoCompleted",
          data: { first_name: "Taras", last_name: "Shevchenko", language: "ua" },
        },
      ]);
  });

  it("given account info and then the terms, then onboarding goes initial → privacy → done", () => {
    expect([registered].reduce(evolveUser, noUser)).toMatchObject({ onboarding: "initial" });
    expect([registered, infoCompleted].reduce(evolveUser, noUser)).toMatchObject({ onboarding: "privacy" });
    expect([registered, infoCompleted, termsAccepted].reduce(evolveUser, noUser)).toMatchObject({
      onboarding: "done",
      terms_version: TERMS_VERSION,
    });
  });

  it("given a finished onboarding, when account info comes again, then it is refused", () => {
    given(registered, infoCompleted, termsAccepted)
      .when({ type: "CompleteAccountInfo", info: { first_name: "A", last_name: "B" } })
      .thenRefused("onboarded");
  });

  it("given a new user, when the terms are accepted before the account info, then it is refused", () => {
    given(registered)
      .when({ type: "AcceptTerms", version: TERMS_VERSION })
      .thenRefused("account_info_missing");
  });

  it("given account info, when the terms are accepted, then the version is recorded once", () => {
    given(registered, infoCompleted)
      .when({ type: "AcceptTerms", version: TERMS_VERSION })
      .thenEvents([termsAccepted]);
    given(registered, infoCompleted, termsAccepted)
      .when({ type: "AcceptTerms", version: TERMS_VERSION })
      .thenEvents([]);
  });

  it("given a user, when details are updated, then only the changed fields are recorded", () => {
    given(registered)
      .when({ type: "UpdateAccountDetails", changes: { first_name: "Taras", last_name: "Shevchenko" } })
      .thenEvents([{ type: "AccountDetailsUpdated", data: { last_name: "Shevchenko" } }]);
    given(registered)
      .when({ type: "UpdateAccountDetails", changes: { first_name: "Taras" } })
      .thenEvents([]);
  });

  it("given a user, when locale or phone are set, then a change is recorded only when they differ", () => {
    given(registered).when({ type: "ChangeLocale", language: "en" }).thenEvents([]);
    given(registered)
      .when({ type: "ChangeLocale", language: "pl" })
      .thenEvents([{ type: "LocaleChanged", data: { language: "pl" } }]);
    given(registered)
      .when({ type: "ChangePhone", phone: "+380671112233" })
      .thenEvents([{ type: "PhoneChanged", data: { phone: "+380671112233" } }]);
  });

  it("given a user, when an API token is issued, then the event tells whether it replaces one", () => {
    given(registered)
      .when({ type: "IssueApiToken" })
      .thenEvents([{ type: "ApiTokenIssued", data: { replaced: false } }]);
    given(registered, { type: "ApiTokenIssued", data: { replaced: false } })
      .when({ type: "IssueApiToken" })
      .thenEvents([{ type: "ApiTokenIssued", data: { replaced: true } }]);
  });

  it("given a user with an API token, when it is revoked, then ApiTokenRevoked; without one, 404 api_token_not_found", () => {
    given(registered, { type: "ApiTokenIssued", data: { replaced: false } })
      .when({ type: "RevokeApiToken" })
      .thenEvents([{ type: "ApiTokenRevoked", data: {} }]);
    expect(() =>
      given(
        registered,
        { type: "ApiTokenIssued", data: { replaced: false } },
        { type: "ApiTokenRevoked", data: {} },
      )
        .when({ type: "RevokeApiToken" })
        .thenEvents([]),
    ).toThrow("This account has no API token");
  });
});

describe("e-mail change decider", () => {
  it("given a free address, when a change to it is requested, then EmailChangeRequested is recorded", () => {
    expect(given(registered).whenEmail({ type: "RequestEmailChange", newEmail: "t@new.test" })).toEqual({
      user: [{ type: "EmailChangeRequested", data: { new_email: "t@new.test" } }],
      previousAddress: [],
      newAddress: [],
    });
  });

  it("given an address another user holds, when a change to it is requested, then it is recorded as for a free one", () => {
    expect(
      given(registered).whenEmail(
        { type: "RequestEmailChange", newEmail: "t@new.test" },
        { user_id: "someone-else" },
      ),
    ).toEqual({
      user: [{ type: "EmailChangeRequested", data: { new_email: "t@new.test" } }],
      previousAddress: [],
      newAddress: [],
    });
  });

  it("given an address another user holds, when the change is confirmed, then it is refused as taken", () => {
    expect(() =>
      given(registered).whenEmail(
        { type: "ChangeEmail", newEmail: "t@new.test" },
        { user_id: "someone-else" },
      ),
    ).toThrow(expect.objectContaining({ code: "email_taken" }));
  });

  it("given the user's own address, when a change to it is requested, then it is refused", () => {
    expect(() =>
      given(registered).whenEmail({ type: "RequestEmailChange", newEmail: "taras@dnipro.test" }),
    ).toThrow(expect.objectContaining({ code: "email_unchanged" }));
  });

  it("given a free address, when the change is confirmed, then the old claim is released and the new one taken", () => {
    expect(given(registered).whenEmail({ type: "ChangeEmail", newEmail: "t@new.test" })).toEqual({
      user: [{ type: "EmailChanged", data: { email: "t@new.test", previous_email: "taras@dnipro.test" } }],
      previousAddress: [{ type: "EmailReleased", data: { user_id: "u1" } }],
      newAddress: [{ type: "EmailClaimed", data: { user_id: "u1" } }],
    });
  });
});
