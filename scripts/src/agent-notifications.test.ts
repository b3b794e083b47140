import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { AUTO_CANCEL_BEFORE_MS } from "@skyward/contracts/deadline-events";
import { holdFamily, issuedFamily, startAfterSalesApp } from "./testing/after-sales.ts";
import { holdOneAdult, until } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/**
 * Notifications to the agent (issue 24, item 2) over real HTTP and PostgreSQL, with the real job queue and the dev
 * outbox: tickets issued, an asynchronous booking settled, a schedule change and an automatic cancellation appear in
 * the agent's list with an unread count and arrive by mail, each kind switchable; a user reads and marks only their own.
 */

let t: TestApp;
let agent: HttpClient;
let admin: HttpClient;
let offsetMs = 0;

beforeAll(async () => {
  ({ t, agent } = await startAfterSalesApp({
    now: () => new Date(Date.now() + offsetMs),
    scheduleEveryMs: 100,
  }));
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
});
afterAll(() => t.stop());

const signedIn = async (email: string) => {
  const client = t.client();
  // The demo world's users sign in by code, some (administrators, one agent) by password.
  await client.signIn(email).catch(async (error: Error) => {
    if (!error.message.includes("use signInWithPassword")) throw error;
    await client.signInWithPassword(email, DEMO_PASSWORD);
  });
  return client;
};

const notificationsOf = async (client: HttpClient, position?: string) =>
  (await client.get("/notifications", position ? { headers: { "x-min-position": position } } : undefined))
    .body as { data: Json[]; unread: number };

/** The caller's notification of this kind about this booking, once it is there. */
const notified = (client: HttpClient, locator: string, kind: string) =>
  until(
    async () => (await notificationsOf(client)).data.find((n) => n.locator === locator && n.kind === kind),
    15_000,
    `a ${kind} notification of ${locator}`,
  );

const mailbox = async (to: string) =>
  (await agent.get("/dev/mailbox", { query: { to } })).body.data as { subject: string; text: string }[];
const mailsAbout = async (to: string, locator: string) =>
  (await mailbox(to)).filter((m) => m.subject.includes(locator));
const mailed = (to: string, locator: string, subject: string) =>
  until(
    async () => (await mailsAbout(to, locator)).find((m) => m.subject === subject),
    15_000,
    `the mail "${subject}" to ${to}`,
  );

const setSwitches = (client: HttpClient, kind: string, in_app: boolean, mail: boolean) =>
  client.put("/notification_settings", { settings: [{ kind, in_app, mail }] });

describe("notifications of issued tickets", () => {
  it("when an agent issues a booking, then the agent is notified in the app (unread) and by mail, once, and nobody else sees it", async () => {
    const before = (await notificationsOf(agent)).unread;
    const locator = await issuedFamily(agent, "flex");
    const notice = await notified(agent, locator, "issued");
    expect(notice).toMatchObject({ route: "KBP-WAW", read: false, detail: null });
    expect((await notificationsOf(agent)).unread).toBe(before + 1);
    const mail = await mailed("agent@dnipro.test", locator, `Booking ${locator} (KBP-WAW): tickets issued`);
    expect(mail.text).toContain("switch these e-mails off on your account page");

    // A replayed sweep mails nothing twice.
    await t.app.commandDeps.jobs.send("mail-sweep", {});
    await sleep(800);
    expect(await mailsAbout("agent@dnipro.test", locator)).toHaveLength(1);

    // Issued notices are the agent's alone: not the supervisor's, not another company's, tenant's or role's.
    for (const email of [
      "supervisor@dnipro.test",
      "agent.lviv@dnipro.test",
      "agent@vistula.test",
      "supervisor@vistula.test",
      "demo@skyward.test",
      "admin@skyward.test",
      "support@skyward.test",
      "auditor@skyward.test",
    ]) {
      const other = await signedIn(email);
      const theirs = await notificationsOf(other);
      expect(theirs.data.map((n) => n.id)).not.toContain(notice.id);
    }
  }, 60_000);

  it("when a user marks notifications read, then only their own are marked: one, then all, and the unread count follows", async () => {
    const first = await issuedFamily(agent, "flex");
    const second = await issuedFamily(agent, "flex");
    const one = await notified(agent, first, "issued");
    const two = await notified(agent, second, "issued");

    // Another tenant's agent names the agent's notification: nothing of the agent's changes.
    const stranger = await signedIn("agent@vistula.test");
    const foreign = await stranger.post("/notifications/read", { notification_ids: [one.id] });
    expect(foreign.status).toBe(200);
    const afterForeign = await notificationsOf(agent, foreign.body.position);
    expect(afterForeign.data.find((n) => n.id === one.id)?.read).toBe(false);
    const supervisor = await signedIn("supervisor@dnipro.test");
    await supervisor.post("/notifications/read", { all: true });

    const unread = (await notificationsOf(agent)).unread;
    expect(unread).toBeGreaterThanOrEqual(2);
    const marked = await agent.post("/notifications/read", { notification_ids: [one.id] });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toEqual({ notification_ids: [one.id], all: false });
    const afterOne = await notificationsOf(agent, marked.body.position);
    expect(afterOne.unread).toBe(unread - 1);
    expect(afterOne.data.find((n) => n.id === one.id)?.read).toBe(true);
    expect(afterOne.data.find((n) => n.id === two.id)?.read).toBe(false);
    const unreadOnly = await agent.get("/notifications", {
      query: { unread: "true" },
      headers: { "x-min-position": marked.body.position },
    });
    expect((unreadOnly.body.data as Json[]).map((n) => n.id)).not.toContain(one.id);

    const all = await agent.post("/notifications/read", { all: true });
    const afterAll = await notificationsOf(agent, all.body.position);
    expect(afterAll.unread).toBe(0);
    expect(afterAll.data.every((n) => n.read)).toBe(true);
  }, 60_000);

  it("when the request is bad, then it answers the error envelope naming the field and writes nothing", async () => {
    const { rows } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM es.events WHERE stream_id LIKE 'notifications-%'",
    );
    for (const body of [
      {},
      { notification_ids: [] },
      { notification_ids: "abc" },
      { all: false },
      { all: true, extra: 1 },
    ]) {
      const res = await agent.post("/notifications/read", body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].code).toBeDefined();
    }
    for (const body of [
      { settings: [] },
      { settings: [{ kind: "weather", in_app: true, mail: true }] },
      { settings: [{ kind: "issued", in_app: "yes", mail: true }] },
      {
        settings: [
          { kind: "issued", in_app: true, mail: true },
          { kind: "issued", in_app: false, mail: true },
        ],
      },
    ]) {
      const res = await agent.put("/notification_settings", body);
      expect(res.status).toBe(422);
    }
    expect((await agent.get("/notifications", { query: { unread: "maybe" } })).status).toBe(422);
    expect((await t.client().get("/notifications")).status).toBe(401);
    const after = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM es.events WHERE stream_id LIKE 'notifications-%'",
    );
    expect(after.rows[0]?.n).toBe(rows[0]?.n);
  });
});

describe("switching notifications per kind", () => {
  afterAll(async () => {
    await setSwitches(agent, "issued", true, true);
  });

  it("when the agent turns a kind off in the app and by mail, then an issue notifies nothing; with mail off alone, it shows in the app and is not mailed", async () => {
    const settings = await agent.get("/notification_settings");
    expect(settings.body.data).toContainEqual({ kind: "issued", in_app: true, mail: true });
    const off = await setSwitches(agent, "issued", false, false);
    expect(off.status).toBe(200);
    expect(off.body.data).toContainEqual({ kind: "issued", in_app: false, mail: false });
    expect(off.body.data).toContainEqual({ kind: "schedule_change", in_app: true, mail: true });
    const read = await agent.get("/notification_settings", {
      headers: { "x-min-position": off.body.position },
    });
    expect(read.body.data).toContainEqual({ kind: "issued", in_app: false, mail: false });
    // Another user's switches are their own.
    const colleague = await signedIn("agent.lviv@dnipro.test");
    expect((await colleague.get("/notification_settings")).body.data).toContainEqual({
      kind: "issued",
      in_app: true,
      mail: true,
    });

    const silent = await holdFamily(agent, "flex");
    const issued = await agent.post("/bookings/issue", { locator: silent });
    expect(issued.status).toBe(201);
    const afterIssue = await notificationsOf(agent, issued.body.position);
    expect(afterIssue.data.map((n) => n.locator)).not.toContain(silent);

    const mailOff = await setSwitches(agent, "issued", true, false);
    expect(mailOff.body.data).toContainEqual({ kind: "issued", in_app: true, mail: false });
    const shown = await issuedFamily(agent, "flex");
    await notified(agent, shown, "issued");
    // The sweep (every 100 ms here) has had many turns: neither booking was mailed.
    await sleep(1500);
    expect(await mailsAbout("agent@dnipro.test", silent)).toEqual([]);
    expect(await mailsAbout("agent@dnipro.test", shown)).toEqual([]);
  }, 60_000);
});

describe("notifications of the airline's doings", () => {
  it("when the airline changes an issued booking's schedule, then its agent and the agency's supervisors are notified in the app and by mail, and no other user", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const supervisor = await signedIn("supervisor@dnipro.test");
    // The sweep's polling finds the change (again each second, as the issue may not be in the read model yet).
    let sent = 0;
    const notice = await until(
      async () => {
        if (Date.now() - sent > 1000) {
          sent = Date.now();
          await t.app.commandDeps.jobs.send("schedule-change-sweep", {});
        }
        return (await notificationsOf(agent)).data.find(
          (n) => n.locator === locator && n.kind === "schedule_change",
        );
      },
      20_000,
      "the schedule-change notification",
    );
    expect(notice).toMatchObject({ detail: "major", read: false });
    const theirs = await notified(supervisor, locator, "schedule_change");
    expect(theirs.id).not.toBe(notice.id);
    await mailed(
      "agent@dnipro.test",
      locator,
      `Booking ${locator} (KBP-WAW): the airline changed the schedule`,
    );
    // Each in their own language (the supervisor's is Ukrainian).
    await mailed(
      "supervisor@dnipro.test",
      locator,
      `Бронювання ${locator} (KBP-WAW): авіакомпанія змінила розклад`,
    );
    for (const email of ["agent.lviv@dnipro.test", "supervisor@vistula.test", "agent@vistula.test"]) {
      const other = await signedIn(email);
      expect((await notificationsOf(other)).data.map((n) => n.locator)).not.toContain(locator);
    }
    // The supervisor's read mark is the supervisor's: the agent's notice stays unread.
    const marked = await supervisor.post("/notifications/read", { notification_ids: [theirs.id, notice.id] });
    const mine = await notificationsOf(agent, marked.body.position);
    expect(mine.data.find((n) => n.id === notice.id)?.read).toBe(false);
  }, 60_000);

  it("when the supplier confirms one asynchronous booking and fails another, then the agent is told of each", async () => {
    const from = () => new Date(Date.now() + offsetMs);
    const ok = (await holdOneAdult(agent, "Asyncok", { from: from() })).locator as string;
    const failed = (await holdOneAdult(agent, "Asyncfail", { from: from() })).locator as string;
    offsetMs += 31_000; // the sandbox settles 30 s after booking
    await notified(agent, ok, "booking_confirmed");
    const failure = await notified(agent, failed, "booking_failed");
    expect(failure.detail).toContain("The airline rejected the booking");
    await mailed("agent@dnipro.test", ok, `Booking ${ok} (KBP-WAW): the airline confirmed it`);
    const mail = await mailed(
      "agent@dnipro.test",
      failed,
      `Booking ${failed} (KBP-WAW): the airline could not confirm it`,
    );
    expect(mail.text).toContain("The airline rejected the booking");
  }, 60_000);

  it("when the watchdog cancels held bookings automatically, then the agent is notified in the app and mailed once; with the mail switched off, not mailed", async () => {
    const set = await admin.patch(`/agencies/${demoId("agency", "dnipro")}/auto_cancel_held_on`, {
      active: true,
    });
    expect(set.status).toBe(200);
    try {
      offsetMs = 0;
      const booked = await holdOneAdult(agent, "Lapsed");
      const locator = booked.locator as string;
      const timeLimit = Date.parse(booked.time_limit);
      offsetMs = timeLimit - Date.now() - AUTO_CANCEL_BEFORE_MS + 120_000;
      await notified(agent, locator, "auto_cancelled");
      await mailed("agent@dnipro.test", locator, `Booking ${locator} was cancelled automatically`);
      await sleep(800);
      expect(
        (await mailsAbout("agent@dnipro.test", locator)).filter((m) => m.subject.includes("cancelled")),
      ).toHaveLength(1);

      const off = await setSwitches(agent, "auto_cancelled", true, false);
      expect(off.status).toBe(200);
      offsetMs = 0;
      const quiet = await holdOneAdult(agent, "Lapsed");
      const quietLocator = quiet.locator as string;
      offsetMs = Date.parse(quiet.time_limit) - Date.now() - AUTO_CANCEL_BEFORE_MS + 120_000;
      await notified(agent, quietLocator, "auto_cancelled");
      // The watchdog settled its mail without sending it: its outbox row has no job.
      const row = await until(
        async () =>
          (
            await t.db.pool.query<{ job_id: string | null }>(
              "SELECT job_id FROM app.auto_cancel_mails WHERE locator = $1",
              [quietLocator],
            )
          ).rows[0],
        10_000,
        "the auto-cancel mail settled",
      );
      expect(row.job_id).toBeNull();
      expect(
        (await mailsAbout("agent@dnipro.test", quietLocator)).filter((m) => m.subject.includes("cancelled")),
      ).toEqual([]);
    } finally {
      offsetMs = 0;
      await setSwitches(agent, "auto_cancelled", true, true);
      await admin.patch(`/agencies/${demoId("agency", "dnipro")}/auto_cancel_held_on`, { active: false });
    }
  }, 60_000);
});
