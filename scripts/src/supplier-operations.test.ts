import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { reconcileOperations } from "@skyward/command-service/bookings/reconcile";
import { SupplierRejected } from "@skyward/command-service/suppliers/errors";
import { PgOperationLog } from "@skyward/command-service/suppliers/sandbox/operation-log";
import { SandboxSupplier } from "@skyward/command-service/suppliers/sandbox/sandbox-supplier";
import {
  balanceFromEvents,
  contacts,
  distinctLastName,
  holdBooking,
  inDays,
  moneyOf,
  passenger,
  topUp,
} from "./testing/bookings.ts";
import { type ChildCommandProcess, startChildCommandProcess } from "./testing/child-command-process.ts";
import { HttpClient, type HttpResponse } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Supplier operations (issue, void, cancel) attacked as a hostile tester would: racing every other write on the
 * booking, racing each other, from several processes, and with the process killed between the supplier's answer
 * and our record. Money and the supplier's own record must always agree with ours.
 */

const ROUNDS = Number(process.env.SKYWARD_RACE_ROUNDS ?? 50);
const SECRET = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };

let t: TestApp;
let agent: HttpClient;
let companyId: string;

beforeAll(async () => {
  t = await startTestApp({ env: SECRET });
  agent = t.client();
  await agent.signIn("agent@dnipro.test");
  const first = await holdBooking(agent);
  const [held] = await t.events(`booking-${first}`);
  companyId = held?.data.company_id as string;
  await topUp(t.db, t.app.store, companyId, 500_000_000_00);
});
afterAll(() => t.stop());

/** Other writes an agent makes on a booking while an operation runs: comments and contact changes. */
const sideWrites = (locator: string, n = 5) =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? agent.post("/bookings/comment", { locator, comment: `racing note ${i}` })
      : agent.post("/bookings/modify", { locator, contacts: { phone: `+38050111${String(2000 + i)}` } }),
  );

async function statusOf(locator: string): Promise<string> {
  const events = await t.events(`booking-${locator}`);
  const order: Record<string, string> = {
    BookingHeld: "held",
    TicketingFailed: "held",
    TicketingStarted: "ticketing",
    TicketsIssued: "issued",
    BookingVoided: "voided",
    BookingCancelled: "cancelled",
  };
  let status = "none";
  for (const e of events) status = order[e.type] ?? status;
  return status;
}

/** Operations still open on a booking: started events without an outcome naming their id. */
async function openOperations(locator: string): Promise<string[]> {
  const events = await t.events(`booking-${locator}`);
  const started = events.filter((e) => e.type.endsWith("Started")).map((e) => e.data.operation_id as string);
  const ended = new Set(
    events.filter((e) => !e.type.endsWith("Started")).map((e) => e.data.operation_id as string | undefined),
  );
  return started.filter((id) => !ended.has(id));
}

/** Our record and the sandbox airline's agree: every operation it did is recorded done here, and vice versa. */
async function supplierAgrees(locator: string) {
  const events = await t.events(`booking-${locator}`);
  const ours = new Map<string, "done" | "failed">();
  for (const e of events) {
    const id = e.data.operation_id as string | undefined;
    if (!id) continue;
    if (["TicketsIssued", "BookingVoided", "BookingCancelled"].includes(e.type)) ours.set(id, "done");
    if (["TicketingFailed", "VoidFailed", "CancelFailed"].includes(e.type)) ours.set(id, "failed");
  }
  const { rows } = await t.db.pool.query<{ operation_id: string; status: string }>(
    "SELECT operation_id, entry->>'status' AS status FROM sandbox.operations WHERE operation_id = ANY($1)",
    [[...ours.keys()]],
  );
  for (const row of rows)
    expect(`${row.operation_id}:${row.status === "done" ? "done" : "failed"}`).toBe(
      `${row.operation_id}:${ours.get(row.operation_id)}`,
    );
  for (const [id, outcome] of ours)
    if (outcome === "done") expect(rows.some((r) => r.operation_id === id)).toBe(true);
}

/** The money of one booking: what its final status says, each movement once. */
async function moneyAgrees(locator: string, status: string) {
  const moved = await moneyOf(t.db, locator);
  const charges = moved.filter((m) => m.type === "BalanceCharged");
  const credits = moved.filter((m) => m.type === "BalanceCredited");
  const net = charges.reduce((s, m) => s + m.amount, 0) - credits.reduce((s, m) => s + m.amount, 0);
  if (status === "issued") {
    expect(charges).toHaveLength(credits.length + 1);
    expect(net).toBeGreaterThan(0);
  } else {
    expect(net).toBe(0);
  }
  if (status === "voided") expect(credits.filter((c) => c.reason === "void")).toHaveLength(1);
}

async function inBatches<T>(count: number, width: number, round: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i += width) {
    results.push(
      ...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => round(i + j)))),
    );
  }
  return results;
}

/** The signed-in agent's session, sent to another process. */
function through(url: string): HttpClient {
  const client = new HttpClient(url);
  client.setCookie("skyward_session", agent.cookie("skyward_session") ?? "");
  return client;
}

const no5xx = (answers: HttpResponse[]) =>
  expect(answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual(
    [],
  );

describe("an operation racing other writes on the same booking", () => {
  it(`when issue races 5 comments and contact changes, ${ROUNDS} rounds, then every booking is issued once and charged once`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await holdBooking(agent, [distinctLastName()]);
      const [issue, ...others] = await Promise.all([
        agent.post("/bookings/issue", { locator }),
        ...sideWrites(locator),
      ]);
      return { locator, answers: [issue as HttpResponse, ...others] };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect({ status: answers[0]?.status, body: answers[0]?.body }).toMatchObject({ status: 201 });
      for (const other of answers.slice(1)) expect(other.status).toBe(200);
      expect(await statusOf(locator)).toBe("issued");
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator, "issued");
      await supplierAgrees(locator);
    }
  });

  it(`when void races 5 comments and contact changes, ${ROUNDS} rounds, then every booking is voided and credited once`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await holdBooking(agent, [distinctLastName()]);
      expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
      const [voided, ...others] = await Promise.all([
        agent.delete(`/bookings/${locator}`),
        ...sideWrites(locator),
      ]);
      return { locator, answers: [voided as HttpResponse, ...others] };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect({ status: answers[0]?.status, body: answers[0]?.body }).toMatchObject({ status: 200 });
      expect(await statusOf(locator)).toBe("voided");
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator, "voided");
      await supplierAgrees(locator);
    }
  });

  it(`when cancel races 5 comments and contact changes, ${ROUNDS} rounds, then every booking is cancelled and nothing moved`, async () => {
    const rounds = await inBatches(ROUNDS, 5, async () => {
      const locator = await holdBooking(agent, [distinctLastName()]);
      const [cancelled, ...others] = await Promise.all([
        agent.delete(`/bookings/${locator}`),
        ...sideWrites(locator),
      ]);
      return { locator, answers: [cancelled as HttpResponse, ...others] };
    });
    for (const { locator, answers } of rounds) {
      no5xx(answers);
      expect({ status: answers[0]?.status, body: answers[0]?.body }).toMatchObject({ status: 200 });
      expect(await statusOf(locator)).toBe("cancelled");
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator, "cancelled");
      await supplierAgrees(locator);
    }
  });
});

describe("operations racing each other", () => {
  it("when cancel races issue, then one of them happens (or the issue, then a void) and the money says which", async () => {
    for (let round = 0; round < 10; round++) {
      const locator = await holdBooking(agent);
      const [issue, cancel] = await Promise.all([
        agent.post("/bookings/issue", { locator }),
        agent.delete(`/bookings/${locator}`),
      ]);
      no5xx([issue, cancel]);
      for (const loser of [issue, cancel].filter((a) => a.status !== 201 && a.status !== 200))
        expect([409, 422]).toContain(loser.status);
      // The DELETE read the booking issued when the issue had ended before it (a loaded machine serializes the two):
      // it voided it. Otherwise exactly one of them happened: issued, or cancelled while held.
      const expected =
        issue.status === 201 && cancel.status === 200
          ? { status: "voided", answered: "voided" }
          : issue.status === 201
            ? { status: "issued", answered: null }
            : { status: "cancelled", answered: "cancelled" };
      expect(cancel.status === 200 ? cancel.body.status : null).toBe(expected.answered);
      const status = await statusOf(locator);
      expect(status).toBe(expected.status);
      expect(await openOperations(locator)).toEqual([]);
      await moneyAgrees(locator, status);
      await supplierAgrees(locator);
    }
  });

  it("when two voids race, then one voids, the other is refused, and the credit is made once", async () => {
    for (let round = 0; round < 10; round++) {
      const locator = await holdBooking(agent);
      expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
      const answers = await Promise.all([
        agent.delete(`/bookings/${locator}`),
        agent.delete(`/bookings/${locator}`),
      ]);
      no5xx(answers);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const loser of answers.filter((a) => a.status !== 200)) expect([409, 422]).toContain(loser.status);
      expect(await statusOf(locator)).toBe("voided");
      await moneyAgrees(locator, "voided");
    }
  });
});

describe("several command processes and restarts", () => {
  let other: ChildCommandProcess;
  beforeAll(async () => {
    other = await startChildCommandProcess(t.db.url, SECRET);
  });
  afterAll(() => other.stop());

  it("when two processes issue the same booking at once, then one issues and one charge is made", async () => {
    const there = through(other.url);
    for (let round = 0; round < 5; round++) {
      const locator = await holdBooking(agent);
      const answers = await Promise.all([
        agent.post("/bookings/issue", { locator }),
        there.post("/bookings/issue", { locator }),
      ]);
      no5xx(answers);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      await moneyAgrees(locator, "issued");
      expect((await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCharged")).toHaveLength(1);
    }
  });

  it("when tickets issued in one process are voided from another, then the void is made and credited", async () => {
    const there = through(other.url);
    const locator = await holdBooking(agent);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    const voided = await there.delete(`/bookings/${locator}`);
    expect(voided.status).toBe(200);
    expect(await statusOf(locator)).toBe("voided");
    await moneyAgrees(locator, "voided");
  });

  it("when the process restarts after issuing, then the new process voids the same-day tickets", async () => {
    const restarted = await startChildCommandProcess(t.db.url, SECRET);
    try {
      const there = through(restarted.url);
      const locator = await holdBooking(there);
      expect((await there.post("/bookings/issue", { locator })).status).toBe(201);
      await restarted.stop();
      const again = await startChildCommandProcess(t.db.url, SECRET);
      try {
        const voided = await through(again.url).delete(`/bookings/${locator}`);
        expect(voided.status).toBe(200);
        expect(await statusOf(locator)).toBe("voided");
        await moneyAgrees(locator, "voided");
      } finally {
        await again.stop();
      }
    } finally {
      await restarted.stop();
    }
  });
});

describe("a crash between the supplier's answer and our record", () => {
  /** Issues in a child process, kills it with SIGKILL mid-issue, then runs reconciliation as the job would. */
  async function issueAndKill(lastName: string) {
    const child = await startChildCommandProcess(t.db.url, SECRET);
    const client = through(child.url);
    const locator = await holdBooking(client, [lastName]);
    const before = await balanceFromEvents(t.db, companyId);
    const issuing = client.post("/bookings/issue", { locator }).catch((error: unknown) => error);
    // Wait until the claim is recorded, then kill the process while the airline is (slowly) at work.
    for (let i = 0; i < 100 && (await statusOf(locator)) !== "ticketing"; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await statusOf(locator)).toBe("ticketing");
    const [operationId] = await openOperations(locator);
    const recordedByAirline = async () =>
      (await t.db.pool.query("SELECT 1 FROM sandbox.operations WHERE operation_id = $1", [operationId])).rows
        .length > 0;
    if (lastName === "SLOWANSWER") {
      for (let i = 0; i < 100 && !(await recordedByAirline()); i++)
        await new Promise((r) => setTimeout(r, 50));
    }
    // SLOWANSWER: the airline has ticketed, its answer is on the way; SLOWREQUEST: the airline has not acted yet.
    expect(await recordedByAirline()).toBe(lastName === "SLOWANSWER");
    process.kill(child.pid, "SIGKILL");
    await issuing;
    await child.stop();
    return { locator, before };
  }

  /** Reconciliation as the job runs it, once the read model it finds candidates in has seen the claim. */
  async function reconcile(locator: string) {
    for (let i = 0; i < 100; i++) {
      const found = await t.db.pool.query(
        "SELECT 1 FROM read.bookings WHERE locator = $1 AND operation_id IS NOT NULL",
        [locator],
      );
      if (found.rows.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return reconcileOperations(t.app.commandDeps, { staleAfterMs: 0 });
  }

  it("when the airline ticketed before the crash, then reconciliation records the tickets and keeps the charge", async () => {
    const { locator, before } = await issueAndKill("SLOWANSWER");
    expect(await openOperations(locator)).toHaveLength(1);
    // Meanwhile the booking page says the issue is being completed.
    let page = await agent.get(`/bookings/${locator}`);
    for (let i = 0; i < 100 && !page.body.data?.operation; i++) {
      await new Promise((r) => setTimeout(r, 50));
      page = await agent.get(`/bookings/${locator}`);
    }
    expect(page.body.data).toMatchObject({ status: "ticketing", operation: { kind: "issue" } });
    expect(await reconcile(locator)).toEqual({ completed: 1, undone: 0, failed: 0 });
    expect(await openOperations(locator)).toEqual([]);
    expect(await statusOf(locator)).toBe("issued");
    const charged = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCharged");
    expect(charged).toHaveLength(1);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - (charged[0]?.amount ?? 0));
    await supplierAgrees(locator);
  });

  it("when the airline never acted before the crash, then reconciliation undoes the claim, credits it, and the airline refuses the late call", async () => {
    const { locator, before } = await issueAndKill("SLOWREQUEST");
    expect(await reconcile(locator)).toEqual({ completed: 0, undone: 1, failed: 0 });
    expect(await openOperations(locator)).toEqual([]);
    expect(await statusOf(locator)).toBe("held");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before);
    await moneyAgrees(locator, "held");
    const events = await t.events(`booking-${locator}`);
    const started = events.find((e) => e.type === "TicketingStarted");
    const [held] = events;
    const sandbox = new SandboxSupplier({ operations: new PgOperationLog(t.db.pool) });
    await expect(
      sandbox.issue(
        {
          operation_id: started?.data.operation_id as string,
          booking: held?.data.supplier_booking as never,
          accepted_total: 1,
        },
        { now: new Date(), currency: "UAH", credentials: { login: "sandbox", password: "sandbox" } },
      ),
    ).rejects.toBeInstanceOf(SupplierRejected);
    // The booking can be issued again afterwards.
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
  });
});

describe("a supplier answer lost on the way back", () => {
  /** The sandbox airline, behind a network that loses the answer of every issue after the airline acted on it. */
  class LossyNetwork extends SandboxSupplier {
    override async issue(
      ...args: Parameters<SandboxSupplier["issue"]>
    ): ReturnType<SandboxSupplier["issue"]> {
      await super.issue(...args);
      throw new Error("socket hang up");
    }
  }

  it("when the answer is lost, then the agent is told it is being completed, and reconciliation records the tickets", async () => {
    // The airline's operation log in this process's memory: reconciliation below runs in the same process.
    const app = await startTestApp({ supplier: new LossyNetwork() });
    try {
      const lossyAgent = app.client();
      await lossyAgent.signIn("agent@dnipro.test");
      const locator = await holdBooking(lossyAgent);
      const issue = await lossyAgent.post("/bookings/issue", { locator });
      expect(issue.status).toBe(503);
      expect(issue.body.errors[0]).toMatchObject({ code: "operation_pending" });
      const events = await app.events(`booking-${locator}`);
      expect(events.map((e) => e.type)).toEqual(["BookingHeld", "TicketingStarted"]);
      // A second issue is refused while the first is being completed, and the charge stays made once.
      expect((await lossyAgent.post("/bookings/issue", { locator })).status).toBe(409);
      for (let i = 0; i < 100; i++) {
        const { rows } = await app.db.pool.query(
          "SELECT 1 FROM read.bookings WHERE locator = $1 AND operation_id IS NOT NULL",
          [locator],
        );
        if (rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await reconcileOperations(app.app.commandDeps, { staleAfterMs: 0 })).toEqual({
        completed: 1,
        undone: 0,
        failed: 0,
      });
      const after = (await app.events(`booking-${locator}`)).map((e) => e.type);
      expect(after).toEqual(["BookingHeld", "TicketingStarted", "TicketsIssued"]);
      const charges = await app.db.pool.query(
        "SELECT count(*)::int AS n FROM es.events WHERE event_type = 'BalanceCharged' AND data->>'locator' = $1",
        [locator],
      );
      expect(charges.rows[0].n).toBe(1);
    } finally {
      await app.stop();
    }
  });
  it("when an instant-payment booking's issue answer is lost, then the booking is answered, held in ticketing, not a 503 to retry into a second one", async () => {
    const app = await startTestApp({ supplier: new LossyNetwork() });
    try {
      const client = app.client();
      await client.signIn("agent@dnipro.test");
      const offers = await client.post("/offers", {
        origin: "KBP",
        destination: "WAW",
        departure_date: inDays(21),
        passengers: { adults: 1, children: 0, infants: 0 },
      });
      const fares = offers.body.result.origin_destinations.flatMap((od: { fares: unknown[] }) => od.fares);
      const instant = fares.find((f: { instant_payment: boolean }) => f.instant_payment);
      expect(instant).toBeDefined();
      const booked = await client.post("/bookings", {
        search_result_id: offers.body.result.id,
        fare_id: instant.fare_id,
        passengers: [passenger("Ivan", "Petrenko")],
        contacts,
      });
      expect(booked.status).toBe(201);
      expect(booked.body).toMatchObject({ status: "held", instant_payment: true });
      expect(booked.body.error).toMatch(/has not answered yet/);
      const events = (await app.events(`booking-${booked.body.locator}`)).map((e) => e.type);
      expect(events).toEqual(["BookingHeld", "TicketingStarted"]);
    } finally {
      await app.stop();
    }
  });
});
