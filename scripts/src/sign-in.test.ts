import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { SignInResponse } from "@skyward/contracts/account";
import { SESSION_CACHE_MS, sha256 } from "@skyward/infra/http/auth";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
const realClock = () => new Date();
let clock = realClock;
beforeAll(async () => {
  // The rate-limit tests play clients at several addresses through X-Forwarded-For, as the proxy would set it.
  t = await startTestApp({ now: () => clock(), env: { TRUST_PROXY: "loopback" } });
});

/** Runs with the app's clock stopped mid-way through a 10-minute rate-limit window, so no window ends meanwhile. */
async function inOneRateLimitWindow(work: () => Promise<void>): Promise<void> {
  const window = 600_000;
  const at = new Date(Math.floor(Date.now() / window) * window + window / 2);
  clock = () => at;
  try {
    await work();
  } finally {
    clock = realClock;
  }
}
afterAll(() => t.stop());

const userStream = (key: string) => `user-${demoId("user", key)}`;
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function requestCode(client: HttpClient, email: string): Promise<string> {
  const before = await client.latestMailId(email);
  const res = await client.post("/start_sign_in", { account: { email, language: "en" } });
  expect(res.status).toBe(200);
  return client.codeFromMail(email, before);
}

describe("signing in by e-mail code", () => {
  it("when an agent enters the e-mailed code, then a session starts and the answer carries the account, onboarding state and position", async () => {
    const client = t.client();
    const start = await client.post("/start_sign_in", {
      account: { email: "Agent@Dnipro.test ", language: "en" },
    });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ account: { auth_method: "otp" }, position: null });
    const mail = await client.waitForMail("agent@dnipro.test", 0);
    expect(mail.subject).toBe("Your Skyward sign-in code");
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";

    const stored = await t.db.pool.query(
      "SELECT code_hash FROM app.otp_codes WHERE email = 'agent@dnipro.test'",
    );
    expect(stored.rows[0].code_hash).not.toContain(code);

    const res = await client.post("/sign_in", { account: { email: "agent@dnipro.test", otp_attempt: code } });
    expect(res.status).toBe(200);
    const body = SignInResponse.parse(res.body);
    expect(body.account).toMatchObject({
      email: "agent@dnipro.test",
      first_name: "Taras",
      user_type: "Agent",
      skyward_id: demoId("user", "dnipro-agent"),
      company: { id: demoId("company", "dnipro-kyiv"), name: "Dnipro Travel Kyiv" },
      agencies: [{ id: demoId("agency", "dnipro"), name: "Dnipro Travel" }],
    });
    expect(body.onboarding).toBe("initial");

    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/skyward_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);
    const cookie = client.cookie("skyward_session") ?? "";
    const sessions = await t.db.pool.query("SELECT id_hash, position FROM app.sessions WHERE user_id = $1", [
      demoId("user", "dnipro-agent"),
    ]);
    expect(sessions.rows).toEqual([{ id_hash: sha256(cookie), position: body.position }]);

    const events = await t.events(userStream("dnipro-agent"));
    const signedIn = events.filter((e) => e.type === "UserSignedIn");
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]?.data).toMatchObject({ method: "email_code" });
    expect(JSON.stringify(events)).not.toContain(code);

    const details = await client.get("/account/details", { headers: { "x-min-position": body.position } });
    expect(details.status).toBe(200);
    expect(details.body.account).toEqual(body.account);
    const used = await client.post("/sign_in", {
      account: { email: "agent@dnipro.test", otp_attempt: code },
    });
    expect(used.status).toBe(401);
  });

  it("when a voice call is requested, then the call reads out a new code that signs the user in and the e-mailed one stops working", async () => {
    const client = t.client();
    const emailed = await requestCode(client, "agent@dnipro.test");
    const call = await client.post("/send_voice_otp", { account: { email: "agent@dnipro.test" } });
    expect(call.status).toBe(200);
    expect(call.body).toEqual({ account: { auth_method: "otp" }, position: null });

    let spoken = "";
    for (let i = 0; i < 250 && !spoken; i++) {
      const calls = await client.get("/dev/voice", { query: { to: "+380671112233" } });
      spoken = calls.body.data[0]?.text ?? "";
      if (!spoken) await new Promise((r) => setTimeout(r, 20));
    }
    expect(spoken).toMatch(/^Your Skyward code is \d(, \d){5}\./);
    const voiceCode = (/is ([\d, ]+)\./.exec(spoken)?.[1] ?? "").replaceAll(", ", "");
    const byEmail = await client.get("/dev/voice", { query: { to: "agent@dnipro.test" } });
    expect(byEmail.body.data[0].text).toBe(spoken);

    if (voiceCode !== emailed) {
      const stale = await client.post("/sign_in", {
        account: { email: "agent@dnipro.test", otp_attempt: emailed },
      });
      expect(stale.body.errors[0].code).toBe("code_wrong");
    }
    const res = await client.post("/sign_in", {
      account: { email: "agent@dnipro.test", otp_attempt: voiceCode },
    });
    expect(res.status).toBe(200);
    const events = await t.events(userStream("dnipro-agent"));
    expect(events.filter((e) => e.type === "UserSignedIn").at(-1)?.data).toMatchObject({
      method: "voice_code",
    });
  });

  it("when a wrong code is entered five times, then the code is dead even for the right code, and a new code works", async () => {
    const client = t.client();
    const email = "agent.lviv@dnipro.test";
    const code = await requestCode(client, email);
    const details: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await client.post("/sign_in", { account: { email, otp_attempt: otherThan(code) } });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].source).toEqual({ pointer: "/account/otp_attempt" });
      details.push(`${res.body.errors[0].code}: ${res.body.errors[0].detail}`);
    }
    expect(details).toEqual([
      "code_wrong: The code is not correct. 4 attempts left.",
      "code_wrong: The code is not correct. 3 attempts left.",
      "code_wrong: The code is not correct. 2 attempts left.",
      "code_wrong: The code is not correct. 1 attempt left.",
      "code_locked: Too many wrong codes: this code no longer works. Request a new code.",
    ]);
    const sixth = await client.post("/sign_in", { account: { email, otp_attempt: code } });
    expect(sixth.status).toBe(401);
    expect(sixth.body.errors[0].code).toBe("code_locked");
    expect(client.cookie("skyward_session")).toBeUndefined();

    const failures = (await t.events(userStream("dnipro-agent-lviv"))).filter(
      (e) => e.type === "SignInFailed",
    );
    expect(failures.map((e) => e.data.reason)).toEqual([
      ...Array(4).fill("wrong_code"),
      "code_locked",
      "code_locked",
    ]);
    expect(JSON.stringify(failures)).not.toContain(code);

    const fresh = await requestCode(client, email);
    const res = await client.post("/sign_in", { account: { email, otp_attempt: fresh } });
    expect(res.status).toBe(200);
  });

  it("when the code is entered after 10 minutes, then it is refused as expired", async () => {
    const client = t.client();
    const email = "supervisor@dnipro.test";
    const code = await requestCode(client, email);
    clock = () => new Date(Date.now() + 10 * 60_000 + 1000);
    try {
      const res = await client.post("/sign_in", { account: { email, otp_attempt: code } });
      expect(res.status).toBe(401);
      expect(res.body.errors[0]).toMatchObject({
        code: "code_expired",
        detail: "The code has expired. Request a new code.",
      });
    } finally {
      clock = realClock;
    }
    const failures = (await t.events(userStream("dnipro-supervisor"))).filter(
      (e) => e.type === "SignInFailed",
    );
    expect(failures.at(-1)?.data.reason).toBe("code_expired");
  });

  it("when the e-mail is unknown, then start_sign_in answers exactly as for a known code user, and every code is refused alike", async () => {
    const client = t.client();
    const known = await client.post("/start_sign_in", { account: { email: "agent.lviv@dnipro.test" } });
    // A quarter of unknown addresses answer as password users (sign-in-abuse.test.ts): take one that asks for a code.
    let nobody = "";
    for (let i = 0; !nobody; i++) {
      const probe = await t
        .client({ "x-forwarded-for": `192.0.2.${100 + i}` })
        .post("/start_sign_in", { account: { email: `nobody${i}@nowhere.test` } });
      if (probe.body.account.auth_method === "otp") nobody = `nobody${i}@nowhere.test`;
    }
    const unknown = await client.post("/start_sign_in", { account: { email: nobody } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    const headerNames = (h: Headers) =>
      [...h.keys()].filter((k) => !["x-trace-id", "date", "etag"].includes(k));
    expect(headerNames(unknown.headers)).toEqual(headerNames(known.headers));
    expect(unknown.headers.get("content-length")).toBe(known.headers.get("content-length"));

    // The same work is done for the unknown address (a code is issued and stored), but nothing is sent.
    const codes = await t.db.pool.query("SELECT user_id FROM app.otp_codes WHERE email = $1", [nobody]);
    expect(codes.rows.length).toBeGreaterThan(0);
    expect(codes.rows.every((r) => r.user_id === null)).toBe(true);
    expect((await client.get("/dev/mailbox", { query: { to: nobody } })).body.data).toEqual([]);

    const guess = { otp_attempt: "123456" };
    const wrongKnown = await client.post("/sign_in", {
      account: { email: "agent.lviv@dnipro.test", ...guess },
    });
    const wrongUnknown = await client.post("/sign_in", { account: { email: nobody, ...guess } });
    expect(wrongUnknown.status).toBe(401);
    expect(wrongUnknown.body).toEqual(wrongKnown.body);
  });
});

describe("signing in by password", () => {
  it("when a password user starts signing in, then the answer asks for the password and no code is sent", async () => {
    const client = t.client();
    const res = await client.post("/start_sign_in", {
      account: { email: "admin@skyward.test", language: "en" },
    });
    expect(res.body).toEqual({ account: { auth_method: "password" }, position: null });
    expect((await client.get("/dev/mailbox", { query: { to: "admin@skyward.test" } })).body.data).toEqual([]);
  });

  it("when the right password is given, then the user is signed in whatever their auth method", async () => {
    const admin = await t.client().signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
    expect(admin.body.account.user_type).toBe("Admin");
    const codeUser = t.client();
    const supervisor = await codeUser.signInWithPassword("supervisor@vistula.test", DEMO_PASSWORD);
    expect(supervisor.body.account).toMatchObject({
      email: "supervisor@vistula.test",
      user_type: "Supervisor",
    });
    expect((await codeUser.get("/account/details")).status).toBe(200);
    const events = await t.events(userStream("vistula-supervisor"));
    expect(events.at(-1)).toMatchObject({ type: "UserSignedIn", data: { method: "password" } });
  });

  it("when the password is wrong, then the answer is 401, no session starts and the failure is recorded without the password", async () => {
    const client = t.client();
    const res = await client.post("/sign_in", {
      account: { email: "agent@vistula.test", password: "not-the-password" },
    });
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({
      code: "invalid_credentials",
      detail: "The e-mail or the password is not correct.",
    });
    expect(client.cookie("skyward_session")).toBeUndefined();
    const unknown = await client.post("/sign_in", {
      account: { email: "ghost@nowhere.test", password: "x" },
    });
    expect(unknown.body).toEqual(res.body);
    const events = await t.events(userStream("vistula-agent"));
    expect(events.at(-1)).toMatchObject({ type: "SignInFailed", data: { reason: "wrong_password" } });
    expect(JSON.stringify(events)).not.toContain("not-the-password");
  });
});

describe("rate limits", () => {
  it("when one client asks for codes for one address too often, then it gets 429 saying code requests are limited and until when, and the same address from another client still gets its code", () =>
    inOneRateLimitWindow(async () => {
      const statuses: number[] = [];
      const flooder = t.client({ "x-forwarded-for": "198.51.100.1" });
      for (let i = 0; i < 6; i++) {
        const res = await flooder.post("/start_sign_in", { account: { email: "flood@nowhere.test" } });
        statuses.push(res.status);
        if (res.status === 429) {
          // The clock stands mid-window: the limit lifts when the window ends, five minutes on.
          const until = new Date(Math.ceil(clock().getTime() / 600_000) * 600_000).toISOString();
          expect(res.body.errors[0]).toMatchObject({ status: "429", code: "code_requests_limited" });
          expect(res.body.errors[0].detail).toBe(
            `Too many sign-in codes were asked for; ask for a new one in 5 minutes (after ${until}). A code already sent still works.`,
          );
          expect(res.headers.get("retry-after")).toBe("300");
          expect(res.headers.get("x-trace-id")).toBeTruthy();
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const owner = t.client({ "x-forwarded-for": "198.51.100.2" });
      expect((await owner.post("/start_sign_in", { account: { email: "flood@nowhere.test" } })).status).toBe(
        200,
      );
    }));

  it("when a user signs in by code seven times in ten minutes from one browser, then every sign-in works: only failures back off", () =>
    inOneRateLimitWindow(async () => {
      const email = "supervisor@vistula.test";
      const browser = t.client({ "x-forwarded-for": "198.51.100.77" });
      const mailbox = t.client();
      const answers: string[] = [];
      for (let i = 0; i < 7; i++) {
        const before = await mailbox.latestMailId(email);
        const start = await browser.post("/start_sign_in", { account: { email, language: "en" } });
        if (start.status !== 200) {
          answers.push(`${start.status} ${start.body.errors[0].detail}`);
          continue;
        }
        const code = await mailbox.codeFromMail(email, before);
        const res = await browser.post("/sign_in", { account: { email, otp_attempt: code } });
        answers.push(res.status === 200 ? "200" : `${res.status} ${res.body.errors[0].detail}`);
      }
      expect(answers).toEqual(Array(7).fill("200"));
    }));

  it("when one IP asks for codes for many addresses, then it gets 429 after 30 requests", () =>
    inOneRateLimitWindow(async () => {
      const client = t.client({ "x-forwarded-for": "203.0.113.9" });
      for (let i = 0; i < 30; i++) {
        const res = await client.post("/start_sign_in", { account: { email: `visitor${i}@nowhere.test` } });
        expect(res.status).toBe(200);
      }
      const refused = await client.post("/start_sign_in", { account: { email: "visitor30@nowhere.test" } });
      expect(refused.status).toBe(429);
      const elsewhere = t.client({ "x-forwarded-for": "203.0.113.10" });
      expect(
        (await elsewhere.post("/start_sign_in", { account: { email: "visitor30@nowhere.test" } })).status,
      ).toBe(200);
    }));

  it("when sign-in attempts for one address keep failing from one client, then its 11th gets 429, while other clients' attempts are answered", () =>
    inOneRateLimitWindow(async () => {
      const statuses: number[] = [];
      const guesser = t.client({ "x-forwarded-for": "192.0.2.1" });
      for (let i = 0; i < 11; i++) {
        const res = await guesser.post("/sign_in", {
          account: { email: "guess@nowhere.test", password: `guess-${i}` },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      for (let i = 0; i < 3; i++) {
        const res = await t
          .client({ "x-forwarded-for": `192.0.2.${i + 2}` })
          .post("/sign_in", { account: { email: "guess@nowhere.test", password: "another-guess" } });
        expect(res.status).toBe(401);
      }
    }));
});

describe("sessions", () => {
  it("when a user signs in again, then the session id changes and the old cookie no longer works", async () => {
    const browser = t.client();
    await browser.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const first = browser.cookie("skyward_session") ?? "";
    const thief = t.client();
    thief.setCookie("skyward_session", first);
    expect((await thief.get("/account/details")).status).toBe(200);

    await browser.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const second = browser.cookie("skyward_session");
    expect(second).not.toBe(first);
    const stale = await thief.get("/account/details");
    expect(stale.status).toBe(401);
    expect(stale.body.errors[0]).toMatchObject({ status: "401", code: "unauthorized" });
    expect((await browser.get("/account/details")).status).toBe(200);
    const rows = await t.db.pool.query("SELECT 1 FROM app.sessions WHERE id_hash = $1", [sha256(first)]);
    expect(rows.rowCount).toBe(0);
  });

  it("when the user signs out, then the session is deleted, the cookie cleared and UserSignedOut recorded", async () => {
    const client = t.client();
    const signedIn = await client.signInWithPassword("support@skyward.test", DEMO_PASSWORD);
    const cookie = client.cookie("skyward_session") ?? "";
    const res = await client.delete("/sign_out");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: null, position: expect.stringMatching(/^\d+-\d+$/) });
    expect(res.headers.get("set-cookie")).toMatch(/skyward_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(client.cookie("skyward_session")).toBeUndefined();
    expect(
      (await t.db.pool.query("SELECT 1 FROM app.sessions WHERE id_hash = $1", [sha256(cookie)])).rowCount,
    ).toBe(0);

    const replay = t.client();
    replay.setCookie("skyward_session", cookie);
    expect((await replay.get("/account/details")).status).toBe(401);
    expect((await client.delete("/sign_out")).status).toBe(401);
    const events = await t.events(`user-${signedIn.body.account.skyward_id}`);
    expect(events.at(-1)?.type).toBe("UserSignedOut");
  });

  it("when another process ends a session in use, then this process refuses it within SESSION_CACHE_MS", async () => {
    const client = t.client();
    await client.signInWithPassword("supervisor@vistula.test", DEMO_PASSWORD);
    expect((await client.get("/account/details")).status).toBe(200);
    // As another command process's sign-out would: the row goes, this process is not told.
    await t.db.pool.query("DELETE FROM app.sessions WHERE id_hash = $1", [
      sha256(client.cookie("skyward_session") ?? ""),
    ]);
    await sleep(SESSION_CACHE_MS + 50);
    expect((await client.get("/account/details")).status).toBe(401);
  });

  it("when a session has expired or was never issued, then calls answer 401 in the error envelope", async () => {
    const client = t.client();
    await client.signInWithPassword("supervisor@vistula.test", DEMO_PASSWORD);
    await t.db.pool.query(
      "UPDATE app.sessions SET expires_at = now() - interval '1 minute' WHERE id_hash = $1",
      [sha256(client.cookie("skyward_session") ?? "")],
    );
    const expired = await client.get("/account/details");
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0].status).toBe("401");

    const forged = t.client();
    forged.setCookie("skyward_session", "made-up-session-value-made-up-session-value");
    const res = await forged.get("/account/details");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-trace-id")).toBeTruthy();
  });
});
