// Sign-in as an attacker would try it, over real HTTP: locking others out, and telling accounts from strangers.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import type { HttpClient, HttpResponse } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
/** The app's clock: the real one, or held still at an instant the backoff test moves by hand. */
let heldAt: number | null = null;
let nextAddress = 1;

beforeAll(async () => {
  t = await startTestApp({
    now: () => new Date(heldAt ?? Date.now()),
    // Clients at several addresses, as the proxy names them in X-Forwarded-For.
    env: { TRUST_PROXY: "loopback", SESSION_SECRET: "a-secret-for-the-sign-in-abuse-tests-only" },
  });
});
afterAll(() => t.stop());

/** A browser at an address of its own. */
const clientAt = (address = `198.51.100.${nextAddress++}`) => t.client({ "x-forwarded-for": address });
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function requestCode(client: HttpClient, email: string): Promise<string> {
  const mailbox = t.client();
  const before = await mailbox.latestMailId(email);
  const res = await client.post("/start_sign_in", { account: { email, language: "en" } });
  expect(res.status).toBe(200);
  return mailbox.codeFromMail(email, before);
}

/** What a response shows an observer, trace id and date aside. */
const shape = (res: HttpResponse) => ({
  status: res.status,
  body: res.body,
  headers: [...res.headers.keys()].filter((k) => !["x-trace-id", "date"].includes(k)),
  length: res.headers.get("content-length"),
});

describe("lockout", () => {
  it("when a stranger asks for a user's code and guesses it, then the code the user's browser holds is untouched, the stranger's address backs off, and the user signs in", async () => {
    const email = "agent@dnipro.test";
    const user = clientAt("203.0.113.10");
    const attacker = clientAt("198.51.100.200");
    const code = await requestCode(user, email);
    // The stranger's request makes a code of its own (mailed to the user), not a replacement of the user's.
    const strangers = await requestCode(attacker, email);

    const answers: string[] = [];
    for (let i = 0; i < 11; i++) {
      const guess = otherThan(strangers);
      const res = await attacker.post("/sign_in", { account: { email, otp_attempt: guess } });
      answers.push(`${res.status} ${res.body.errors[0].code}`);
    }
    // Five attempts per code (DESIGN.md), then the address backs off after ten failures.
    expect(answers).toEqual([
      ...Array(4).fill("401 code_wrong"),
      ...Array(6).fill("401 code_locked"),
      "429 rate_limited",
    ]);
    const signedIn = await user.post("/sign_in", { account: { email, otp_attempt: code } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.account.email).toBe(email);
    expect((await attacker.post("/sign_in", { account: { email, otp_attempt: strangers } })).status).toBe(
      429,
    );
  });

  it("when a stranger's browser sends the code another browser asked for, then it is refused: a code counts only where it was asked for", async () => {
    const email = "agent.lviv@dnipro.test";
    const user = clientAt("203.0.113.14");
    const code = await requestCode(user, email);
    const elsewhere = await clientAt("198.51.100.203").post("/sign_in", {
      account: { email, otp_attempt: code },
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.errors[0].code).toBe("code_missing");
    expect((await user.post("/sign_in", { account: { email, otp_attempt: code } })).status).toBe(200);
  });

  it("when wrong passwords keep coming from one address, then its waits double, while the owner signs in from another address meanwhile", async () => {
    const email = "admin@skyward.test";
    const attacker = clientAt("198.51.100.201");
    // Held still, so a slow argon2 check on a busy machine cannot move the test past a wait's end.
    heldAt = Date.now();
    const guess = async () =>
      (await attacker.post("/sign_in", { account: { email, password: `guess-${Math.random()}` } })).status;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(await guess());
    expect(statuses).toEqual([...Array(10).fill(401), 429]);

    const owner = clientAt("203.0.113.11");
    expect((await owner.signInWithPassword(email, DEMO_PASSWORD)).body.account.user_type).toBe("Admin");

    // The 10 failures allow 30 s after the last; the 11th, 60 s after it; and so on.
    const wait = (ms: number) => {
      heldAt = (heldAt as number) + ms;
    };
    wait(29_000);
    expect(await guess()).toBe(429);
    wait(2_000);
    expect(await guess()).toBe(401);
    expect(await guess()).toBe(429);
    wait(59_000);
    expect(await guess()).toBe(429);
    wait(2_000);
    expect(await guess()).toBe(401);
    expect(await guess()).toBe(429);
    // Even the right password waits at the attacker's address: backing off is not a password oracle.
    expect((await attacker.post("/sign_in", { account: { email, password: DEMO_PASSWORD } })).status).toBe(
      429,
    );
    heldAt = null;
  });

  it("when wrong passwords come from new IPv6 addresses of one /64, then they back off as one client", async () => {
    const email = "agent@vistula.test";
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await clientAt(`2001:db8:1:2::${(i + 1).toString(16)}`).post("/sign_in", {
        account: { email, password: `guess-${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const elsewhere = await clientAt("2001:db8:1:3::1").post("/sign_in", {
      account: { email, password: "guess-elsewhere" },
    });
    expect(elsewhere.status).toBe(401);
  });

  it("when a stranger asks for a user's codes until refused, then the user at another address still gets one", async () => {
    const email = "supervisor@vistula.test";
    const attacker = clientAt("198.51.100.202");
    const mailbox = t.client();
    const before = await mailbox.latestMailId(email);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await attacker.post("/start_sign_in", { account: { email } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The stranger's five codes are mailed after their answers: all in, so the user's is the next one.
    await mailbox.waitForMail(email, before, { count: 5 });
    const user = clientAt("203.0.113.12");
    const code = await requestCode(user, email);
    expect((await user.post("/sign_in", { account: { email, otp_attempt: code } })).status).toBe(200);
  });
});

describe("enumeration", () => {
  /** Unknown addresses, one answered as a code user and one as a password user. */
  async function strangers(): Promise<{ otp: string; password: string }> {
    const found: { otp?: string; password?: string } = {};
    for (let i = 0; i < 100 && !(found.otp && found.password); i++) {
      const email = `stranger${i}@nowhere.test`;
      const res = await clientAt().post("/start_sign_in", { account: { email } });
      found[res.body.account.auth_method as "otp" | "password"] ??= email;
    }
    if (!found.otp || !found.password) throw new Error("no unknown address answered both ways in 100 tries");
    return { otp: found.otp, password: found.password };
  }

  it("when start_sign_in and send_voice_otp are asked about unknown addresses, then the answers match real code and password users', and repeat alike", async () => {
    const unknown = await strangers();
    for (const path of ["/start_sign_in", "/send_voice_otp"]) {
      const ask = async (email: string) => shape(await clientAt().post(path, { account: { email } }));
      expect(await ask(unknown.otp)).toEqual(await ask("agent.lviv@dnipro.test"));
      expect(await ask(unknown.password)).toEqual(await ask("agent@vistula.test"));
      expect((await ask(unknown.password)).body).toEqual({
        account: { auth_method: "password" },
        position: null,
      });
    }
    const mailbox = t.client();
    for (const email of [unknown.otp, unknown.password])
      expect((await mailbox.get("/dev/mailbox", { query: { to: email } })).body.data).toEqual([]);
  });

  it("when a wrong password is given for a real and an unknown address, then the answers are the same and take about as long", async () => {
    const unknown = await strangers();
    const attempt = async (email: string) => {
      const started = performance.now();
      const res = await clientAt().post("/sign_in", { account: { email, password: "wrong-password" } });
      return { shape: shape(res), ms: performance.now() - started };
    };
    const real: number[] = [];
    const stranger: number[] = [];
    for (let i = 0; i < 7; i++) {
      const known = await attempt("agent@vistula.test");
      const other = await attempt(unknown.password);
      expect(other.shape).toEqual(known.shape);
      real.push(known.ms);
      stranger.push(other.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    // A missing argon2 check would answer the stranger in a few ms against tens for the real user.
    const ratio = median(stranger) / median(real);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it("when an e-mail change names an address that has an account, then the answer is the one a free address gets, and only the mail to it tells", async () => {
    const client = clientAt("203.0.113.13");
    const code = await requestCode(client, "agent.lviv@dnipro.test");
    expect(
      (await client.post("/sign_in", { account: { email: "agent.lviv@dnipro.test", otp_attempt: code } }))
        .status,
    ).toBe(200);
    const mailbox = t.client();
    const taken = "supervisor@dnipro.test";
    const free = "supervisor@dnipro.tesz";
    const takenBefore = await mailbox.latestMailId(taken);
    const freeBefore = await mailbox.latestMailId(free);

    const toTaken = await client.put("/account/email", { email: taken });
    const wrongForTaken = await client.put("/account/email", { email: taken, otp_attempt: "123456" });
    const toFree = await client.put("/account/email", { email: free });
    const wrongForFree = await client.put("/account/email", {
      email: free,
      otp_attempt: otherThan("123455"),
    });
    expect(toTaken.status).toBe(200);
    expect(toTaken.body).toEqual({ data: { pending_email: taken }, position: expect.any(String) });
    expect(toFree.body).toEqual({ data: { pending_email: free }, position: expect.any(String) });
    expect(shape(toTaken).headers).toEqual(shape(toFree).headers);
    expect(shape(wrongForTaken)).toEqual(shape(wrongForFree));

    const inUse = await mailbox.waitForMail(taken, takenBefore);
    expect(inUse.subject).toBe("Ваша адреса e-mail уже використовується у Skyward");
    expect(inUse.text).not.toMatch(/\d{6}/);
    const confirm = await mailbox.waitForMail(free, freeBefore);
    expect(confirm.text).toMatch(/\b\d{6}\b/);
  });
});
