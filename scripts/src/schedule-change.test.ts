import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { bookingPage, issuedFamily, startAfterSalesApp } from "./testing/after-sales.ts";
import { balanceFromEvents, moneyOf, until } from "./testing/bookings.ts";
import { CrashingCommandProcess, openOperations } from "./testing/crash.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/**
 * Schedule changes (issue 24.3) over real HTTP and PostgreSQL, with the real job queue: the sandbox airline changes
 * an issued booking (SCHEDMINOR, SCHEDMAJOR, SCHEDCANCEL), the polling job records it once, and the agent accepts it
 * or refunds the tickets in full, money exact under races.
 */

let t: TestApp;
let agent: HttpClient;
let companyId: string;
/** The app's clock runs this far ahead of the wall clock: a test moves it to make the agent's reminder due. */
let clockAhead = 0;
/** Shared with the child command process a crash test kills, so it reads the agent's session. */
const SECRET = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp({
    env: SECRET,
    scheduleEveryMs: 200,
    now: () => new Date(Date.now() + clockAhead),
  }));
  // The itinerary mail on issue (issue 24.1) would add its own event and mail to the traveller's address after each
  // issue: this suite counts the booking's events and reads the schedule-change mail alone.
  const admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  const off = await admin.patch(`/companies/${companyId}/itinerary_on_issue`, { itinerary_on_issue: false });
  if (off.status !== 200) throw new Error(`itinerary on issue not switched off: ${off.status}`);
});
afterAll(() => t.stop());

const eventsWritten = () => t.countEventsButBackground();
const typesOf = async (locator: string) => (await t.events(`booking-${locator}`)).map((e) => e.type);
const answer = (client: HttpClient, locator: string, body: Json) =>
  client.post(`/orders/${locator}/schedule_change/answer`, body);

/**
 * Runs the polling sweep on the job queue (again each second: it finds issued bookings in the read model, which may
 * not have seen the issue yet) and waits until the booking has its ScheduleChanged event.
 */
async function sweptChange(locator: string): Promise<Json> {
  let sent = 0;
  const events = await until(
    async () => {
      if (Date.now() - sent > 1000) {
        sent = Date.now();
        await t.app.commandDeps.jobs.send("schedule-change-sweep", {});
      }
      const found = (await t.events(`booking-${locator}`)).filter((e) => e.type === "ScheduleChanged");
      return found.length > 0 ? found : undefined;
    },
    15_000,
    `the schedule change of ${locator}`,
  );
  return events[0]?.data as Json;
}

/** The booking page once it shows the change. */
const pageWithChange = (locator: string) =>
  until(
    async () => {
      const page = await bookingPage(agent, locator);
      return page.body.data?.schedule_change ? page.body.data : undefined;
    },
    10_000,
    `the booking page of ${locator} with its schedule change`,
  );

describe("learning a schedule change", () => {
  it("when the airline moves an issued booking's flight 3 h, then the polling job records it once, and the booking page shows old, new, the choices and the deadline", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const change = await sweptChange(locator);
    expect(change.kind).toBe("major");
    expect(change.choices).toEqual(["accept", "exchange", "refund"]);
    expect(change.alternatives.map((a: Json) => a.option_id)).toEqual([
      `${change.change_id}M1`,
      `${change.change_id}P2`,
    ]);
    const oldDeparture = Date.parse(change.old_flights[0].departure_at);
    expect(Date.parse(change.new_flights[0].departure_at) - oldDeparture).toBe(190 * 60_000);
    // Due 72 h after the notice, or 2 h before departure if sooner.
    expect(Date.parse(change.respond_by)).toBe(
      Math.min(Date.parse(change.notified_at) + 72 * 3_600_000, oldDeparture - 2 * 3_600_000),
    );

    // Asked again (the sweep, the agent's "check now"): the same change, nothing written.
    const before = await eventsWritten();
    const checked = await agent.post(`/orders/${locator}/schedule_change/check`, {});
    expect(checked.status).toBe(200);
    expect(checked.body.outcome).toBe("known");
    await t.app.commandDeps.jobs.send("check-schedule-change", { locator });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await eventsWritten()).toBe(before);
    expect((await typesOf(locator)).filter((x) => x === "ScheduleChanged")).toHaveLength(1);

    const page = await pageWithChange(locator);
    expect(page.schedule_change).toMatchObject({
      change_id: change.change_id,
      kind: "major",
      answer: null,
      respond_by: change.respond_by,
      choices: ["accept", "exchange", "refund"],
    });
    // What the agent may do now: answer the change, by its deadline.
    const action = (page.actions as Json[]).find((a) => a.action === "answer_schedule_change");
    expect(action).toMatchObject({ allowed: true, deadline: change.respond_by });
    expect(page.schedule_change.old_flights[0].departure_at).toBe(change.old_flights[0].departure_at);
    expect(page.schedule_change.new_flights[0].departure_at).toBe(change.new_flights[0].departure_at);
  });

  it("when a booking has no scripted change, then the check finds none and writes nothing", async () => {
    const locator = await issuedFamily(agent, "flex");
    const before = await eventsWritten();
    const checked = await agent.post(`/orders/${locator}/schedule_change/check`, {});
    expect(checked.body.outcome).toBe("none");
    expect(await eventsWritten()).toBe(before);
  });
});

describe("answering a schedule change", () => {
  it("when the agent accepts a major change, then the booking flies the new flights, keeps its tickets, moves no money, and the airline reports the change no more", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const change = await sweptChange(locator);
    const moneyBefore = await moneyOf(t.db, locator);
    const accepted = await answer(agent, locator, { change_id: change.change_id, choice: "accept" });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ choice: "accept", status: "issued", credited: null });
    expect((await typesOf(locator)).slice(-2)).toEqual([
      "ScheduleChangeAnswerStarted",
      "ScheduleChangeAccepted",
    ]);
    expect(await moneyOf(t.db, locator)).toEqual(moneyBefore);

    const page = await bookingPage(agent, locator, accepted.body.position);
    expect(page.body.data.schedule_change.answer).toBe("accept");
    expect(page.body.data.fare.flights[0].departure_at).toBe(change.new_flights[0].departure_at);
    expect(page.body.data.status).toBe("issued");
    expect(page.body.data.history.at(-1)).toMatchObject({ kind: "schedule_change", outcome: "done" });
    expect(
      (page.body.data.actions as Json[]).find((a) => a.action === "answer_schedule_change"),
    ).toMatchObject({ allowed: false, reason_code: "no_schedule_change" });

    const again = await answer(agent, locator, { change_id: change.change_id, choice: "refund" });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe("schedule_change_answered");
    const recheck = await agent.post(`/orders/${locator}/schedule_change/check`, {});
    expect(recheck.body.outcome).toBe("none");
  });

  it("when the agent refunds a cancelled flight, then every ticket is refunded in full, no penalty, and the balance gets back exactly what it paid", async () => {
    const balanceBefore = await balanceFromEvents(t.db, companyId);
    // A standard fare: a voluntary refund would keep a penalty; an involuntary one keeps nothing.
    const locator = await issuedFamily(agent, "standard", ["SchedCancel", "Petrenko"]);
    const charged = (await moneyOf(t.db, locator)).find((m) => m.type === "BalanceCharged")?.amount ?? 0;
    expect(charged).toBeGreaterThan(0);
    const change = await sweptChange(locator);
    expect(change.kind).toBe("cancelled");
    const refunded = await answer(agent, locator, { change_id: change.change_id, choice: "refund" });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ choice: "refund", status: "refunded" });
    expect(refunded.body.credited.amount).toBe(charged);
    const credits = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCredited");
    expect(credits).toEqual([{ type: "BalanceCredited", reason: "refund", amount: charged }]);
    expect(await balanceFromEvents(t.db, companyId)).toBe(balanceBefore);

    const page = await bookingPage(agent, locator, refunded.body.position);
    expect(page.body.data.status).toBe("refunded");
    expect(page.body.data.schedule_change.answer).toBe("refund");
    const [refund] = page.body.data.refunds;
    expect(refund.lines).toHaveLength(2);
    for (const line of refund.lines) expect(line.penalty.amount).toBe(0);
  });

  it("when the agent exchanges a major change to an alternative, then new tickets fly it at the price paid, nothing is charged, and the change is answered", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const change = await sweptChange(locator);
    const [option] = change.alternatives;
    const before = await t.events(`booking-${locator}`);
    const issuedEvent = before.find((e) => e.type === "TicketsIssued");
    if (!issuedEvent) throw new Error(`no TicketsIssued on booking ${locator}`);
    const oldTickets = (issuedEvent.data.tickets as Json[]).map((x) => x.ticket_number);
    const heldPrice = (before[0] as { data: Json }).data.price;
    const moneyBefore = await moneyOf(t.db, locator);
    const noOption = await answer(agent, locator, { change_id: change.change_id, choice: "exchange" });
    expect(noOption.status).toBe(422);
    expect(noOption.body.errors[0].source.pointer).toBe("/option_id");
    const unknown = await answer(agent, locator, {
      change_id: change.change_id,
      choice: "exchange",
      option_id: "NOSUCH",
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source.pointer).toBe("/option_id");
    expect(await t.events(`booking-${locator}`)).toHaveLength(before.length);

    const exchanged = await answer(agent, locator, {
      change_id: change.change_id,
      choice: "exchange",
      option_id: option.option_id,
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ choice: "exchange", status: "exchanged", credited: null });
    expect(await moneyOf(t.db, locator)).toEqual(moneyBefore);
    const page = await bookingPage(agent, locator, exchanged.body.position);
    expect(page.body.data.status).toBe("exchanged");
    expect(page.body.data.schedule_change.answer).toBe("exchange");
    expect(page.body.data.fare.flights[0].departure_at).toBe(option.flights[0].departure_at);
    expect(page.body.data.price).toEqual(heldPrice);
    const newTickets = page.body.data.tickets.map((x: Json) => x.ticket_number);
    expect(newTickets).toHaveLength(oldTickets.length);
    for (const n of newTickets) expect(oldTickets).not.toContain(n);
  });

  it("when a minor change is answered with a refund or a bad body, then it is refused clearly and nothing is written", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMinor"]);
    const change = await sweptChange(locator);
    expect(change.choices).toEqual(["accept"]);
    const before = await eventsWritten();
    const refund = await answer(agent, locator, { change_id: change.change_id, choice: "refund" });
    expect(refund.status).toBe(422);
    expect(refund.body.errors[0]).toMatchObject({ code: "invalid_input", source: { pointer: "/choice" } });
    const bad = await answer(agent, locator, { change_id: change.change_id, choice: "rebook" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/choice");
    const missing = await answer(agent, locator, { choice: "accept" });
    expect(missing.status).toBe(422);
    const stale = await answer(agent, locator, { change_id: "SCNOTHIS", choice: "accept" });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe("schedule_change_changed");
    expect(await eventsWritten()).toBe(before);
  });

  it("when a booking without a change is answered, or another company's agent answers, then it is refused and nothing is written", async () => {
    const plain = await issuedFamily(agent, "flex");
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const change = await sweptChange(locator);
    const stranger = t.client();
    await stranger.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const before = await eventsWritten();
    const none = await answer(agent, plain, { change_id: change.change_id, choice: "accept" });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].code).toBe("no_schedule_change");
    expect((await answer(stranger, locator, { change_id: change.change_id, choice: "accept" })).status).toBe(
      404,
    );
    expect((await stranger.post(`/orders/${locator}/schedule_change/check`, {})).status).toBe(404);
    expect(await eventsWritten()).toBe(before);
  });
});

describe("telling the traveller and reminding the agent", () => {
  type Mail = { to: string; subject: string; text: string; html: string | null };
  const changeMailEvents = async (locator: string) =>
    (await t.events(`itinerary-${locator}`)).filter((e) => e.type === "ScheduleChangeMailed");
  /**
   * The dev mailbox's schedule-change mails to `to` about this booking (the agent's notifications of the same booking
   * are not these), once there are `count`, running the sweep meanwhile.
   */
  const SCHEDULE_MAIL = /Your flight changed|a schedule change waits for your answer/;
  const changeMails = async (to: string, locator: string) =>
    ((await agent.get("/dev/mailbox", { query: { to } })).body.data as Mail[]).filter(
      (m) => m.subject.includes(locator) && SCHEDULE_MAIL.test(m.subject),
    );
  const mailsOf = (to: string, locator: string, count: number) => {
    let sent = 0;
    return until(
      async () => {
        if (Date.now() - sent > 500) {
          sent = Date.now();
          await t.app.commandDeps.jobs.send("schedule-change-sweep", {});
        }
        const ours = await changeMails(to, locator);
        return ours.length >= count ? ours : undefined;
      },
      15_000,
      `${count} schedule-change mail(s) of ${locator} to ${to}`,
    );
  };
  /** Two sweeps more, then the mails as they stand: what a sweep run again adds. */
  const afterSweeps = async (to: string, locator: string) => {
    for (let i = 0; i < 2; i++) {
      await t.app.commandDeps.jobs.send("schedule-change-sweep", {});
      await new Promise((r) => setTimeout(r, 600));
    }
    return changeMails(to, locator);
  };

  it("when a change is recorded, then the traveller gets one e-mail with old and new flights, and from a day later the agent a reminder every 12 hours while it waits, each once, none after the deadline", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedCancel"]);
    const change = await sweptChange(locator);
    const [mail] = await mailsOf("traveller@example.com", locator, 1);
    expect(mail?.subject).toBe(`Your flight changed: booking ${locator}`);
    expect(mail?.text).toContain("a cancelled flight");
    const segment = (f: Json) => f.segments[0];
    const [oldSegment, newSegment] = [segment(change.old_flights[0]), segment(change.new_flights[0])];
    expect(mail?.text).toContain(
      `${oldSegment.carrier}${oldSegment.flight_number} ${oldSegment.from.code} ${oldSegment.departure_at.slice(0, 16).replace("T", " ")}`,
    );
    expect(mail?.text).toContain(
      `→ ${newSegment.carrier}${newSegment.flight_number} ${newSegment.from.code} ${newSegment.departure_at.slice(0, 16).replace("T", " ")}`,
    );
    // HTML beside the text, as the itinerary mail: old flights struck through, new ones in bold.
    expect(mail?.html).toContain("<!doctype html>");
    expect(mail?.html).toContain(
      `<s>${oldSegment.carrier}${oldSegment.flight_number} ${oldSegment.from.code} ${oldSegment.departure_at.slice(0, 16).replace("T", " ")}`,
    );
    expect(mail?.html).toContain(
      `<strong>→ ${newSegment.carrier}${newSegment.flight_number} ${newSegment.from.code}`,
    );
    // The send is an event on the booking's mail stream, shown in the booking's history of mails.
    const [recorded] = await changeMailEvents(locator);
    expect(recorded?.data).toMatchObject({
      change_id: change.change_id,
      kind: "cancelled",
      to: "traveller@example.com",
      language: "en",
    });
    const history = await until(
      async () => {
        const sent = (await agent.get(`/bookings/${locator}/itinerary_mails`)).body.data as Json[];
        return sent.find((m) => m.reason === "schedule_change");
      },
      5000,
      "the schedule-change mail in the booking's history",
    );
    expect(history).toMatchObject({ to: "traveller@example.com", by_email: null, note: null });

    // Not due yet: no reminder to the agent.
    expect(await afterSweeps("agent@dnipro.test", locator)).toEqual([]);

    const notifiedAt = Date.parse(change.notified_at);
    // The app's clock this long after the notice.
    const at = (hours: number) => {
      clockAhead = notifiedAt + hours * 3_600_000 - Date.now();
    };
    try {
      at(25);
      const reminders = await mailsOf("agent@dnipro.test", locator, 1);
      expect(reminders[0]?.subject).toBe(`Booking ${locator}: a schedule change waits for your answer`);
      expect(await afterSweeps("agent@dnipro.test", locator)).toHaveLength(1);
      // Twelve hours on, unanswered: reminded again, once.
      at(37);
      await mailsOf("agent@dnipro.test", locator, 2);
      expect(await afterSweeps("agent@dnipro.test", locator)).toHaveLength(2);
      at(49);
      await mailsOf("agent@dnipro.test", locator, 3);
      // Past the deadline (72 h after the notice): no more.
      expect(Date.parse(change.respond_by)).toBe(notifiedAt + 72 * 3_600_000);
      at(73);
      expect(await afterSweeps("agent@dnipro.test", locator)).toHaveLength(3);
      expect(await afterSweeps("traveller@example.com", locator)).toHaveLength(1);
      expect(await changeMailEvents(locator)).toHaveLength(1);
    } finally {
      clockAhead = 0;
    }
  });

  it("when the change is answered, then the agent is reminded no more", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const change = await sweptChange(locator);
    const notifiedAt = Date.parse(change.notified_at);
    try {
      clockAhead = notifiedAt + 25 * 3_600_000 - Date.now();
      await mailsOf("agent@dnipro.test", locator, 1);
      clockAhead = 0;
      const accepted = await answer(agent, locator, { change_id: change.change_id, choice: "accept" });
      expect(accepted.status).toBe(200);
      await bookingPage(agent, locator, accepted.body.position);
      clockAhead = notifiedAt + 37 * 3_600_000 - Date.now();
      expect(await afterSweeps("agent@dnipro.test", locator)).toHaveLength(1);
    } finally {
      clockAhead = 0;
    }
  });
});

describe("races", () => {
  it("when accept and refund race, then exactly one wins and money moves only if the refund won", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedMajor"]);
    const change = await sweptChange(locator);
    const answers = await Promise.all([
      answer(agent, locator, { change_id: change.change_id, choice: "accept" }),
      answer(agent, locator, { change_id: change.change_id, choice: "refund" }),
    ]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const loser = answers.find((a) => a.status !== 200);
    expect(["409 operation_in_progress", "409 schedule_change_answered", "422 not_issued"]).toContain(
      `${loser?.status} ${loser?.body.errors[0].code}`,
    );
    const winner = answers.find((a) => a.status === 200)?.body;
    const credits = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCredited");
    expect(credits).toHaveLength(winner.choice === "refund" ? 1 : 0);
    const types = await typesOf(locator);
    expect(types.filter((x) => x === "ScheduleChangeAnswerStarted")).toHaveLength(1);
  });

  it("when two involuntary refunds race, then the tickets are refunded once and credited once", async () => {
    const locator = await issuedFamily(agent, "standard", ["SchedCancel"]);
    const charged = (await moneyOf(t.db, locator)).find((m) => m.type === "BalanceCharged")?.amount ?? 0;
    const change = await sweptChange(locator);
    const answers = await Promise.all([
      answer(agent, locator, { change_id: change.change_id, choice: "refund" }),
      answer(agent, locator, { change_id: change.change_id, choice: "refund" }),
    ]);
    // The loser found the refund in flight (409) or done already (the booking refunded: 422 not_issued).
    const loser = answers.find((a) => a.status !== 200);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(["409 operation_in_progress", "409 schedule_change_answered", "422 not_issued"]).toContain(
      `${loser?.status} ${loser?.body.errors[0].code}`,
    );
    const credits = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCredited");
    expect(credits).toEqual([{ type: "BalanceCredited", reason: "refund", amount: charged }]);
    expect((await typesOf(locator)).filter((x) => x === "TicketsRefunded")).toHaveLength(1);
  });

  it("when the agent comments while the airline is slow to answer the refund, then both are recorded and the credit is exact", async () => {
    // SLOWAFTERSALES: the airline acts at once, its answer arrives 8 s later.
    const locator = await issuedFamily(agent, "standard", ["SlowAfterSales", "SchedMajor"]);
    const charged = (await moneyOf(t.db, locator)).find((m) => m.type === "BalanceCharged")?.amount ?? 0;
    const change = await sweptChange(locator);
    const refunding = answer(agent, locator, { change_id: change.change_id, choice: "refund" });
    await until(
      async () => ((await typesOf(locator)).includes("ScheduleChangeAnswerStarted") ? true : undefined),
      5_000,
      "the claim",
    );
    const comment = await agent.post("/bookings/comment", { locator, comment: "Called the traveller" });
    expect(comment.status).toBe(200);
    const other = await answer(agent, locator, { change_id: change.change_id, choice: "accept" });
    expect(other.status).toBe(409);
    expect(other.body.errors[0].code).toBe("operation_in_progress");
    const done = await refunding;
    expect(done.status).toBe(200);
    expect(done.body.credited.amount).toBe(charged);
    const types = await typesOf(locator);
    expect(types.slice(-3)).toEqual(["ScheduleChangeAnswerStarted", "BookingCommented", "TicketsRefunded"]);
    const credits = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCredited");
    expect(credits).toEqual([{ type: "BalanceCredited", reason: "refund", amount: charged }]);
  }, 30_000);
});

describe("a crash between the airline's answer and our record", () => {
  let child: CrashingCommandProcess;
  beforeAll(async () => {
    child = await CrashingCommandProcess.start(t, SECRET);
  });
  afterAll(() => child?.stop());

  it("when the process dies after the airline refunded the cancelled flight (SLOWAFTERSALES), then reconciliation records the refund and credits it once", async () => {
    const locator = await issuedFamily(agent, "standard", ["SlowAfterSales", "SchedCancel"]);
    const charged = (await moneyOf(t.db, locator)).find((m) => m.type === "BalanceCharged")?.amount ?? 0;
    const change = await sweptChange(locator);
    const before = await balanceFromEvents(t.db, companyId);
    const counts = await child.killAfterAirline(agent, locator, (c) =>
      answer(c, locator, { change_id: change.change_id, choice: "refund" }),
    );
    expect(counts).toMatchObject({ completed: 1, failed: 0 });
    expect(await openOperations(t, locator)).toEqual([]);
    expect((await typesOf(locator)).slice(-2)).toEqual(["ScheduleChangeAnswerStarted", "TicketsRefunded"]);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + charged);
    const credits = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCredited");
    expect(credits).toEqual([{ type: "BalanceCredited", reason: "refund", amount: charged }]);
  }, 60_000);
});
