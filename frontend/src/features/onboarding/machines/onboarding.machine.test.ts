import { afterEach, describe, expect, it } from "@jest/globals";
import type { AccountCommandResponse } from "@skyward/contracts/account";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import { setSiteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications } from "../../../lib/notifications.ts";
import type { AccountInfo } from "../api/complete-account-info.ts";
import { onboardingMachine } from "./onboarding.machine.ts";

const info: AccountInfo = { first_name: "Taras", last_name: "Shevchuk", phone: "", language: "en" };

const profile = (onboarding: "privacy" | "done"): AccountCommandResponse => ({
  data: {
    skyward_id: "u-1",
    email: "agent@dnipro.test",
    first_name: "Taras",
    last_name: "Shevchuk",
    user_type: "Agent",
    phone: null,
    language: "en",
    onboarding,
    terms_version: onboarding === "done" ? "2026-11" : null,
  },
  position: "1-2",
});

function startOnboarding(
  onboarding: "initial" | "privacy",
  script: { complete?: (AccountCommandResponse | Error)[]; accept?: (AccountCommandResponse | Error)[] } = {},
) {
  const calls: string[] = [];
  const reply = (answer: AccountCommandResponse | Error | undefined, fallback: AccountCommandResponse) =>
    answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? fallback);
  const machine = onboardingMachine.provide({
    actors: {
      completeAccountInfo: fromPromise(async ({ input }: { input: AccountInfo }) => {
        calls.push(`PUT /onboarding ${input.first_name} ${input.last_name} ${input.phone}`);
        return reply(script.complete?.shift(), profile("privacy"));
      }),
      acceptTerms: fromPromise(async () => {
        calls.push("PUT /account/terms");
        return reply(script.accept?.shift(), profile("done"));
      }),
    },
  });
  const actor = createActor(machine, { input: { onboarding, info } }).start();
  return { actor, calls };
}

afterEach(async () => {
  clearNotifications();
  await setSiteLanguage("en");
});

describe("onboarding machine", () => {
  it("starts with the account info, then goes to privacy once it is submitted, then is done", async () => {
    const { actor, calls } = startOnboarding("initial");
    expect(actor.getSnapshot().value).toEqual({ initial: "editing" });

    actor.send({ type: "info.submit", info: { ...info, phone: "+380671112233" } });
    expect(actor.getSnapshot().value).toEqual({ initial: "submitting" });
    await waitFor(actor, (snapshot) => snapshot.matches("privacy"));
    expect(actor.getSnapshot().value).toEqual({ privacy: "reading" });

    actor.send({ type: "terms.accept" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(calls).toEqual(["PUT /onboarding Taras Shevchuk +380671112233", "PUT /account/terms"]);
  });

  it("resumes at privacy when the account info was submitted earlier", () => {
    const { actor } = startOnboarding("privacy");
    expect(actor.getSnapshot().value).toEqual({ privacy: "reading" });
  });

  it("stays on the account info when the server refuses it, marking the fields it names", async () => {
    const refused = new ApiError(422, [
      {
        status: "422",
        code: "invalid_input",
        title: "Invalid input",
        detail: "must be an international number such as +380441234567",
        source: { pointer: "/account/phone" },
      },
    ]);
    const { actor } = startOnboarding("initial", { complete: [refused] });
    actor.send({ type: "info.submit", info: { ...info, phone: "12" } });
    await waitFor(actor, (snapshot) => snapshot.matches({ initial: "editing" }));
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      phone: "must be an international number such as +380441234567",
    });
    expect(actor.getSnapshot().context.info.phone).toBe("12");

    actor.send({ type: "info.submit", info });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    await waitFor(actor, (snapshot) => snapshot.matches("privacy"));
  });

  it("stays on privacy when accepting fails, and accepts on a retry", async () => {
    const { actor, calls } = startOnboarding("privacy", { accept: [new ApiError(0, [])] });
    actor.send({ type: "terms.accept" });
    await waitFor(actor, (snapshot) => snapshot.matches({ privacy: "reading" }));
    actor.send({ type: "terms.accept" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(calls).toEqual(["PUT /account/terms", "PUT /account/terms"]);
  });

  it("ignores accepting the terms before the account info is in", () => {
    const { actor, calls } = startOnboarding("initial");
    actor.send({ type: "terms.accept" });
    expect(actor.getSnapshot().value).toEqual({ initial: "editing" });
    expect(calls).toEqual([]);
  });
});
