import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SMTPServer } from "smtp-server";
import { holdOneAdult, until } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** The time-driven booking jobs, on a clock the test moves ahead of the real one (the queue runs on real time). */
describe("booking jobs", () => {
  let t: TestApp;
  let agent: HttpClient;
  let offsetMs = 0;
  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(Date.now() + offsetMs), scheduleEveryMs: 100 });
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
  });
  afterAll(() => t.stop());

  const book = (lastName: string) => holdOneAdult(agent, lastName, { from: new Date(Date.now() + offsetMs) });

  const jobRow = async (key: string) => {
    const { rows } = await t.db.pool.query<{ run_at: Date; attempts: number; last_error: string | null }>(
      "SELECT run_at, attempts, last_error FROM graphile_worker.jobs WHERE key = $1",
      [key],
    );
    return rows[0];
  };

  it("when a held booking reaches its time limit, then its expire-booking job expires it at that moment and not before", async () => {
    const booked = await book("Later");
    const locator = booked.locator as string;
    const timeLimit = new Date(booked.time_limit).getTime();
    // Three seconds before the time limit, by the app's clock.
    offsetMs = timeLimit - Date.now() - 3000;
    const job = await until(() => jobRow(`expire-booking:${locator}`), 5000, "expire job queued");
    const dueInMs = job.run_at.getTime() - Date.now();
    expect(dueInMs).toBeGreaterThan(1500);
    expect(dueInMs).toBeLessThanOrEqual(3000);
    expect((await agent.get(`/bookings/${locator}`)).status).toBe(200);

    await until(
      async () => ((await agent.get(`/bookings/${locator}`)).status === 416 ? true : undefined),
      8000,
      "booking expired",
    );
    const { rows } = await t.db.pool.query<{ type: string; recorded_at: Date; trace_id: string }>(
      `SELECT event_type AS type, recorded_at, metadata->>'trace_id' AS trace_id
         FROM es.events WHERE stream_id = $1 ORDER BY stream_position`,
      [`booking-${locator}`],
    );
    expect(rows.map((r) => r.type)).toEqual(["BookingHeld", "BookingExpired"]);
    const expired = rows[1];
    // At its time: not before the job's run_at, and within the queue's pickup (a poll of 100 ms here) after it.
    expect(expired?.recorded_at.getTime()).toBeGreaterThanOrEqual(job.run_at.getTime());
    expect(expired?.recorded_at.getTime()).toBeLessThan(job.run_at.getTime() + 1500);
    // Decided by a job: its trace id is the sweep job's that queued it.
    expect(expired?.trace_id).toMatch(/^job-\d+$/);
    // The queue removes a done job just after its handler returned, which may be after the event is visible.
    await until(
      async () => ((await jobRow(`expire-booking:${locator}`)) === undefined ? true : undefined),
      5000,
      "expire job removed once done",
    );
  }, 20_000);

  it("when the supplier confirms a booking asynchronously, then the confirm-booking job asks again with backoff and records the confirmation", async () => {
    offsetMs = 0;
    const booked = await book("Asyncok");
    expect(booked.provider_status).toBe("in_progress");
    const locator = booked.locator as string;
    // The first answer is "still confirming": the job is retried with backoff, not dropped.
    await until(
      async () => {
        const row = await jobRow(`confirm-booking:${locator}`);
        return row && row.attempts >= 1 && row.last_error?.includes("still confirming") ? row : undefined;
      },
      5000,
      "confirm job asked once",
    );
    offsetMs = 31_000; // the sandbox confirms 30 s after booking
    const confirmed = await until(
      async () => {
        const res = await agent.get(`/bookings/${locator}`);
        return res.body?.data?.provider_status === "confirmed" ? res : undefined;
      },
      10_000,
      "booking confirmed",
    );
    expect(confirmed.body.data.status).toBe("held");
    const events = await t.events(`booking-${locator}`);
    expect(events.map((e) => e.type)).toEqual(["BookingHeld", "BookingConfirmedByProvider"]);
    expect(events[1]?.metadata.trace_id).toMatch(/^job-\d+$/);
    // The booking sweep, reading a read model that still shows the booking confirming, may queue the job once more
    // just after the confirmation is visible; that run finds the booking no longer pending and ends (a whole CI run
    // read its row).
    await until(
      async () => ((await jobRow(`confirm-booking:${locator}`)) === undefined ? true : undefined),
      5000,
      "confirm job removed once done",
    );
  }, 25_000);

  it("when the supplier fails an asynchronous booking, then it is cancelled with the airline's reason and offers nothing it cannot do", async () => {
    offsetMs = 0;
    const booked = await book("Asyncfail");
    expect(booked.provider_status).toBe("in_progress");
    const locator = booked.locator as string;
    offsetMs = 31_000; // the sandbox settles 30 s after booking
    const settled = await until(
      async () => {
        const res = await agent.get(`/bookings/${locator}`);
        return res.body?.data?.provider_status === "failed" ? res : undefined;
      },
      10_000,
      "booking failed by the airline",
    );
    const booking = settled.body.data;
    // SCENARIOS.md: a failed asynchronous booking is cancelled; the airline's reason is the booking's error.
    expect(booking).toMatchObject({ status: "cancelled", list: "cancelled" });
    expect(booking.error).toContain("The airline rejected the booking");
    const actions = Object.fromEntries((booking.actions as Json[]).map((a) => [a.action, a]));
    expect((booking.actions as Json[]).filter((a) => a.allowed)).toEqual([]);
    expect(actions.cancel).toMatchObject({ allowed: false, reason_code: "provider_failed", deadline: null });
    expect(actions.issue).toMatchObject({ allowed: false, reason_code: "provider_failed" });
    // It left the list of held bookings for the cancelled one.
    const listed = async (list: string) =>
      ((await agent.get("/bookings", { query: { list } })).body.data as Json[]).map((r) => r.locator);
    expect(await listed("new")).not.toContain(locator);
    expect(await listed("cancelled")).toContain(locator);
    // Nothing to cancel: the command is refused too, and nothing is written.
    const cancel = await agent.delete(`/bookings/${locator}`);
    expect(cancel.status).toBe(422);
    expect((await t.events(`booking-${locator}`)).map((e) => e.type)).toEqual([
      "BookingHeld",
      "BookingFailedByProvider",
    ]);
  }, 25_000);
});

describe("mail through the send-mail job", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.stop());

  it("when sign-in codes are asked for, then each reaches the dev mailbox through the job within a second", async () => {
    const users = [
      "support@skyward.test",
      "supervisor@dnipro.test",
      "agent@dnipro.test",
      "agent.lviv@dnipro.test",
      "supervisor@vistula.test",
      "demo@skyward.test",
    ];
    const latencies: number[] = [];
    const client = t.client();
    for (let round = 0; round < 3; round++) {
      for (const email of users) {
        const before = await client.latestMailId(email);
        const started = performance.now();
        const res = await client.post("/start_sign_in", { account: { email, language: "en" } });
        expect(res.status).toBe(200);
        await until(
          async () => {
            const { rows } = await t.db.pool.query(
              "SELECT 1 FROM app.dev_outbox WHERE kind = 'mail' AND recipient = $1 AND id > $2",
              [email, before],
            );
            return rows.length > 0 ? true : undefined;
          },
          1000,
          `code mail to ${email}`,
        );
        latencies.push(performance.now() - started);
      }
    }
    expect(Math.max(...latencies)).toBeLessThan(1000);
    const left = await t.db.pool.query(
      "SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = 'send-mail'",
    );
    expect(left.rowCount).toBe(0);
  }, 30_000);
});

describe("mail through a failing SMTP server", () => {
  let smtp: SMTPServer;
  let t: TestApp;
  const received: { to: string[]; at: number }[] = [];
  let refusals = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(_address, _session, callback) {
        // The first delivery meets a temporary failure, as a busy or restarting mail server answers.
        if (refusals++ === 0)
          return callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
        callback();
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), at: Date.now() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await t.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("when the mail server refuses a sign-in code once, then the job sends it again after a backoff and it arrives once", async () => {
    const asked = Date.now();
    const res = await t
      .client()
      .post("/start_sign_in", { account: { email: "agent@dnipro.test", language: "en" } });
    expect(res.status).toBe(200);
    await until(async () => (received.length > 0 ? true : undefined), 8000, "mail after a retry");
    expect(refusals).toBe(2);
    expect(received.map((r) => r.to)).toEqual([["agent@dnipro.test"]]);
    // The library's first backoff is e^1 s.
    expect((received[0]?.at ?? 0) - asked).toBeGreaterThan(2500);
    await sleep(300);
    expect(received).toHaveLength(1);
  }, 20_000);
});
