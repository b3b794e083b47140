import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { issuedFamily, startAfterSalesApp } from "./testing/after-sales.ts";
import { contacts, until } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/**
 * The mails due are queued by a sweep of their own (issue 26), on a cadence shorter than the booking sweep's: here the
 * booking sweep runs once at start and then not for an hour, and the mails of an issue still leave.
 */

let t: TestApp;
let agent: HttpClient;

beforeAll(async () => {
  ({ t, agent } = await startAfterSalesApp({ scheduleEveryMs: 3_600_000, mailEveryMs: 200 }));
}, 180_000);
afterAll(() => t?.stop());

const subjectsTo = async (address: string, locator: string): Promise<string[]> => {
  const res = await agent.get("/dev/mailbox", { query: { to: address } });
  return (res.body.data as { subject: string }[]).map((m) => m.subject).filter((s) => s.includes(locator));
};

describe("the mail sweep", () => {
  it("when a booking is issued while the booking sweep waits an hour, then the traveller's itinerary and the agent's notification are mailed by the mail sweep", async () => {
    const locator = await issuedFamily(agent, "standard", ["Sweepless"]);
    const traveller = await until(
      async () => ((await subjectsTo(contacts.email, locator)).length > 0 ? true : undefined),
      15_000,
      `the itinerary of ${locator}`,
    );
    expect(traveller).toBe(true);
    const agentMails = await until(
      async () => {
        const subjects = await subjectsTo("agent@dnipro.test", locator);
        return subjects.length > 0 ? subjects : undefined;
      },
      15_000,
      `the agent's notification of ${locator}`,
    );
    expect(agentMails).toEqual([`Booking ${locator} (KBP-WAW): tickets issued`]);
    // Neither came from the booking sweep: its next run is still most of an hour away.
    const { rows } = await t.db.pool.query<{ due_in_s: number }>(
      "SELECT extract(epoch FROM run_at - now()) AS due_in_s FROM graphile_worker.jobs WHERE key = 'booking-sweep'",
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.due_in_s)).toBeGreaterThan(3_000);
  }, 60_000);
});
