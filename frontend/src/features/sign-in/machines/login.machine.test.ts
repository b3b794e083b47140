import { afterEach, describe, expect, it } from "@jest/globals";
import type { AuthMethod, SignInResponse, StartSignInResponse } from "@skyward/contracts/account";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import type { Language } from "../../../lib/i18n.ts";
import { setSiteLanguage, siteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import type { SignInInput } from "../api/sign-in.ts";
import { BUSY_TAGS, isCodeSpent, loginMachine } from "./login.machine.ts";

const signedIn = (language: SignInResponse["account"]["language"] = "en"): SignInResponse => ({
  account: {
    skyward_id: "u-1",
    email: "agent@dnipro.test",
    first_name: "Taras",
    last_name: "Shevchuk",
    user_type: "Agent",
    phone: "+380671112233",
    language,
    company: { id: "c-1", name: "Dnipro Travel Kyiv" },
    companies: [{ id: "c-1", name: "Dnipro Travel Kyiv" }],
    agencies: [{ id: "a-1", name: "Dnipro Travel" }],
    demo_user: false,
    logo: null,
    score: null,
  },
  onboarding: "done",
  position: "10-20",
});

const refused = (code: string, detail: string) =>
  new ApiError(401, [{ status: "401", code, title: "Sign-in failed", detail }]);

type Reply<T> = T | Error;

/** Runs the machine against scripted server answers and records what it asked for. */
function startLogin(script: {
  authMethod?: AuthMethod;
  signIn?: Reply<SignInResponse>[];
  voice?: Reply<void>[];
  start?: Reply<void>[];
}) {
  const calls: string[] = [];
  const answer = <T>(reply: Reply<T> | undefined, fallback: T): Promise<T> =>
    reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply ?? fallback);
  const machine = loginMachine.provide({
    actors: {
      startSignIn: fromPromise<StartSignInResponse, { email: string; language: Language }>(
        async ({ input }) => {
          calls.push(`start_sign_in ${input.email} ${input.language}`);
          await answer(script.start?.shift(), undefined);
          return { account: { auth_method: script.authMethod ?? "otp" }, position: null };
        },
      ),
      sendVoiceOtp: fromPromise<StartSignInResponse, { email: string }>(async ({ input }) => {
        calls.push(`send_voice_otp ${input.email}`);
        await answer(script.voice?.shift(), undefined);
        return { account: { auth_method: "otp" }, position: null };
      }),
      signIn: fromPromise<SignInResponse, { credentials: SignInInput; keepSiteLanguage: boolean }>(
        async ({ input }) => {
          const { credentials } = input;
          calls.push(
            "otp_attempt" in credentials
              ? `sign_in ${credentials.email} code ${credentials.otp_attempt}`
              : `sign_in ${credentials.email} password ${credentials.password}`,
          );
          return answer(script.signIn?.shift(), signedIn());
        },
      ),
    },
  });
  const actor = createActor(machine, { input: { language: "en" } }).start();
  const settled = () => waitFor(actor, (snapshot) => !BUSY_TAGS.some((tag) => snapshot.hasTag(tag)));
  return { actor, calls, settled };
}

afterEach(async () => {
  clearNotifications();
  await setSiteLanguage("en");
  window.localStorage.clear();
});

describe("login machine", () => {
  it("starts with the e-mail step", () => {
    const { actor } = startLogin({});
    expect(actor.getSnapshot().value).toEqual({ initial: "editing" });
  });

  it("goes to the code step when the account signs in by code, and signs in with the code", async () => {
    const { actor, calls, settled } = startLogin({ authMethod: "otp" });
    actor.send({ type: "email.submit", email: " agent@dnipro.test ", language: "en" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ otp: "entering" });
    expect(actor.getSnapshot().context).toMatchObject({ email: "agent@dnipro.test", codesSent: 1 });

    actor.send({ type: "code.submit", code: "123456" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(actor.getSnapshot().output?.account.email).toBe("agent@dnipro.test");
    expect(calls).toEqual(["start_sign_in agent@dnipro.test en", "sign_in agent@dnipro.test code 123456"]);
  });

  it("goes to the password step when the account signs in by password", async () => {
    const { actor, calls, settled } = startLogin({ authMethod: "password" });
    actor.send({ type: "email.submit", email: "agent@vistula.test", language: "pl" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ password: "entering" });

    actor.send({ type: "password.submit", password: "skyward-demo-2026" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(calls).toEqual([
      "start_sign_in agent@vistula.test pl",
      "sign_in agent@vistula.test password skyward-demo-2026",
    ]);
  });

  it("returns from the code step to the e-mail step when the e-mail is changed, keeping what was typed", async () => {
    const { actor, settled } = startLogin({});
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    actor.send({ type: "email.change" });
    expect(actor.getSnapshot().value).toEqual({ initial: "editing" });
    expect(actor.getSnapshot().context).toMatchObject({
      email: "agent@dnipro.test",
      authMethod: null,
      codesSent: 0,
    });
  });

  it("goes from the code step to voice-otp when a call is requested", async () => {
    const { actor, calls, settled } = startLogin({});
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    actor.send({ type: "call.request" });
    expect(actor.getSnapshot().value).toEqual({ "voice-otp": "calling" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ "voice-otp": "entering" });
    expect(actor.getSnapshot().context.codesSent).toBe(2);

    actor.send({ type: "code.submit", code: "654321" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(calls).toEqual([
      "start_sign_in agent@dnipro.test en",
      "send_voice_otp agent@dnipro.test",
      "sign_in agent@dnipro.test code 654321",
    ]);
  });

  it("stays with the e-mailed code when the call cannot be placed", async () => {
    const tooMany = new ApiError(429, [{ status: "429", code: "rate_limited", title: "Too many requests" }]);
    const { actor, settled } = startLogin({ voice: [tooMany] });
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    actor.send({ type: "call.request" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ otp: "entering" });
  });

  it("from voice-otp, sends a new code by e-mail and goes back to the code step", async () => {
    const { actor, calls, settled } = startLogin({});
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    actor.send({ type: "call.request" });
    await settled();
    actor.send({ type: "code.resend" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ otp: "entering" });
    expect(calls.at(-1)).toBe("start_sign_in agent@dnipro.test en");
    actor.send({ type: "email.change" });
    expect(actor.getSnapshot().value).toEqual({ initial: "editing" });
  });

  it("records each refusal, marks a locked code as spent, and a new code clears it", async () => {
    const { actor, calls, settled } = startLogin({
      signIn: [
        refused("code_wrong", "The code is not correct. 4 attempts left."),
        refused("code_locked", "Too many wrong codes: this code no longer works. Request a new code."),
      ],
    });
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();

    actor.send({ type: "code.submit", code: "000000" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ otp: "entering" });
    expect(actor.getSnapshot().context).toMatchObject({ refusal: "code_wrong", refusals: 1 });
    expect(isCodeSpent(actor.getSnapshot().context.refusal)).toBe(false);

    actor.send({ type: "code.submit", code: "111111" });
    await settled();
    expect(isCodeSpent(actor.getSnapshot().context.refusal)).toBe(true);

    actor.send({ type: "code.resend" });
    await settled();
    expect(actor.getSnapshot().context).toMatchObject({ refusal: null, codesSent: 2 });
    actor.send({ type: "code.submit", code: "222222" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(calls.filter((call) => call.startsWith("start_sign_in"))).toHaveLength(2);
  });

  it("lets the visitor try again when the server cannot be reached", async () => {
    const { actor, calls, settled } = startLogin({ start: [new ApiError(0, [])] });
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ initial: "editing" });
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ otp: "entering" });
    expect(calls).toHaveLength(2);
  });

  it("offers the code again from the password step only to accounts that sign in by code", async () => {
    const byCode = startLogin({ authMethod: "otp" });
    byCode.actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await byCode.settled();
    byCode.actor.send({ type: "password.use" });
    expect(byCode.actor.getSnapshot().value).toEqual({ password: "entering" });
    byCode.actor.send({ type: "code.use" });
    expect(byCode.actor.getSnapshot().value).toEqual({ otp: "entering" });

    const byPassword = startLogin({ authMethod: "password" });
    byPassword.actor.send({ type: "email.submit", email: "agent@vistula.test", language: "en" });
    await byPassword.settled();
    byPassword.actor.send({ type: "code.use" });
    expect(byPassword.actor.getSnapshot().value).toEqual({ password: "entering" });
  });

  it("ignores a second submit while the first code is being checked", async () => {
    const { actor, calls, settled } = startLogin({});
    actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
    await settled();
    actor.send({ type: "code.submit", code: "123456" });
    actor.send({ type: "code.submit", code: "123456" });
    await waitFor(actor, (snapshot) => snapshot.status === "done");
    expect(calls.filter((call) => call.startsWith("sign_in"))).toHaveLength(1);
  });
});

type ServerReply = { status?: number; body: unknown } | Error;

/** The real actors against a stand-in server: each path answers with its next scripted reply. */
function fakeServer(replies: Record<string, ServerReply[]>) {
  const original = globalThis.fetch;
  const paths: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const path = String(input);
    paths.push(path);
    const reply = path === "/csrf" ? { body: { token: "t" } } : replies[path]?.shift();
    if (!reply) throw new Error(`unexpected call ${path}`);
    if (reply instanceof Error) throw reply;
    const status = reply.status ?? 200;
    return {
      ok: status < 300,
      status,
      headers: new Headers({ "content-type": "application/json" }),
      text: async () => JSON.stringify(reply.body),
    } as unknown as Response;
  }) as typeof fetch;
  return {
    paths,
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

const errorBody = (status: number, code: string, detail?: string) => ({
  status,
  body: {
    errors: [{ status: String(status), code, title: "Sign-in failed", ...(detail ? { detail } : {}) }],
  },
});

describe("login machine against the server", () => {
  const byCode = { body: { account: { auth_method: "otp" }, position: null } };
  const byPassword = { body: { account: { auth_method: "password" }, position: null } };

  it("shows each refused code's detail as an error, and signs in with a fresh code", async () => {
    const server = fakeServer({
      "/start_sign_in": [byCode, byCode],
      "/sign_in": [
        errorBody(401, "code_wrong", "The code is not correct. 4 attempts left."),
        errorBody(401, "code_locked", "Too many wrong codes: this code no longer works. Request a new code."),
        { body: signedIn() },
      ],
    });
    try {
      const actor = createActor(loginMachine, { input: { language: "en" } }).start();
      actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
      await waitFor(actor, (snapshot) => snapshot.matches({ otp: "entering" }));
      for (const code of ["000000", "111111"]) {
        actor.send({ type: "code.submit", code });
        await waitFor(actor, (snapshot) => snapshot.matches({ otp: "entering" }));
      }
      expect(currentNotifications().map(({ text, type }) => ({ text, type }))).toEqual([
        { text: "The code is not correct. 4 attempts left.", type: "error" },
        { text: "Too many wrong codes: this code no longer works. Request a new code.", type: "error" },
      ]);
      expect(actor.getSnapshot().context.refusal).toBe("code_locked");

      actor.send({ type: "code.resend" });
      await waitFor(actor, (snapshot) => snapshot.matches({ otp: "entering" }));
      actor.send({ type: "code.submit", code: "222222" });
      await waitFor(actor, (snapshot) => snapshot.status === "done");
      expect(window.localStorage.getItem("skyward.session")).toBe("1");
    } finally {
      server.restore();
    }
  });

  it("shows the title when an error has no detail", async () => {
    const server = fakeServer({ "/start_sign_in": [errorBody(429, "sign_in_refused")] });
    try {
      const actor = createActor(loginMachine, { input: { language: "en" } }).start();
      actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
      await waitFor(actor, (snapshot) => snapshot.matches({ initial: "editing" }));
      expect(currentNotifications().map((n) => n.text)).toEqual(["Sign-in failed"]);
    } finally {
      server.restore();
    }
  });

  it("says the server has problems when it cannot be reached", async () => {
    const server = fakeServer({ "/start_sign_in": [new TypeError("Failed to fetch")] });
    try {
      const actor = createActor(loginMachine, { input: { language: "en" } }).start();
      actor.send({ type: "email.submit", email: "agent@dnipro.test", language: "en" });
      await waitFor(actor, (snapshot) => snapshot.matches({ initial: "editing" }));
      expect(currentNotifications().map(({ text, type }) => ({ text, type }))).toEqual([
        { text: "There are problems on the server", type: "error" },
      ]);
    } finally {
      server.restore();
    }
  });

  it("takes the account's language after signing in", async () => {
    const server = fakeServer({ "/start_sign_in": [byPassword], "/sign_in": [{ body: signedIn("pl") }] });
    try {
      const actor = createActor(loginMachine, { input: { language: "en" } }).start();
      actor.send({ type: "email.submit", email: "agent@vistula.test", language: "en" });
      await waitFor(actor, (snapshot) => snapshot.matches({ password: "entering" }));
      actor.send({ type: "password.submit", password: "skyward-demo-2026" });
      await waitFor(actor, (snapshot) => snapshot.status === "done");
      expect(siteLanguage()).toBe("pl");
    } finally {
      server.restore();
    }
  });

  it("keeps the language the visitor picked on the form", async () => {
    const server = fakeServer({ "/start_sign_in": [byPassword], "/sign_in": [{ body: signedIn("pl") }] });
    try {
      const actor = createActor(loginMachine, { input: { language: "en" } }).start();
      actor.send({ type: "language.change", language: "fr" });
      await setSiteLanguage("fr");
      actor.send({ type: "email.submit", email: "agent@vistula.test", language: "fr" });
      await waitFor(actor, (snapshot) => snapshot.matches({ password: "entering" }));
      actor.send({ type: "password.submit", password: "skyward-demo-2026" });
      await waitFor(actor, (snapshot) => snapshot.status === "done");
      expect(siteLanguage()).toBe("fr");
    } finally {
      server.restore();
    }
  });
});
