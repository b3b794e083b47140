import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { AccountCommandResponse, AccountDetailsResponse, TERMS_VERSION } from "@skyward/contracts/account";
import { sha256 } from "@skyward/infra/http/auth";
import { HttpClient, type HttpResponse } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.stop());

const signedIn = async (email: string) => {
  const client = t.client();
  await client.signInWithPassword(email, DEMO_PASSWORD);
  return client;
};
const userStream = (key: string) => `user-${demoId("user", key)}`;
const POSITION = /^\d+-\d+$/;

describe("onboarding", () => {
  it("when a new user submits account info and then accepts the terms, then onboarding goes initial → privacy → done", async () => {
    const client = await signedIn("demo@skyward.test");
    const early = await client.put("/account/terms", { terms: { version: TERMS_VERSION } });
    expect(early.status).toBe(422);
    expect(early.body.errors[0].code).toBe("account_info_missing");

    const info = await client.post(
      "/onboarding",
      {
        account: { first_name: " Dana ", last_name: "Demchenko", phone: "+380 50 123 45 67", language: "ua" },
      },
      { headers: { "x-http-method-override": "PUT" } },
    );
    expect(info.status).toBe(200);
    const completed = AccountCommandResponse.parse(info.body);
    expect(completed.data).toMatchObject({
      first_name: "Dana",
      last_name: "Demchenko",
      phone: "+380501234567",
      language: "ua",
      onboarding: "privacy",
    });
    const afterInfo = await client.get("/account/details", {
      headers: { "x-min-position": completed.position ?? "" },
    });
    expect(afterInfo.body.onboarding).toBe("privacy");
    expect(afterInfo.body.account).toMatchObject({ last_name: "Demchenko", phone: "+380501234567" });

    const stale = await client.put("/account/terms", { terms: { version: "2020-01" } });
    expect(stale.status).toBe(422);
    expect(stale.body.errors[0]).toMatchObject({
      source: { pointer: "/terms/version" },
      detail: `terms.version must be the current terms version ${TERMS_VERSION}`,
    });
    const accepted = await client.put("/account/terms", { terms: { version: TERMS_VERSION } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ onboarding: "done", terms_version: TERMS_VERSION });
    const details = await client.get("/account/details", {
      headers: { "x-min-position": accepted.body.position },
    });
    expect(details.body).toMatchObject({ onboarding: "done", terms_version: TERMS_VERSION });

    const events = (await t.events(userStream("demo-agent"))).map((e) => ({ type: e.type, data: e.data }));
    expect(events.slice(-2)).toEqual([
      {
        type: "AccountInfoCompleted",
        data: { first_name: "Dana", last_name: "Demchenko", phone: "+380501234567", language: "ua" },
      },
      { type: "TermsAccepted", data: { terms_version: TERMS_VERSION } },
    ]);

    const again = await client.post("/account/complete", { account: { first_name: "D", last_name: "D" } });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].code).toBe("onboarded");
  });

  it("when account info comes through POST /account/complete, then onboarding moves to privacy", async () => {
    const client = await signedIn("agent.lviv@dnipro.test");
    const res = await client.post("/account/complete", {
      account: { first_name: "Iryna", last_name: "Bondar" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.onboarding).toBe("privacy");
    const missing = await client.post("/account/complete", { account: { first_name: "Iryna" } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source).toEqual({ pointer: "/account/last_name" });
  });
});

describe("account details", () => {
  it("when the caller reads their account details, then they get account info and settings, with the api token only as a flag", async () => {
    const client = await signedIn("supervisor@dnipro.test");
    const res = await client.get("/account/details");
    expect(res.status).toBe(200);
    const body = AccountDetailsResponse.parse(res.body);
    expect(body.account).toEqual({
      skyward_id: demoId("user", "dnipro-supervisor"),
      email: "supervisor@dnipro.test",
      first_name: "Olena",
      last_name: "Kovalenko",
      user_type: "Supervisor",
      phone: "+380441234567",
      language: "ua",
      company: { id: demoId("company", "dnipro-kyiv"), name: "Dnipro Travel Kyiv" },
      companies: [
        { id: demoId("company", "dnipro-kyiv"), name: "Dnipro Travel Kyiv" },
        { id: demoId("company", "dnipro-lviv"), name: "Dnipro Travel Lviv" },
      ],
      agencies: [{ id: demoId("agency", "dnipro"), name: "Dnipro Travel" }],
      demo_user: false,
      logo: null,
      score: null,
    });
    // The partner's ticketing channels: Dnipro Travel has its one sandbox channel, on, paid from the balance.
    expect(body.settings).toEqual({
      active: true,
      active_by_supervisor: true,
      api_token: false,
      channels: [
        expect.objectContaining({
          id: demoId("channel", "dnipro"),
          title: "Sandbox NDC",
          currency: "UAH",
          active: true,
          form_of_payment: "balance",
          credential_set: false,
        }),
      ],
    });
    // Credentials are a flag here, never their values.
    expect(JSON.stringify(body.settings)).not.toMatch(/password|login/);
  });

  it("when names and phone are updated, then only the changed fields are recorded and the details show them", async () => {
    const client = await signedIn("agent@dnipro.test");
    const res = await client.put("/account/details", {
      account: { first_name: "Taras", last_name: "Shevchenko", phone: "+380 (67) 000-11-22" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ last_name: "Shevchenko", phone: "+380670001122" });
    const events = await t.events(userStream("dnipro-agent"));
    expect(events.at(-1)).toMatchObject({
      type: "AccountDetailsUpdated",
      data: { last_name: "Shevchenko", phone: "+380670001122" },
    });
    expect(events.at(-1)?.data).not.toHaveProperty("first_name");
    const details = await client.get("/account/details", {
      headers: { "x-min-position": res.body.position },
    });
    expect(details.body.account).toMatchObject({ last_name: "Shevchenko", phone: "+380670001122" });

    const empty = await client.put("/account/details", { account: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].detail).toBe(
      "account give at least one of first_name, last_name, phone, language",
    );
  });

  it("when the locale changes, then LocaleChanged is recorded once and a repeat changes nothing", async () => {
    const client = await signedIn("agent@dnipro.test");
    const res = await client.put("/account/details/update_locale", { language: "pl" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { language: "pl" }, position: expect.stringMatching(POSITION) });
    const repeat = await client.put("/account/details/update_locale", { language: "pl" });
    expect(repeat.body.position).toBeNull();
    const events = await t.events(userStream("dnipro-agent"));
    expect(events.filter((e) => e.type === "LocaleChanged").map((e) => e.data)).toEqual([{ language: "pl" }]);
    const wrong = await client.put("/account/details/update_locale", { language: "de" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].source).toEqual({ pointer: "/language" });
    const details = await client.get("/account/details", {
      headers: { "x-min-position": res.body.position },
    });
    expect(details.body.account.language).toBe("pl");
  });

  it("when a phone is set (POST) or changed (PUT), then PhoneChanged is recorded in international format", async () => {
    const client = await signedIn("agent.lviv@dnipro.test");
    const set = await client.post("/account/phone", { phone: "+48 22 123 45 67" });
    expect(set.status).toBe(200);
    expect(set.body.data.phone).toBe("+48221234567");
    const changed = await client.put("/account/phone", { phone: "+380931112233" });
    expect(changed.body.data.phone).toBe("+380931112233");
    const phones = (await t.events(userStream("dnipro-agent-lviv")))
      .filter((e) => e.type === "PhoneChanged")
      .map((e) => e.data.phone);
    expect(phones).toEqual(["+48221234567", "+380931112233"]);
    const bad = await client.put("/account/phone", { phone: "call me" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({
      source: { pointer: "/phone" },
      detail: "phone must be an international number such as +380441234567",
    });
  });
});

describe("changing the e-mail address", () => {
  it("when a new address is confirmed with the code sent to it, then the e-mail changes and both addresses' claims move", async () => {
    const client = await signedIn("agent@vistula.test");
    // An address with an account is answered alike (no enumeration); the mail to it says it is in use.
    const takenBefore = await client.latestMailId("supervisor@vistula.test");
    const taken = await client.put("/account/email", { email: "supervisor@vistula.test" });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({
      data: { pending_email: "supervisor@vistula.test" },
      position: expect.stringMatching(POSITION),
    });
    const inUse = await client.waitForMail("supervisor@vistula.test", takenBefore);
    // In the language of the address's owner, who reads it.
    expect(inUse.subject).toBe("Twój adres e-mail jest już używany w Skyward");
    expect(inUse.text).not.toMatch(/\d{6}/);

    const before = await client.latestMailId("piotr@vistula.test");
    const requested = await client.put("/account/email", { email: "Piotr@Vistula.test" });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({
      data: { pending_email: "piotr@vistula.test" },
      position: expect.stringMatching(POSITION),
    });
    const code = await client.codeFromMail("piotr@vistula.test", before);
    expect((await client.get("/dev/mailbox", { query: { to: "agent@vistula.test" } })).body.data).toEqual([]);

    const wrong = await client.put("/account/email", {
      email: "piotr@vistula.test",
      otp_attempt: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0]).toMatchObject({ code: "code_wrong", source: { pointer: "/otp_attempt" } });
    const otherAddress = await client.put("/account/email", { email: "pz@vistula.test", otp_attempt: code });
    expect(otherAddress.status).toBe(401);

    const confirmed = await client.put("/account/email", { email: "piotr@vistula.test", otp_attempt: code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.email).toBe("piotr@vistula.test");
    const details = await client.get("/account/details", {
      headers: { "x-min-position": confirmed.body.position },
    });
    expect(details.body.account.email).toBe("piotr@vistula.test");

    expect((await t.events("useremail-piotr@vistula.test")).map((e) => e.type)).toEqual(["EmailClaimed"]);
    expect((await t.events("useremail-agent@vistula.test")).map((e) => e.type)).toEqual([
      "EmailClaimed",
      "EmailReleased",
    ]);
    const userEvents = await t.events(userStream("vistula-agent"));
    expect(userEvents.at(-1)).toMatchObject({
      type: "EmailChanged",
      data: { email: "piotr@vistula.test", previous_email: "agent@vistula.test" },
    });
    expect(JSON.stringify(userEvents)).not.toContain(code);

    expect((await t.client().signInWithPassword("piotr@vistula.test", DEMO_PASSWORD)).status).toBe(200);
    const old = await t
      .client()
      .post("/sign_in", { account: { email: "agent@vistula.test", password: DEMO_PASSWORD } });
    expect(old.status).toBe(401);
  });
});

describe("API tokens", () => {
  it("when a token is issued, then it is shown once, stored hashed, and works as a bearer without CSRF", async () => {
    const client = await signedIn("supervisor@vistula.test");
    const res = await client.put("/account/api_token");
    expect(res.status).toBe(200);
    const token: string = res.body.data.token;
    expect(token).toMatch(/^sky_[A-Za-z0-9_-]{43}$/);
    expect(res.body.position).toMatch(POSITION);
    const stored = await t.db.pool.query("SELECT token_hash FROM app.api_tokens WHERE user_id = $1", [
      demoId("user", "vistula-supervisor"),
    ]);
    expect(stored.rows).toEqual([{ token_hash: sha256(token) }]);
    const events = await t.events(userStream("vistula-supervisor"));
    expect(events.at(-1)).toMatchObject({ type: "ApiTokenIssued", data: { replaced: false } });
    expect(JSON.stringify(events)).not.toContain(token);

    const api = HttpClient.withBearer(t.app.url, token);
    const details = await api.get("/account/details", { headers: { "x-min-position": res.body.position } });
    expect(details.status).toBe(200);
    expect(details.body.account.email).toBe("supervisor@vistula.test");
    expect(details.body.settings.api_token).toBe(true);
    expect(JSON.stringify(details.body)).not.toContain(token);

    const viaApi = await api.put("/account/details/update_locale", { language: "fr" });
    expect(viaApi.status).toBe(200);
    expect((await t.events(userStream("vistula-supervisor"))).at(-1)?.metadata).toMatchObject({
      source: "api",
    });

    const signOut = await api.delete("/sign_out");
    expect(signOut.status).toBe(422);
    expect(signOut.body.errors[0].code).toBe("no_session");

    const retried = await client.put("/account/api_token", undefined, {
      headers: { "idempotency-key": "token-1" },
    });
    expect(retried.status).toBe(400);
    expect(retried.body.errors[0].source).toEqual({ parameter: "Idempotency-Key" });

    const replaced = await client.put("/account/api_token");
    expect(replaced.body.data.token).not.toBe(token);
    expect((await api.get("/account/details")).status).toBe(401);
    const fresh = HttpClient.withBearer(t.app.url, replaced.body.data.token);
    expect((await fresh.get("/account/details")).status).toBe(200);
  });
});

describe("HTTP conventions", () => {
  it("when any response goes out, then it carries x-trace-id, errors included, and unknown routes answer 404 in the envelope", async () => {
    const client = t.client();
    const responses = [
      await client.get("/csrf"),
      await client.get("/no/such/route"),
      await client.post("/start_sign_in", { account: {} }),
      await client.get("/account/details"),
      await client.put("/account/details", { account: { first_name: "X" } }, { withoutCsrf: true }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 422, 401, 403]);
    for (const r of responses) expect(r.headers.get("x-trace-id")).toMatch(/^[A-Za-z0-9-]{8,64}$/);
    expect(responses[1]?.body).toEqual({
      errors: [
        {
          status: "404",
          code: "route_not_found",
          title: "Not found",
          detail: "No route for GET /no/such/route",
        },
      ],
    });
    const traced = await client.get("/csrf", { headers: { "x-trace-id": "trace-from-the-client-1" } });
    expect(traced.headers.get("x-trace-id")).toBe("trace-from-the-client-1");
  });

  it("when PUT or DELETE arrive as POST with X-HTTP-Method-Override, then they are routed as PUT or DELETE", async () => {
    const client = await signedIn("admin@skyward.test");
    const put = await client.post(
      "/account/details",
      { account: { last_name: "Lovelace" } },
      { headers: { "x-http-method-override": "PUT" } },
    );
    expect(put.status).toBe(200);
    expect(put.body.data.last_name).toBe("Lovelace");
    const out = await client.post("/sign_out", undefined, {
      headers: { "x-http-method-override": "DELETE" },
    });
    expect(out.status).toBe(200);
    expect((await client.get("/account/details")).status).toBe(401);
  });

  it("when a command is repeated with the same Idempotency-Key, then the first answer is replayed and nothing new is written", async () => {
    const client = await signedIn("support@skyward.test");
    const headers = { "idempotency-key": "rename-support-1" };
    const body = { account: { first_name: "Samantha" } };
    const first = await client.put("/account/details", body, { headers });
    const before = await t.countEventsButBackground();
    const second = await client.put("/account/details", body, { headers });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await t.countEventsButBackground()).toBe(before);
    const reused = await client.put("/account/details", { account: { first_name: "Other" } }, { headers });
    expect(reused.status).toBe(422);
  });
});

describe("bad input", () => {
  it("when input is malformed, missing, mistyped, oversized, unauthenticated or without CSRF token, then it is refused naming the field and nothing is written", async () => {
    const client = await signedIn("supervisor@dnipro.test");
    const anonymous = t.client();
    const before = await t.countEventsButBackground();
    const cases: [string, () => Promise<HttpResponse>, number, string?][] = [
      [
        "malformed e-mail",
        () => anonymous.post("/start_sign_in", { account: { email: "not-an-email" } }),
        422,
        "/account/email",
      ],
      ["missing account", () => anonymous.post("/sign_in", {}), 422, "/account"],
      [
        "neither code nor password",
        () => anonymous.post("/sign_in", { account: { email: "agent@dnipro.test" } }),
        422,
        "/account/otp_attempt",
      ],
      [
        "code of the wrong shape",
        () => anonymous.post("/sign_in", { account: { email: "agent@dnipro.test", otp_attempt: "12ab" } }),
        422,
        "/account/otp_attempt",
      ],
      [
        "wrong type",
        () => anonymous.post("/start_sign_in", { account: { email: 42 } }),
        422,
        "/account/email",
      ],
      [
        "name too long",
        () => client.put("/account/details", { account: { first_name: "x".repeat(101) } }),
        422,
        "/account/first_name",
      ],
      ["malformed JSON", () => client.put("/account/details", undefined, { rawBody: "{not json" }), 400],
      [
        "oversized body",
        () => client.put("/account/details", { account: { first_name: "x".repeat(200_000) } }),
        413,
      ],
      [
        "no CSRF token",
        () => client.put("/account/details", { account: { first_name: "X" } }, { withoutCsrf: true }),
        403,
      ],
      ["not signed in", () => anonymous.put("/account/details", { account: { first_name: "X" } }), 401],
      ["not signed in (token)", () => anonymous.put("/account/api_token"), 401],
    ];
    for (const [name, request, status, pointer] of cases) {
      const res = await request();
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(res.body.errors[0].status).toBe(String(status));
      expect(res.headers.get("x-trace-id")).toBeTruthy();
      if (pointer)
        expect({
          name,
          pointers: res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer),
        }).toEqual({ name, pointers: expect.arrayContaining([pointer]) });
    }
    expect(await t.countEventsButBackground()).toBe(before);
  });
});
