// A command process killed while it runs a request with an Idempotency-Key: the key is in flight until its lease
// runs out, then another process takes the retry.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { type ChildCommandProcess, startChildCommandProcess } from "./testing/child-command-process.ts";
import { HttpClient, type Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const env = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };
let t: TestApp;
let child: ChildCommandProcess;
beforeAll(async () => {
  t = await startTestApp({ env });
  child = await startChildCommandProcess(t.db.url, env);
}, 240_000);
afterAll(async () => {
  await child?.stop();
  await t?.stop();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("a process killed mid-request", () => {
  it("when the process running an issue with a key is killed, then the key answers 409 while leased and a retry elsewhere runs once the lease ran out", async () => {
    const agent = t.client();
    await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const search = await agent.post("/offers", {
      origin: "WAW",
      destination: "KBP",
      departure_date: inDays(25),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO", "LH", "OS", "TK"],
    });
    const result = search.body.result as Json;
    const booked = await agent.post("/bookings", {
      search_result_id: result.id,
      fare_id: result.origin_destinations[0].fares[0].fare_id,
      // The sandbox airline answers this passenger's issue 8 s late: time to kill the process meanwhile.
      passengers: [
        {
          type: "adult",
          gender: "M",
          first_name: "Jan",
          last_name: "SLOWANSWER",
          date_of_birth: "1980-01-01",
          document: {
            type: "passport",
            number: "PL123456",
            issuing_country: "PL",
            nationality: "PL",
            expires_on: "2033-01-01",
          },
        },
      ],
      contacts: { email: "jan@example.com", phone: "+48501112233" },
    });
    expect(booked.status).toBe(201);
    const locator = booked.body.locator as string;
    const headers = { "idempotency-key": "issue-crash-1" };

    const viaChild = new HttpClient(child.url);
    viaChild.setCookie("skyward_session", agent.cookie("skyward_session") ?? "");
    const lost = viaChild.post("/bookings/issue", { locator }, { headers }).catch(() => null);
    const inFlight = async () =>
      (
        await t.db.pool.query("SELECT 1 FROM app.idempotency_keys WHERE key = $1 AND status IS NULL", [
          "issue-crash-1",
        ])
      ).rowCount === 1;
    for (let i = 0; i < 200 && !(await inFlight()); i++) await sleep(25);
    expect(await inFlight()).toBe(true);
    await sleep(300);
    process.kill(child.pid, "SIGKILL");
    expect(await lost).toBeNull(); // the connection died with the process

    const leased = await agent.post("/bookings/issue", { locator }, { headers });
    expect(leased.status).toBe(409);
    expect(leased.body.errors[0].code).toBe("idempotency_in_progress");

    // The lease's 30 s pass.
    await t.db.pool.query(
      "UPDATE app.idempotency_keys SET lease_until = now() - interval '1 second' WHERE key = $1",
      ["issue-crash-1"],
    );
    const retried = await agent.post("/bookings/issue", { locator }, { headers });
    expect(retried.status).toBeLessThan(500);
    expect(retried.body.errors?.[0]?.code).not.toBe("idempotency_in_progress");
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    const replayed = await agent.post("/bookings/issue", { locator }, { headers });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.status).toBe(retried.status);
    expect(replayed.body).toEqual(retried.body);
  });
});
