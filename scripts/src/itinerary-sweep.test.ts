import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mailNotifications, type NotificationMail } from "@skyward/command-service/agent-notifications/mails";
import {
  type BatchMail,
  mailItinerariesOnIssue,
  ON_ISSUE_BATCH,
} from "@skyward/command-service/itinerary/itinerary";
import { commandJobHandlers } from "@skyward/command-service/jobs/registry";
import type { OutgoingMail } from "@skyward/command-service/notifications/port-types";
import { DirectoryCache } from "@skyward/command-service/offers/selling-context";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { countingPool } from "@skyward/infra/testing";
import { holdFamily, issuedFamily } from "./testing/after-sales.ts";
import { contacts, distinctLastName, topUp, until } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { explainedNodes, nodesOf } from "./testing/plans.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * The mail sweep's itineraries on issue (issue 26): what a sweep of several issued bookings costs in statements,
 * that each booking's mail is still recorded and queued once, that a sweep keeps up however many were issued, and
 * that their batch's job sends each mail once across a refused mail and a process killed mid-send. The app runs no
 * jobs, so only this test sweeps and runs their jobs.
 */

let t: TestApp;
let agent: HttpClient;

beforeAll(async () => {
  // No jobs role: no sign-in code by mail either, so the agent signs in with the demo world's password.
  t = await startTestApp({ roles: ["command", "query", "projectors", "frontend"] });
  agent = t.client();
  expect((await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD)).status).toBe(200);
  const first = await holdFamily(agent, "flex");
  const [held] = await t.events(`booking-${first}`);
  await topUp(t.db, t.app.store, held?.data.company_id as string, 100_000_000_00);
}, 180_000);
afterAll(() => t?.stop());

/** The issued bookings in the bookings read model, which the sweep reads. */
const issuedInReadModel = (locators: readonly string[]) =>
  until(
    async () => {
      const { rows } = await t.db.pool.query(
        "SELECT 1 FROM read.bookings WHERE locator = ANY($1) AND issued_at IS NOT NULL",
        [locators],
      );
      return rows.length === locators.length ? true : undefined;
    },
    60_000,
    `the ${locators.length} issued bookings in the read model`,
  );

/** The send-itineraries jobs queued (the app runs none) for mails of these bookings, oldest first. */
async function batchJobs(locators: readonly string[]): Promise<{ id: string; mails: BatchMail[] }[]> {
  const { rows } = await t.db.pool.query<{ id: string; payload: { data: { mails: BatchMail[] } } }>(
    `SELECT j.id::text, j.payload FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks k ON k.id = j.task_id
      WHERE k.identifier = 'send-itineraries' ORDER BY j.id`,
  );
  const ours = new Set(locators);
  return rows
    .map((r) => ({ id: r.id, mails: r.payload.data.mails }))
    .filter((j) => j.mails.some((m) => ours.has(m.locator)));
}

/** The job's handler on a pool that counts its statements, with a directory cache of its own, sending to `mailer`. */
function batchHandler(send: (mail: OutgoingMail) => Promise<void>) {
  const counting = countingPool(t.app.pool);
  const store = new EventStore(counting.pool);
  const directory = new DirectoryCache(store, counting.pool);
  const deps = { ...t.app.commandDeps, pool: counting.pool, store, directory };
  const handlers = commandJobHandlers(deps, { sweepEveryMs: 60_000, mailEveryMs: 60_000 }, { send });
  const run = (mails: BatchMail[], attempt: number) =>
    handlers["send-itineraries"]({ mails }, deps, {
      traceId: "trace-batch",
      jobId: "1",
      attempt,
      maxAttempts: 10,
      logger: t.app.commandDeps.logger,
    });
  return { run, statements: counting.statements, close: () => directory.close() };
}

const sentMarks = async (mailIds: readonly string[]) =>
  (
    await t.db.pool.query<{ mail_id: string }>(
      "SELECT mail_id FROM app.itinerary_mails WHERE mail_id = ANY($1) AND sent_at IS NOT NULL ORDER BY mail_id",
      [mailIds],
    )
  ).rows.map((r) => r.mail_id);

const locatorOf = (mail: OutgoingMail) => /booking ([A-Z0-9]{6})/.exec(mail.subject)?.[1];

describe("the itineraries on issue of a sweep", () => {
  it("when three bookings were issued, then one sweep records their three mails and claims them with one job in one statement, with their streams read in one statement and their appends together; a second sweep mails nothing", async () => {
    const locators = [
      await issuedFamily(agent, "standard", ["Sweep"]),
      await issuedFamily(agent, "standard", ["Sweep"]),
      await issuedFamily(agent, "flex", ["Sweep"]),
    ];
    await issuedInReadModel(locators);
    const { pool: counting, statements } = countingPool(t.app.pool);
    // As the jobs process appends: group commit.
    const store = new EventStore(counting, undefined, 5000, { groupCommit: true });
    const deps = { ...t.app.commandDeps, pool: counting, store };

    expect(await mailItinerariesOnIssue(deps, "trace-sweep")).toBe(3);
    // The bookings (1), their streams and their mails' streams (1), the company's setting (1), the appends of the
    // three mails (at most 3, together when they meet), the batch's claim and its one job (1). A claim and a job
    // per mail were (9 at most), before that 4 statements per booking.
    expect(statements()).toBeLessThanOrEqual(7);
    for (const locator of locators) {
      const events = await t.events(`itinerary-${locator}`);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: "ItineraryMailed",
        data: { locator, reason: "issued", to: contacts.email, mail_id: `issued-${locator}` },
      });
    }
    const jobs = await batchJobs(locators);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.mails).toEqual(
      [...locators].sort().map((locator) => ({ locator, mail_id: `issued-${locator}` })),
    );
    const { rows: queued } = await t.db.pool.query<{ mail_id: string; job_id: string | null }>(
      "SELECT mail_id, job_id FROM app.itinerary_mails WHERE locator = ANY($1) ORDER BY mail_id",
      [locators],
    );
    expect(queued.map((r) => r.mail_id)).toEqual(locators.map((l) => `issued-${l}`).sort());
    expect(queued.every((r) => r.job_id === jobs[0]?.id)).toBe(true);

    const before = statements();
    expect(await mailItinerariesOnIssue(deps, "trace-sweep-again")).toBe(0);
    expect(statements() - before).toBe(1);
    for (const locator of locators) expect(await t.events(`itinerary-${locator}`)).toHaveLength(1);
    expect(await batchJobs(locators)).toHaveLength(1);

    // The job sends the three, marked sent together: the mails and their bookings (1), the agency (the cold cache,
    // 1), the agents (1) and the marks (1). Run again, it sends none, having asked which were sent (1).
    const sent: OutgoingMail[] = [];
    const handler = batchHandler(async (mail) => void sent.push(mail));
    try {
      await handler.run(jobs[0]?.mails ?? [], 1);
      expect(handler.statements()).toBe(4);
      expect(sent.map(locatorOf).sort()).toEqual([...locators].sort());
      expect(sent.every((m) => m.to === contacts.email && m.attachments?.length === 2)).toBe(true);
      expect(await sentMarks(locators.map((l) => `issued-${l}`))).toHaveLength(3);
      const afterFirst = handler.statements();
      await handler.run(jobs[0]?.mails ?? [], 2);
      expect(handler.statements() - afterFirst).toBe(1);
      expect(sent).toHaveLength(3);
    } finally {
      handler.close();
    }
  });

  it(`when more bookings were issued than a sweep's batch (${ON_ISSUE_BATCH}), then one sweep mails them all, a batch and a job at a time`, async () => {
    const count = ON_ISSUE_BATCH + 8;
    const locators: string[] = [];
    // Issued six at a time, each with its own names (the sandbox answers an identical booking call with the same booking).
    for (let i = 0; i < count; i += 6)
      locators.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(6, count - i) }, () =>
            issuedFamily(agent, "standard", [distinctLastName("Batch")]),
          ),
        )),
      );
    await issuedInReadModel(locators);
    const { pool: counting, statements } = countingPool(t.app.pool);
    const store = new EventStore(counting, undefined, 5000, { groupCommit: true });
    const deps = { ...t.app.commandDeps, pool: counting, store };

    // Before: 50 a sweep (every 5 s in the app: 10 mails a second at most, however many bookings were issued).
    expect(await mailItinerariesOnIssue(deps, "trace-sweep-many")).toBe(count);
    for (const locator of locators) expect(await t.events(`itinerary-${locator}`)).toHaveLength(1);
    const jobs = await batchJobs(locators);
    expect(jobs.map((j) => j.mails.length)).toEqual([ON_ISSUE_BATCH, count - ON_ISSUE_BATCH]);
    expect(new Set(jobs.flatMap((j) => j.mails.map((m) => m.locator)))).toEqual(new Set(locators));
    // Per batch: its bookings, their streams, the setting, the appends (together: fewer than the mails), its claim,
    // and a last look that finds none left.
    expect(statements()).toBeLessThan(count);
  }, 300_000);
});

/** The sweep's place in the log (migration 114). */
const sweepPlace = async () =>
  (
    await t.db.pool.query<{ tx: string; gp: string }>(
      "SELECT transaction_id::text AS tx, global_position::text AS gp FROM app.itinerary_on_issue_cursor",
    )
  ).rows[0];

/** The position of a booking's TicketsIssued in the log. */
const issuedAt = async (locator: string) =>
  (
    await t.db.pool.query<{ tx: string; gp: string }>(
      `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events
        WHERE stream_id = $1 AND event_type = 'TicketsIssued'`,
      [`booking-${locator}`],
    )
  ).rows[0];

const before = (a: { tx: string; gp: string } | undefined, b: { tx: string; gp: string } | undefined) =>
  a !== undefined &&
  b !== undefined &&
  (BigInt(a.tx) < BigInt(b.tx) || (a.tx === b.tx && BigInt(a.gp) < BigInt(b.gp)));
/**
 * A place at or past a position: a sweep reads only what comes strictly after its place, so a place on the event
 * itself has passed it. With nothing left to take, a sweep moves its place to the newest event it can see, which is
 * that event when nothing after it has committed below the oldest transaction still open on the server (another test
 * file's, in a whole run).
 */
const atOrPast = (
  place: { tx: string; gp: string } | undefined,
  at: { tx: string; gp: string } | undefined,
) => place !== undefined && at !== undefined && !before(place, at);

describe("the sweep's place in the log", () => {
  it("when nothing was issued since the last sweep, then a sweep reads no booking: not every booking ever issued, as it did", async () => {
    await issuedInReadModel([await issuedFamily(agent, "standard", [distinctLastName("Place")])]);
    await mailItinerariesOnIssue(t.app.commandDeps, "trace-place");
    const { pool: counting, texts } = countingPool(t.app.pool);
    expect(await mailItinerariesOnIssue({ ...t.app.commandDeps, pool: counting }, "trace-place-again")).toBe(
      0,
    );
    expect(texts).toHaveLength(1);
    // Its statement run again, measured and rolled back: the bookings read model is never read (the statement read
    // every issued booking, all of them decided, to find none).
    const nodes = await explainedNodes(t.db.pool, texts[0] as string, [ON_ISSUE_BATCH]);
    expect(nodesOf(nodes, "bookings").every((n) => n["Actual Loops"] === 0)).toBe(true);
    expect(nodes.some((n) => n["Relation Name"] === "events")).toBe(true);
    // Its place has passed every booking issued so far.
    const { rows } = await t.db.pool.query<{ tx: string; gp: string }>(
      `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events WHERE event_type = 'TicketsIssued'
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    expect(atOrPast(await sweepPlace(), rows[0])).toBe(true);
  });

  it("when a sweep dies before deciding its batch, then its place stays before the batch's bookings and the next sweep mails them", async () => {
    const locator = await issuedFamily(agent, "flex", [distinctLastName("Died")]);
    // In the read model, so past every transaction open when it was issued: the sweep's read of the log sees it too.
    await issuedInReadModel([locator]);
    const store = t.app.commandDeps.store;
    const dying = Object.assign(Object.create(store), {
      foldStreams: () => Promise.reject(new Error("the process died")),
    }) as typeof store;
    await expect(
      mailItinerariesOnIssue({ ...t.app.commandDeps, store: dying }, "trace-died"),
    ).rejects.toThrow("the process died");
    expect(before(await sweepPlace(), await issuedAt(locator))).toBe(true);
    expect(await t.events(`itinerary-${locator}`)).toHaveLength(0);
    expect(await mailItinerariesOnIssue(t.app.commandDeps, "trace-after-death")).toBe(1);
    expect(await t.events(`itinerary-${locator}`)).toHaveLength(1);
    // The sweep that took it left its place before it; the next passes it, the booking now decided.
    expect(await mailItinerariesOnIssue(t.app.commandDeps, "trace-passed")).toBe(0);
    expect(atOrPast(await sweepPlace(), await issuedAt(locator))).toBe(true);
  });
});

describe("the send-itineraries job", () => {
  it("when its process dies while mails are in flight, then run again it sends only the mails not marked sent: none lost, and none twice but those of the group in flight", async () => {
    const locators = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        issuedFamily(agent, i % 2 ? "flex" : "standard", [distinctLastName("Crash")]),
      ),
    );
    await issuedInReadModel(locators);
    expect(await mailItinerariesOnIssue(t.app.commandDeps, "trace-crash")).toBe(6);
    const [job] = await batchJobs(locators);
    const mails = job?.mails ?? [];
    expect(mails).toHaveLength(6);

    // The first run's server takes five mails and never answers the sixth (the process dies waiting). Mails go four
    // at a time, each four marked sent together: the first four are marked, the fifth was taken but not yet marked.
    const taken: OutgoingMail[] = [];
    const dying = batchHandler(async (mail) => {
      if (taken.length === 5) return new Promise<void>(() => {});
      taken.push(mail);
    });
    void dying.run(mails, 1);
    const marked = await until(
      async () => {
        const marks = await sentMarks(mails.map((m) => m.mail_id));
        return marks.length === 4 && taken.length === 5 ? marks : undefined;
      },
      30_000,
      "four mails marked sent and a fifth taken",
    );
    dying.close();

    // Run again (attempt 2, as the library runs a dead process's job): the two not marked, and only them.
    const again: OutgoingMail[] = [];
    const handler = batchHandler(async (mail) => void again.push(mail));
    try {
      await handler.run(mails, 2);
    } finally {
      handler.close();
    }
    const unmarked = mails.filter((m) => !marked.includes(m.mail_id)).map((m) => m.locator);
    expect(again.map(locatorOf).sort()).toEqual(unmarked.sort());
    // Every mail went out; twice only the one taken in the group the process died in.
    expect(new Set([...taken, ...again].map(locatorOf))).toEqual(new Set(locators));
    expect(taken.length + again.length - locators.length).toBe(1);
    expect(await sentMarks(mails.map((m) => m.mail_id))).toHaveLength(6);
  });

  it("when the mail server refuses one mail of a batch, then the others are sent and marked, the job fails, and its next run sends only the refused one", async () => {
    const locators = [
      await issuedFamily(agent, "standard", [distinctLastName("Refused")]),
      await issuedFamily(agent, "flex", [distinctLastName("Refused")]),
      await issuedFamily(agent, "standard", [distinctLastName("Refused")]),
    ];
    await issuedInReadModel(locators);
    expect(await mailItinerariesOnIssue(t.app.commandDeps, "trace-refused")).toBe(3);
    const [job] = await batchJobs(locators);
    const mails = job?.mails ?? [];
    const refusedLocator = mails[1]?.locator;
    const sent: OutgoingMail[] = [];
    let refusing = true;
    const handler = batchHandler(async (mail) => {
      if (refusing && locatorOf(mail) === refusedLocator) throw new Error("451 try again later");
      sent.push(mail);
    });
    try {
      await expect(handler.run(mails, 1)).rejects.toThrow(
        /1 of 3 itinerary e-mails not sent.*451 try again later/,
      );
      expect(sent.map(locatorOf).sort()).toEqual(locators.filter((l) => l !== refusedLocator).sort());
      expect(await sentMarks(mails.map((m) => m.mail_id))).toHaveLength(2);
      refusing = false;
      await handler.run(mails, 2);
    } finally {
      handler.close();
    }
    expect(sent.map(locatorOf).sort()).toEqual([...locators].sort());
    expect(await sentMarks(mails.map((m) => m.mail_id))).toHaveLength(3);
  });
});

/** The send-mails jobs queued (the app runs none) with mails about these bookings, oldest first. */
async function notificationJobs(locators: readonly string[]): Promise<NotificationMail[][]> {
  const { rows } = await t.db.pool.query<{ payload: { data: { mails: NotificationMail[] } } }>(
    `SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
      WHERE k.identifier = 'send-mails' ORDER BY j.id`,
  );
  return rows
    .map((r) => r.payload.data.mails)
    .filter((mails) => mails.some((m) => locators.some((l) => m.subject.includes(l))));
}

/** The agent's notifications of these bookings, once projected. */
const notified = (locators: readonly string[]) =>
  until(
    async () => {
      const { rows } = await t.db.pool.query<{ id: string }>(
        "SELECT id FROM read.notifications WHERE locator = ANY($1) AND kind = 'issued' AND mail",
        [locators],
      );
      return rows.length === locators.length ? rows.map((r) => r.id) : undefined;
    },
    30_000,
    "the issued bookings' notifications",
  );

describe("the agents' notification mails of a sweep", () => {
  it("when bookings were issued, then one sweep claims their notification mails and queues one send-mails job for them in one statement; a second sweep queues none", async () => {
    // Every notification before these is claimed first, so the batch below is these three alone.
    await mailNotifications(t.app.commandDeps, "trace-earlier");
    const locators = [
      await issuedFamily(agent, "standard", [distinctLastName("Notified")]),
      await issuedFamily(agent, "flex", [distinctLastName("Notified")]),
      await issuedFamily(agent, "standard", [distinctLastName("Notified")]),
    ];
    const ids = await notified(locators);
    const { pool: counting, statements } = countingPool(t.app.pool);
    const deps = { ...t.app.commandDeps, pool: counting };
    expect(await mailNotifications(deps, "trace-notified")).toBe(3);
    // The notifications (1), their claims and their one job (1). A job per mail was.
    expect(statements()).toBe(2);
    const jobs = await notificationJobs(locators);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.map((m) => m.notification_id).sort()).toEqual([...ids].sort());
    expect(jobs[0]?.every((m) => m.to === "agent@dnipro.test" && /tickets issued/.test(m.subject))).toBe(
      true,
    );
    expect(await mailNotifications(deps, "trace-notified-again")).toBe(0);
    expect(statements()).toBe(3);
    expect(await notificationJobs(locators)).toHaveLength(1);
  });

  it("when more notifications wait than a batch, then one sweep queues them all, a job per batch", async () => {
    await mailNotifications(t.app.commandDeps, "trace-earlier");
    const locators = await Promise.all(
      Array.from({ length: 5 }, () => issuedFamily(agent, "standard", [distinctLastName("Many")])),
    );
    await notified(locators);
    expect(await mailNotifications(t.app.commandDeps, "trace-many", { batch: 2 })).toBe(5);
    expect((await notificationJobs(locators)).map((mails) => mails.length)).toEqual([2, 2, 1]);
  });

  it("when the mail server refuses one mail of the job, then the others are sent and marked, the job fails, and its next run sends only the refused one", async () => {
    await mailNotifications(t.app.commandDeps, "trace-earlier");
    const locators = await Promise.all(
      Array.from({ length: 6 }, () => issuedFamily(agent, "flex", [distinctLastName("Refusal")])),
    );
    await notified(locators);
    expect(await mailNotifications(t.app.commandDeps, "trace-refusal")).toBe(6);
    const [mails = []] = await notificationJobs(locators);
    const refusedId = mails[4]?.notification_id;
    const sent: OutgoingMail[] = [];
    let refusing = true;
    const deps = t.app.commandDeps;
    const handlers = commandJobHandlers(
      deps,
      { sweepEveryMs: 60_000, mailEveryMs: 60_000 },
      {
        send: async (mail) => {
          if (refusing && mail.subject === mails[4]?.subject) throw new Error("451 try again later");
          sent.push(mail);
        },
      },
    );
    const run = (attempt: number) =>
      handlers["send-mails"]({ mails }, deps, {
        traceId: "trace-mails",
        jobId: "1",
        attempt,
        maxAttempts: 10,
        logger: deps.logger,
      });
    const marked = async () =>
      (
        await t.db.pool.query<{ notification_id: string }>(
          "SELECT notification_id FROM app.notification_mails WHERE notification_id = ANY($1) AND sent_at IS NOT NULL",
          [mails.map((m) => m.notification_id)],
        )
      ).rows.map((r) => r.notification_id);
    await expect(run(1)).rejects.toThrow(/1 of 6 notification e-mails not sent.*451 try again later/);
    expect(sent).toHaveLength(5);
    expect((await marked()).sort()).toEqual(
      mails
        .map((m) => m.notification_id)
        .filter((id) => id !== refusedId)
        .sort(),
    );
    refusing = false;
    await run(2);
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((m) => m.subject))).toEqual(new Set(mails.map((m) => m.subject)));
    expect(await marked()).toHaveLength(6);
  });
});
