import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
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
    await client.waitForMail("agent@dnipro.test", 0);
    const res = await client.get("/dev/mailbox", { query: { to: "AGENT@dnipro.test" } });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(1);
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
});

describe("in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: "production", SESSION_SECRET: "s".repeat(40) } });
  });
  afterAll(() => t.stop());

  it("when a user signs in, then the session cookie is Secure, and the dev outboxes do not exist", async () => {
    const client = t.client();
    const res = await client.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    expect(res.headers.get("set-cookie")).toMatch(/skyward_session=[^;]+;.*HttpOnly;.*Secure;.*SameSite=Lax/);
    for (const path of ["/dev/mailbox", "/dev/voice"]) expect((await client.get(path)).status).toBe(404);
  });
});
