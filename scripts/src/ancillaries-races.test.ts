import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { evolveBalance, initialBalance } from "@skyward/command-service/balances/balance";
import { confirmRefund, holdFamily, issuedFamily, refundQuote } from "./testing/after-sales.ts";
import { addAncillaries, firstBag, firstSegment, refundEmd, seatOf } from "./testing/ancillaries.ts";
import { balanceFromEvents, distinctLastName, moneyOf, topUp } from "./testing/bookings.ts";
import { CrashingCommandProcess, openOperations as openOperationsOf } from "./testing/crash.ts";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * EMDs attacked as a hostile tester would: two purchases racing, a purchase racing void, a ticket refund and
 * comments, two refunds of one EMD, and a process killed between the airline's answer and our record. No 5xx,
 * nothing left in flight, and every booking's money exactly what its events say.
 */

const ROUNDS = Number(process.env.SKYWARD_RACE_ROUNDS ?? 10);
const SECRET = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };

let t: TestApp;
let agent: HttpClient;
let companyId: string;
const touched = new Set<string>();

beforeAll(async () => {
  // A 5xx here is a fault to find: the server's error log goes to the test's output (a whole run once saw a 500 in
  // a purchase racing a void that 180 rounds alone did not repeat).
  t = await startTestApp({ env: SECRET, logLevel: "error" });
  agent = t.client();
  await agent.signIn("agent@dnipro.test");
  const first = await holdFamily(agent, "flex");
  const [held] = await t.events(`booking-${first}`);
  companyId = held?.data.company_id as string;
  await topUp(t.db, t.app.store, companyId, 500_000_000_00);
}, 180_000);
afterAll(() => t?.stop());

const no5xx = (answers: HttpResponse[]) =>
  expect(answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual(
    [],
  );

const openOperations = (locator: string) => openOperationsOf(t, locator);

const CHARGES: Record<string, [string, string, string]> = {
  TicketingStarted: ["BalanceCharged", "issue", "charged"],
  TicketingFailed: ["BalanceCredited", "issue_failed", "credited"],
  BookingVoided: ["BalanceCredited", "void", "credited"],
  TicketsRefunded: ["BalanceCredited", "refund", "credited"],
  AncillariesStarted: ["BalanceCharged", "ancillaries", "charged"],
  AncillariesFailed: ["BalanceCredited", "ancillaries_failed", "credited"],
  EmdRefunded: ["BalanceCredited", "emd_refund", "credited"],
};

/**
 * The balance moved once per money event of the booking, and never gave back more than it took; each EMD is credited
 * at most once and never above what its line was sold for.
 */
async function moneyAgrees(locator: string) {
  touched.add(locator);
  const events = await t.events(`booking-${locator}`);
  const expected = events.flatMap((e) => {
    const rule = CHARGES[e.type];
    const m = rule ? (e.data[rule[2]] as Json | null) : null;
    return rule && m ? [{ type: rule[0], reason: rule[1], amount: m.amount as number }] : [];
  });
  const moved = await moneyOf(t.db, locator);
  expect(moved).toEqual(expected);
  const net = moved.reduce((s, m) => s + (m.type === "BalanceCharged" ? m.amount : -m.amount), 0);
  expect(net).toBeGreaterThanOrEqual(0);
  if (events.some((e) => e.type === "BookingVoided")) expect(net).toBe(0);
  const refunds = events.filter((e) => e.type === "EmdRefunded").map((e) => e.data.emd_number as string);
  expect(new Set(refunds).size).toBe(refunds.length);
}

async function inBatches<T>(count: number, width: number, round: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i += width)
    results.push(
      ...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => round(i + j)))),
    );
  return results;
}

const bagFor = async (locator: string) => ({
  ancillary_id: (await firstBag(agent, locator)).ancillary_id,
  passenger_index: 0,
});

describe("two EMD purchases", () => {
  it(`when two purchases of the same bag race, ${ROUNDS} rounds, then exactly one EMD is issued and charged once`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await issuedFamily(agent, "standard", [distinctLastName()]);
      const bag = await bagFor(locator);
      const answers = await Promise.all([
        addAncillaries(agent, locator, [bag]),
        addAncillaries(agent, locator, [bag]),
      ]);
      return { locator, answers };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      for (const loser of answers.filter((a) => a.status !== 201)) expect(loser.status).toBe(409);
      const added = (await t.events(`booking-${locator}`)).filter((e) => e.type === "AncillariesAdded");
      expect(added).toHaveLength(1);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator);
    }
  });

  it(`when a bag and a seat purchase race, ${ROUNDS} rounds, then each ends once and the money matches`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await issuedFamily(agent, "standard", [distinctLastName()]);
      const bag = await bagFor(locator);
      const seat = await seatOf(agent, locator, await firstSegment(agent, locator), "paid");
      const answers = await Promise.all([
        addAncillaries(agent, locator, [bag]),
        addAncillaries(agent, locator, [
          { ancillary_id: seat.ancillary_id, passenger_index: 0, seat: seat.seat },
        ]),
      ]);
      return { locator, answers };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      for (const a of answers) expect([201, 409]).toContain(a.status);
      const added = (await t.events(`booking-${locator}`)).filter((e) => e.type === "AncillariesAdded");
      expect(added).toHaveLength(answers.filter((a) => a.status === 201).length);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator);
    }
  });
});

describe("EMDs racing the other operations", () => {
  it(`when a purchase races void, ${ROUNDS} rounds, then no 5xx, nothing in flight, and a voided booking nets to zero`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await issuedFamily(agent, "standard", [distinctLastName()]);
      const bag = await bagFor(locator);
      const answers = await Promise.all([
        addAncillaries(agent, locator, [bag]),
        agent.delete(`/bookings/${locator}`),
      ]);
      return { locator, answers };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect([201, 409, 422]).toContain(answers[0]?.status);
      expect([200, 409]).toContain(answers[1]?.status);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator);
    }
  });

  it(`when a purchase races a ticket refund, ${ROUNDS} rounds, then each ends once and the money matches`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await issuedFamily(agent, "flex", [distinctLastName()]);
      const bag = await bagFor(locator);
      const { body } = await refundQuote(agent, locator);
      const answers = await Promise.all([
        addAncillaries(agent, locator, [bag]),
        confirmRefund(agent, locator, body.quote.quote_id),
      ]);
      return { locator, answers };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect(answers.filter((a) => a.status < 300).length).toBeGreaterThanOrEqual(1);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator);
    }
  });

  it(`when a purchase races 5 comments, ${ROUNDS} rounds, then every comment and the purchase are taken`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await issuedFamily(agent, "standard", [distinctLastName()]);
      const bag = await bagFor(locator);
      const answers = await Promise.all([
        addAncillaries(agent, locator, [bag]),
        ...Array.from({ length: 5 }, (_, i) =>
          agent.post("/bookings/comment", { locator, comment: `note ${i}` }),
        ),
      ]);
      return { locator, answers };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200, 200, 200]);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator);
    }
  });

  it(`when two refunds of one EMD race, ${ROUNDS} rounds, then it is credited exactly once`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await issuedFamily(agent, "standard", [distinctLastName()]);
      const added = await addAncillaries(agent, locator, [await bagFor(locator)]);
      const emd = added.body.lines[0].emd_number as string;
      const answers = await Promise.all([refundEmd(agent, locator, emd), refundEmd(agent, locator, emd)]);
      return { locator, answers };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const loser of answers.filter((a) => a.status !== 200)) expect([409, 422]).toContain(loser.status);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator);
    }
  });
});

describe("a crash between the airline's answer and our record", () => {
  let child: CrashingCommandProcess;
  beforeAll(async () => {
    child = await CrashingCommandProcess.start(t, SECRET);
  }, 180_000);
  afterAll(() => child?.stop());
  const killAfterAirline = (locator: string, call: (client: HttpClient) => Promise<unknown>) =>
    child.killAfterAirline(agent, locator, call);

  it("when the process dies after the airline issued the EMD (SLOWAFTERSALES), then reconciliation records it and the charge stands once", async () => {
    const locator = await issuedFamily(agent, "standard", ["SLOWAFTERSALES"]);
    const bag = await firstBag(agent, locator);
    const before = await balanceFromEvents(t.db, companyId);
    const counts = await killAfterAirline(locator, (c) =>
      addAncillaries(c, locator, [{ ancillary_id: bag.ancillary_id, passenger_index: 0 }]),
    );
    expect(counts).toMatchObject({ completed: 1, failed: 0 });
    expect(await openOperations(locator)).toEqual([]);
    const added = (await t.events(`booking-${locator}`)).find((e) => e.type === "AncillariesAdded");
    expect((added?.data.lines as Json[] | undefined)?.[0]?.emd_number).toMatch(/^\d{13}$/);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - bag.price.amount);
    await moneyAgrees(locator);
  }, 180_000);

  it("when the process dies after the airline refunded the EMD (SLOWAFTERSALES), then reconciliation credits it once", async () => {
    const locator = await issuedFamily(agent, "standard", ["SLOWAFTERSALES"]);
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    const emd = added.body.lines[0].emd_number as string;
    const before = await balanceFromEvents(t.db, companyId);
    const counts = await killAfterAirline(locator, (c) => refundEmd(c, locator, emd));
    expect(counts).toMatchObject({ completed: 1, failed: 0 });
    expect(await openOperations(locator)).toEqual([]);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + bag.price.amount);
    await moneyAgrees(locator);
  }, 180_000);
});

describe("the company balance", () => {
  it("after every race above, then the balance the decider folds equals the sum of its balance events", async () => {
    expect(touched.size).toBeGreaterThan(0);
    const { state } = await t.app.store.fold(`balance-${companyId}`, evolveBalance, initialBalance);
    expect(state.amount?.amount).toBe(await balanceFromEvents(t.db, companyId));
  });
});
