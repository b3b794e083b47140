import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { AUTO_CANCEL_BEFORE_MS, REMIND_BEFORE_MS } from "@skyward/contracts/deadline-events";
import { type Skyward, startSkyward } from "./app.ts";
import { holdOneAdult, until } from "./testing/bookings.ts";
import { HttpClient, type Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const dnipro = demoId("agency", "dnipro");

/** The ticketing-deadline watchdog on a clock the test moves to just before each booking's time limit. */
describe("ticketing-deadline watchdog", () => {
  let t: TestApp;
  let restarted: Skyward | null = null;
  let agent: HttpClient;
  let admin: HttpClient;
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  beforeAll(async () => {
    t = await startTestApp({ now, scheduleEveryMs: 100 });
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
    admin = t.client();
    await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  });
  afterAll(async () => {
    if (!restarted) return t.stop();
    await restarted.stop();
    await t.db.drop();
  });

  async function book(lastName: string) {
    offsetMs = 0;
    const booked = await holdOneAdult(agent, lastName);
    return { locator: booked.locator as string, timeLimit: Date.parse(booked.time_limit) };
  }

  const remindersTo = async (locator: string) => {
    const res = await agent.get("/dev/mailbox", { query: { to: "agent@dnipro.test" } });
    return (res.body.data as { subject: string; text: string }[]).filter((m) => m.subject.includes(locator));
  };
  const noticesOf = async (client: HttpClient) =>
    (await client.get("/time_limit_notices")).body.data as Json[];

  it("when a held booking nears its time limit, then its agent is reminded once by e-mail and in the app, across a restart, and nothing is cancelled without the agency's setting", async () => {
    const { locator, timeLimit } = await book("Watched");
    // Not yet: more than the reminder's lead (and the sweep's one-minute lookahead) before the time limit.
    offsetMs = timeLimit - Date.now() - REMIND_BEFORE_MS - 5 * 60_000;
    await sleep(600);
    expect(await t.events(`deadline-${locator}`)).toEqual([]);

    offsetMs = timeLimit - Date.now() - REMIND_BEFORE_MS + 60_000;
    const [reminder] = await until(
      async () => {
        const events = await t.events(`deadline-${locator}`);
        return events.length > 0 ? events : undefined;
      },
      8000,
      "reminder recorded",
    );
    expect(reminder).toMatchObject({
      type: "TimeLimitReminderSent",
      data: { locator, auto_cancel_at: null, emailed_to: "agent@dnipro.test" },
      metadata: { actor: { role: "System" }, source: "system" },
    });
    const [mail] = await until(
      async () => ((await remindersTo(locator)).length > 0 ? remindersTo(locator) : undefined),
      8000,
      "reminder e-mailed",
    );
    expect(mail?.subject).toBe(`Booking ${locator}: the time limit is near`);
    // Without the agency's cancellation the airline's time limit is the deadline, in the agency's zone, named.
    const kyivTime = new Intl.DateTimeFormat("en", {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: "Europe/Kyiv",
    }).format(new Date(timeLimit));
    expect(mail?.text).toContain(`is held until ${kyivTime} Europe/Kyiv.`);
    const notice = await until(
      async () => (await noticesOf(agent)).find((n) => n.locator === locator),
      5000,
      "in-app notice",
    );
    expect(notice).toMatchObject({ kind: "time_limit_near", auto_cancel_at: null, route: "KBP-WAW" });
    // Another agency's users never see it.
    const other = t.client();
    await other.signIn("supervisor@vistula.test");
    expect((await noticesOf(other)).map((n) => n.locator)).not.toContain(locator);

    // The app restarts on the same database: its sweeps find the booking again and remind nobody twice.
    await t.app.stop();
    restarted = await startSkyward({
      databaseUrl: t.db.url,
      port: 0,
      seedDemo: false,
      logLevel: "silent",
      now,
      scheduleEveryMs: 100,
    });
    agent = new HttpClient(restarted.url);
    await agent.signIn("agent@dnipro.test");
    // Past the point where the agency's setting would cancel it: with the setting off, it stays held.
    offsetMs = timeLimit - Date.now() - AUTO_CANCEL_BEFORE_MS + 60_000;
    await sleep(2000);
    expect((await t.events(`deadline-${locator}`)).map((e) => e.type)).toEqual(["TimeLimitReminderSent"]);
    expect(await remindersTo(locator)).toHaveLength(1);
    expect((await t.events(`booking-${locator}`)).map((e) => e.type)).toEqual(["BookingHeld"]);
  }, 40_000);
});

describe("ticketing-deadline watchdog with the agency's automatic cancellation", () => {
  let t: TestApp;
  let agent: HttpClient;
  let offsetMs = 0;
  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(Date.now() + offsetMs), scheduleEveryMs: 100 });
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
  });
  afterAll(() => t.stop());

  it("when the agency cancels held bookings automatically, then a booking nearing its time limit is reminded, then cancelled through the cancel operation before the airline's limit", async () => {
    const admin = t.client();
    await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
    const set = await admin.patch(`/agencies/${dnipro}/auto_cancel_held_on`, { active: true });
    expect(set.status).toBe(200);
    // Only administrators switch it.
    const supervisor = t.client();
    await supervisor.signIn("supervisor@dnipro.test");
    const refused = await supervisor.patch(`/agencies/${dnipro}/auto_cancel_held_on`, { active: false });
    expect([refused.status, refused.body.errors[0].code]).toEqual([403, "admin_only"]);

    const booked = await holdOneAdult(agent, "Lapsed");
    const locator = booked.locator as string;
    const timeLimit = Date.parse(booked.time_limit);
    // Every deadline the agent is shown is the moment the booking is really lost: the agency's cancellation.
    const lost = new Date(timeLimit - AUTO_CANCEL_BEFORE_MS).toISOString();
    const afterBooking = { headers: { "x-min-position": booked.position as string } };
    const read = (await agent.get(`/bookings/${locator}`, afterBooking)).body.data;
    expect(read).toMatchObject({ cancel_before: lost, auto_cancel_at: lost, auto_cancelled_at: null });
    const actions = Object.fromEntries((read.actions as Json[]).map((a) => [a.action, a]));
    expect(actions.issue).toMatchObject({ allowed: true, deadline: lost });
    expect(actions.cancel).toMatchObject({ allowed: true, deadline: lost });
    const row = ((await agent.get("/bookings", afterBooking)).body.data as Json[]).find(
      (r) => r.locator === locator,
    );
    expect(row).toMatchObject({ time_limit: new Date(timeLimit).toISOString(), cancel_before: lost });

    // Between the automatic cancellation and the airline's time limit.
    offsetMs = timeLimit - Date.now() - AUTO_CANCEL_BEFORE_MS + 120_000;
    const cancelled = await until(
      async () => {
        const types = (await t.events(`booking-${locator}`)).map((e) => e.type as string);
        return types.includes("BookingCancelled") ? types : undefined;
      },
      10_000,
      "booking cancelled",
    );
    // The ordinary cancel operation, not an expiry.
    expect(cancelled).toEqual(["BookingHeld", "CancelStarted", "BookingCancelled"]);
    const bookingEvents = await t.events(`booking-${locator}`);
    const operationId = bookingEvents[1]?.data.operation_id;
    expect(bookingEvents[2]?.metadata).toMatchObject({ actor: { role: "System" }, source: "system" });

    const deadline = await until(
      async () => {
        const events = await t.events(`deadline-${locator}`);
        return events.length === 2 ? events : undefined;
      },
      5000,
      "watchdog events",
    );
    expect(deadline.map((e) => e.type)).toEqual(["TimeLimitReminderSent", "HeldBookingAutoCancelled"]);
    // Announced first, with the moment it would be cancelled.
    expect(deadline[0]?.data.auto_cancel_at).toBe(new Date(timeLimit - AUTO_CANCEL_BEFORE_MS).toISOString());
    expect(deadline[1]?.data.operation_id).toBe(operationId);

    const res = await until(
      async () => {
        const page = await agent.get(`/bookings/${locator}`);
        return page.body.data?.auto_cancelled_at ? page : undefined;
      },
      5000,
      "booking read shows the automatic cancellation",
    );
    // The booking says it was cancelled automatically, and when; nothing is offered on it any more.
    expect(res.body.data).toMatchObject({
      status: "cancelled",
      auto_cancelled_at: deadline[1]?.data.at,
      auto_cancel_at: null,
    });
    expect((res.body.data.actions as Json[]).filter((a) => a.allowed)).toEqual([]);

    // The agent is told by e-mail, once: the reminder named the moment it would be cancelled, then the cancellation,
    // with times in the agency's zone (Dnipro Travel: Europe/Kyiv), named.
    const kyiv = (at: number | string) =>
      `${new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Kyiv" }).format(new Date(at))} Europe/Kyiv`;
    const mails = await until(
      async () => {
        const inbox = (await agent.get("/dev/mailbox", { query: { to: "agent@dnipro.test" } })).body.data as {
          subject: string;
          text: string;
        }[];
        const ours = inbox.filter((m) => m.subject.includes(locator));
        return ours.length >= 2 ? ours : undefined;
      },
      8000,
      "reminder and cancellation e-mailed",
    );
    const reminderMail = mails.find((m) => m.subject.includes("time limit is near"));
    expect(reminderMail?.text).toContain(`is held until ${kyiv(lost)}`);
    expect(reminderMail?.text).toContain(`The airline's time limit is ${kyiv(timeLimit)}`);
    const cancelledMail = mails.find((m) => m.subject === `Booking ${locator} was cancelled automatically`);
    expect(cancelledMail?.text).toContain(
      `was cancelled at ${kyiv(deadline[1]?.data.at as string)} by your agency's setting`,
    );
    expect(cancelledMail?.text).not.toContain("UTC");
    const notice = await until(
      async () => {
        const data = (await agent.get("/time_limit_notices")).body.data as Json[];
        return data.find((n) => n.locator === locator && n.kind === "auto_cancelled");
      },
      5000,
      "auto-cancelled notice",
    );
    expect(notice.auto_cancelled_at).toBe(deadline[1]?.data.at);

    // Later sweeps change nothing more, and mail nothing more.
    await sleep(800);
    expect(await t.events(`deadline-${locator}`)).toHaveLength(2);
    const inbox = (await agent.get("/dev/mailbox", { query: { to: "agent@dnipro.test" } })).body.data as {
      subject: string;
    }[];
    expect(inbox.filter((m) => m.subject.includes(locator))).toHaveLength(2);
    expect(await t.events(`booking-${locator}`)).toHaveLength(3);
  }, 40_000);
});
