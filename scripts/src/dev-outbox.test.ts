import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { hashPassword } from "@skyward/command-service/identity/passwords";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** An address of this machine that is not loopback, to call the app as a remote client would. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

describe("the dev outbox outside production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ host: "0.0.0.0" });
  });
  afterAll(() => t.stop());

  it("when a caller on this machine reads the mailbox, then it gets the messages newest first", async () => {
    const client = new HttpClient(t.app.url);
    await client.post("/start_sign_in", { account: { email: "agent@dnipro.test" } });
    await client.post("/start_sign_in", { account: { email: "agent@dnipro.test" } });
    await client.waitForMail("agent@dnipro.test", 0, { count: 2 });
    const res = await client.get("/dev/mailbox", { query: { to: "AGENT@dnipro.test" } });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(2);
    expect(res.body.data[0].id).toBeGreaterThan(res.body.data[1].id);
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      to: "agent@dnipro.test",
      subject: "Your Skyward sign-in code",
      text: expect.stringMatching(/Your sign-in code is \d{6}\./),
      sent_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const ids = res.body.data.map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  (external ? it : it.skip)(
    "when a caller from another machine reads the outboxes, then they do not exist for it, whatever X-Forwarded-For says",
    async () => {
      const port = new URL(t.app.url).port;
      const remote = new HttpClient(`http://${external}:${port}`, { "x-forwarded-for": "127.0.0.1" });
      for (const path of ["/dev/mailbox", "/dev/voice"]) {
        const res = await remote.get(path);
        expect(res.status).toBe(404);
        expect(res.body.errors[0].code).toBe("route_not_found");
      }
      expect((await remote.get("/csrf")).status).toBe(200);
    },
  );

  it("when a request from this machine came through a proxy, then the outboxes do not exist for it", async () => {
    const proxyHeaders: Record<string, string>[] = [
      { "x-forwarded-for": "127.0.0.1" },
      { "x-real-ip": "127.0.0.1" },
      { forwarded: "for=127.0.0.1" },
    ];
    for (const header of proxyHeaders) {
      const proxied = new HttpClient(t.app.url, header);
      for (const path of ["/dev/mailbox", "/dev/voice"]) {
        const res = await proxied.get(path);
        expect(res.status).toBe(404);
        expect(res.body.errors[0].code).toBe("route_not_found");
      }
    }
    expect((await new HttpClient(t.app.url).get("/dev/voice")).status).toBe(200);
  });
});

describe("a development process without DEV_MAILBOX", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: "development" } });
  });
  afterAll(() => t.stop());

  it("when the outboxes are asked for from this machine, then they do not exist", async () => {
    for (const path of ["/dev/mailbox", "/dev/voice"]) {
      const res = await t.client().get(path);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe("route_not_found");
    }
  });
});

describe("in production", () => {
  let t: TestApp;
  const password = "a-password-only-this-test-knows";
  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: "production", SESSION_SECRET: "s".repeat(40) } });
    // Production seeds random passwords it prints once; this test sets one of its own instead.
    await t.db.pool.query("UPDATE app.credentials SET password_hash = $1 WHERE user_id = $2", [
      await hashPassword(password),
      demoId("user", "vistula-agent"),
    ]);
  });
  afterAll(() => t.stop());

  it("when a user signs in, then the session cookie is Secure, and the dev outboxes do not exist", async () => {
    const client = t.client();
    expect(
      (await client.post("/sign_in", { account: { email: "agent@vistula.test", password: DEMO_PASSWORD } }))
        .status,
    ).toBe(401);
    const res = await client.signInWithPassword("agent@vistula.test", password);
    expect(res.headers.get("set-cookie")).toMatch(/skyward_session=[^;]+;.*HttpOnly;.*Secure;.*SameSite=Lax/);
    for (const path of ["/dev/mailbox", "/dev/voice"]) expect((await client.get(path)).status).toBe(404);
  });
});
