import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { contacts, holdBooking, passenger, search, until } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Balances under concurrency and selling for a company, over real HTTP on a real PostgreSQL: a credit limit is
 * never overdrawn whatever races it, a deleted company moves no money, and administrators and supervisors sell for
 * the company they pick.
 */

let t: TestApp;
let admin: HttpClient;
let supervisor: HttpClient;
const kyiv = demoId("company", "dnipro-kyiv");
const lviv = demoId("company", "dnipro-lviv");
const dnipro = demoId("agency", "dnipro");
/** Full-service carriers, whose fares are held before issue (low-cost ones are paid at once). */
const CARRIERS = ["PS", "LO", "LH", "OS", "TK"];

beforeAll(async () => {
  t = await startTestApp();
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  supervisor = t.client();
  await supervisor.signInWithPassword("supervisor@dnipro.test", DEMO_PASSWORD);
});
afterAll(() => t.stop());

/** The balance after each event of the stream, in stream order (what the decider saw). */
async function runningBalances(companyId: string): Promise<number[]> {
  const running: number[] = [];
  let balance = 0;
  for (const e of await t.events(`balance-${companyId}`)) {
    const amount = (e.data.amount as { amount: number } | undefined)?.amount ?? 0;
    balance += e.type === "BalanceCharged" ? -amount : amount;
    running.push(balance);
  }
  return running;
}

const balanceOf = async (companyId: string) => (await runningBalances(companyId)).at(-1) ?? 0;

describe("a credit limit under concurrency", () => {
  it("when issues race top-ups on a company working on credit, then the balance never goes below its limit and the history adds up", async () => {
    const agent = t.client();
    await agent.signIn("agent.lviv@dnipro.test");
    const locators: string[] = [];
    for (let i = 0; i < 8; i++) locators.push(await holdBooking(agent, [`Kredyt${"ABCDEFGH"[i]}`]));
    // Read once the bookings projection has them (the hold's answer carried no position to wait for).
    const prices = await Promise.all(
      locators.map(async (l) => {
        const read = async () => {
          const res = await agent.get(`/bookings/${l}`);
          return res.status === 200 ? res : undefined;
        };
        return (await until(read, 10_000, `booking ${l} read`)).body.data.price.amount as number;
      }),
    );
    const price = Math.max(...prices);
    // Down to zero, then a limit of two and a half tickets; three top-ups of one ticket each race the issues.
    const settle = await admin.post("/transactions", {
      transaction: {
        company_id: lviv,
        kind: "correction",
        amount: -(await balanceOf(lviv)),
        reason: "Test start",
      },
    });
    expect(settle.status).toBe(201);
    const limit = Math.floor(price * 2.5);
    expect((await admin.put(`/companies/${lviv}/credit_limit`, { credit_limit: limit })).status).toBe(200);

    const issues = locators.map((locator) => agent.post("/bookings/issue", { locator }));
    const topUps = [0, 1, 2].map(() =>
      admin.post("/transactions", {
        transaction: { company_id: lviv, amount: price, reason: "Racing wire" },
      }),
    );
    const [issued, toppedUp] = await Promise.all([Promise.all(issues), Promise.all(topUps)]);

    expect(toppedUp.map((r) => r.status)).toEqual([201, 201, 201]);
    const ok = issued.filter((r) => r.status === 201);
    const refused = issued.filter((r) => r.status !== 201);
    for (const r of refused) expect(r.body.errors[0].code).toBe("insufficient_balance");
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(ok.length).toBeLessThanOrEqual(5);
    const running = await runningBalances(lviv);
    expect(Math.min(...running)).toBeGreaterThanOrEqual(-limit);

    // The history shows every movement with its running balance, the last one equal to the balance.
    // A fresh command's position is past every racing one: reading after it sees them all.
    const marker = await admin.put(`/companies/${lviv}/credit_limit`, { credit_limit: limit });
    const history = await admin.get("/balance_history", {
      query: { company_id: lviv, per_page: 100 },
      headers: { "x-min-position": marker.body.position },
    });
    const lines = history.body.data as Json[];
    expect(lines[0].balance_after.amount).toBe(await balanceOf(lviv));
    expect(lines.filter((l) => l.kind === "charge")).toHaveLength(ok.length);
    for (const charge of lines.filter((l) => l.kind === "charge")) {
      expect(charge.locator).toMatch(/^[A-Z2-9]{6}$/);
      expect(charge.actor.name).toBe("Iryna Bondar");
      expect(charge.operation_id).toEqual(expect.any(String));
    }
    for (let i = 0; i + 1 < lines.length; i++)
      expect(lines[i].balance_after.amount - lines[i].amount.amount).toBe(lines[i + 1].balance_after.amount);
  });
});

describe("deleting a company racing a booking", () => {
  it("when a company is deleted while a supervisor books for it, then either comes first and no money ever moves on the deleted company", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const created = await admin.post("/companies", {
        company: { agency_id: dnipro, name: `Race ${round}` },
      });
      const companyId = created.body.company.id as string;
      await admin.put(`/companies/${companyId}/credit_limit`, { credit_limit: 1_000_000_00 });
      const result = await supervisor.post("/offers", {
        origin: "KBP",
        destination: "WAW",
        departure_date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
        passengers: { adults: 1, children: 0, infants: 0 },
        carriers: CARRIERS,
        company_id: companyId,
      });
      expect(result.status).toBe(200);
      const fare = result.body.result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
      const [booked, deleted] = await Promise.all([
        supervisor.post("/bookings", {
          search_result_id: result.body.result.id,
          fare_id: fare.fare_id,
          passengers: [passenger("Olha", "Gonka")],
          contacts,
        }),
        admin.delete(`/companies/${companyId}`),
      ]);
      outcomes.push(`${booked.status}/${deleted.status}`);
      if (deleted.status === 200 && booked.status === 201) {
        // The hold slipped past the deletion's look at open bookings: it can never be issued.
        const issue = await supervisor.post("/bookings/issue", { locator: booked.body.locator });
        expect(issue.status).toBeGreaterThanOrEqual(400);
        expect(issue.status).toBeLessThan(500);
      }
      if (deleted.status !== 200) expect(deleted.body.errors[0].code).toBe("company_has_open_bookings");
      if (booked.status !== 201) expect(booked.status).toBe(404);
      const types = (await t.events(`balance-${companyId}`)).map((e) => e.type);
      expect(types.filter((type) => type === "BalanceCharged")).toEqual([]);
      if (deleted.status === 200) expect(types.at(-1)).toBe("BalanceClosed");
    }
    expect(outcomes).toHaveLength(4);
  });
});

describe("selling for a company", () => {
  it("when an administrator searches without naming a company, then it is asked to choose one; naming one, it books and issues for it", async () => {
    const unnamed = await admin.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 25 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.errors[0].source.pointer).toBe("/company_id");
    const before = await balanceOf(kyiv);
    const result = await admin.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 25 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: CARRIERS,
      company_id: kyiv,
    });
    expect(result.status).toBe(200);
    const fare = result.body.result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
    const booked = await admin.post("/bookings", {
      search_result_id: result.body.result.id,
      fare_id: fare.fare_id,
      passengers: [passenger("Ada", "Pickme")],
      contacts,
    });
    expect(booked.status).toBe(201);
    const issued = await admin.post("/bookings/issue", { locator: booked.body.locator });
    expect(issued.status).toBe(201);
    expect(await balanceOf(kyiv)).toBeLessThan(before);
  });

  it("when a supervisor with several companies picks one, then it sells for that one; another partner's company is not found", async () => {
    // Without a company named, a supervisor sells for its first one.
    expect((await search(supervisor, 1)).id).toBeDefined();
    const result = await supervisor.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 26 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: CARRIERS,
      company_id: lviv,
    });
    const fare = result.body.result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
    const booked = await supervisor.post("/bookings", {
      search_result_id: result.body.result.id,
      fare_id: fare.fare_id,
      passengers: [passenger("Olena", "Pickme")],
      contacts,
    });
    expect(booked.status).toBe(201);
    const read = await supervisor.get(`/bookings/${booked.body.locator}`, {
      headers: { "x-min-position": booked.body.position },
    });
    expect(JSON.stringify(read.body)).toContain(lviv);
    const foreign = await supervisor.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 26 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: CARRIERS,
      company_id: demoId("company", "vistula-waw"),
    });
    expect(foreign.status).toBe(404);
  });

  it("when a caller chooses the company it sells for, then searches naming none are for it; a company outside its scope is not found", async () => {
    const support = t.client();
    await support.signInWithPassword("support@skyward.test", DEMO_PASSWORD);
    const chosen = await support.put("/account/selling_company", { company_id: lviv });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.company_ids).toEqual([lviv]);
    const details = await support.get("/account/details", {
      headers: { "x-min-position": chosen.body.position },
    });
    expect(details.body.account.company).toMatchObject({ id: lviv });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the session's principal is kept a second
    const result = await search(support, 1);
    const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
    const booked = await support.post("/bookings", {
      search_result_id: result.id,
      fare_id: fare.fare_id,
      passengers: [passenger("Sam", "Chooser")],
      contacts,
    });
    expect(booked.status).toBe(201);
    const read = await support.get(`/bookings/${booked.body.locator}`, {
      headers: { "x-min-position": booked.body.position },
    });
    expect(JSON.stringify(read.body)).toContain(lviv);

    const vistula = t.client();
    await vistula.signIn("supervisor@vistula.test");
    expect((await vistula.put("/account/selling_company", { company_id: kyiv })).status).toBe(404);
    const agent = t.client();
    await agent.signIn("agent@dnipro.test");
    expect((await agent.put("/account/selling_company", { company_id: lviv })).status).toBe(404);
  });
});
