// Two command processes on one database: what one changes, the other's in-memory copies drop at once (ChangeNotices).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { type Skyward, startSkyward } from "./app.ts";
import { chargeBalance } from "./testing/bookings.ts";
import { type ChildCommandProcess, startChildCommandProcess } from "./testing/child-command-process.ts";
import { HttpClient, type Json } from "./testing/http-client.ts";

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const passenger = (last: string) => ({
  type: "adult",
  gender: "F",
  first_name: "Anna",
  last_name: last,
  date_of_birth: "1988-02-03",
  document: {
    type: "passport",
    number: `PL${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`,
    issuing_country: "PL",
    nationality: "PL",
    expires_on: "2033-01-01",
  },
});

/** A held booking of one passenger, booked through `client`'s process. */
async function book(client: HttpClient, last = "Nowak"): Promise<string> {
  const search = await client.post("/offers", {
    origin: "WAW",
    destination: "KBP",
    departure_date: inDays(30),
    passengers: { adults: 1, children: 0, infants: 0 },
    carriers: ["PS", "LO", "LH", "OS", "TK"],
  });
  expect(search.status).toBe(200);
  const result = search.body.result as Json;
  const booked = await client.post("/bookings", {
    search_result_id: result.id,
    fare_id: result.origin_destinations[0].fares[0].fare_id,
    passengers: [passenger(last)],
    contacts: { email: "anna@example.com", phone: "+48501112233" },
  });
  expect(booked.status).toBe(201);
  return booked.body.locator as string;
}

describe("two command processes", () => {
  let db: TestDatabase;
  /** Process 1: this one (command, query and projectors). */
  let first: Skyward;
  /** Process 2: a child process with a command-service only. */
  let second: ChildCommandProcess;
  const env = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };
  let agent: HttpClient;
  let companyId: string;
  let currency: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    first = await startSkyward({
      databaseUrl: db.url,
      port: 0,
      logLevel: "silent",
      env,
      roles: ["command", "query", "projectors", "jobs"],
      seedDemo: true,
    });
    second = await startChildCommandProcess(db.url, env);
    agent = new HttpClient(first.url);
    await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const balances = await agent.get("/balances");
    expect(balances.status).toBe(200);
    companyId = balances.body.data[0].company_id;
    currency = balances.body.data[0].balance_amount.currency;
  }, 240_000);
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await db?.drop();
  });

  const metadata = () => ({
    ...systemMetadata("cross-process-test"),
    scope: { agency_id: null, company_id: companyId },
  });
  const balanceNow = async () =>
    (
      await first.store.fold(
        `balance-${companyId}`,
        (sum: number, e) => {
          const amount = (e.data as { amount: { amount: number } }).amount.amount;
          return e.type === "BalanceCharged" ? sum - amount : sum + amount;
        },
        0,
      )
    ).state;

  it("when process 2 tops the balance up, then process 1 issues right after, where it refused for insufficient balance", async () => {
    const locator = await book(agent);
    // Spend the whole balance, from process 1 itself.
    await chargeBalance(first.store, companyId, { amount: await balanceNow(), currency });
    const refused = await agent.post("/bookings/issue", { locator });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe("insufficient_balance");

    await second.append({
      streamId: `balance-${companyId}`,
      expected: "any",
      events: [
        {
          type: "BalanceToppedUp",
          data: { company_id: companyId, amount: { amount: 10_000_000, currency }, comment: "top-up" },
          metadata: metadata(),
        },
      ],
    });
    const started = performance.now();
    const issued = await agent.post("/bookings/issue", { locator });
    const elapsed = performance.now() - started;
    expect(issued.status).toBe(201);
    process.stdout.write(
      `issue in process 1 after a top-up in process 2: answered 201 in ${elapsed.toFixed(0)} ms\n`,
    );
  });

  it("when process 2 closes the main gate, then process 1 refuses the next issue at once, and issues once it reopens", async () => {
    // Booking reads the gates, so process 1 holds them in memory when process 2 closes one.
    const locator = await book(agent);
    const toggle = (active: boolean) =>
      second.append({
        streamId: "ticketing-gates",
        expected: "any",
        events: [{ type: "GateToggled", data: { gate: "main", active }, metadata: metadata() }],
      });
    await toggle(false);
    const refused = await agent.post("/bookings/issue", { locator });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe("gate_main_off");
    await toggle(true);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
  });

  it("when a gate changes in process 2, then process 1 follows each change within a few milliseconds", async () => {
    const locator = await book(agent);
    const seenAfter: number[] = [];
    for (let round = 0; round < 10; round++) {
      const active = round % 2 === 1;
      await second.append({
        streamId: "ticketing-gates",
        expected: "any",
        events: [{ type: "GateToggled", data: { gate: "consolidator", active }, metadata: metadata() }],
      });
      const committed = performance.now();
      // Refused while closed; a reshop-free issue attempt on an open gate would issue, so only closed rounds try.
      if (!active) {
        const answer = await agent.post("/bookings/issue", { locator });
        expect(answer.body.errors?.[0]?.code).toBe("gate_consolidator_off");
        seenAfter.push(performance.now() - committed);
      }
    }
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    seenAfter.sort((a, b) => a - b);
    process.stdout.write(
      `gate closed in process 2 refused by process 1: median ${seenAfter[2]?.toFixed(1)} ms, max ${seenAfter.at(-1)?.toFixed(1)} ms (request included)\n`,
    );
  });

  it("when a session is signed out in process 2, then process 1 refuses it at once", async () => {
    const client = new HttpClient(first.url);
    await client.signInWithPassword("agent@vistula.test", DEMO_PASSWORD); // a session of its own
    expect((await client.get("/account/details")).status).toBe(200); // now held in process 1's memory
    const elsewhere = new HttpClient(second.url);
    elsewhere.setCookie("skyward_session", client.cookie("skyward_session") ?? "");
    const out = await elsewhere.delete("/sign_out");
    expect(out.status).toBe(200);
    expect((await client.get("/account/details")).status).toBe(401);
  });
});
