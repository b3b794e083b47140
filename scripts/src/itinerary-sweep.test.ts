import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mailItinerariesOnIssue } from "@skyward/command-service/itinerary/itinerary";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { countingPool } from "@skyward/infra/testing";
import { holdFamily, issuedFamily } from "./testing/after-sales.ts";
import { contacts, topUp, until } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * The booking sweep's itineraries on issue (issue 26): what a sweep of several issued bookings costs in statements,
 * and that each booking's mail is still recorded and queued once. The app runs no jobs, so only this test sweeps.
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

describe("the itineraries on issue of a sweep", () => {
  it("when three bookings were issued, then one sweep records and queues their three mails with their streams read in one statement and their appends together; a second sweep mails nothing", async () => {
    const locators = [
      await issuedFamily(agent, "standard", ["Sweep"]),
      await issuedFamily(agent, "standard", ["Sweep"]),
      await issuedFamily(agent, "flex", ["Sweep"]),
    ];
    // The sweep finds them through the bookings read model.
    await until(
      async () => {
        const { rows } = await t.db.pool.query(
          "SELECT 1 FROM read.bookings WHERE locator = ANY($1) AND issued_at IS NOT NULL",
          [locators],
        );
        return rows.length === 3 ? true : undefined;
      },
      15_000,
      "the three issued bookings in the read model",
    );
    const { pool: counting, statements } = countingPool(t.app.pool);
    // As the jobs process appends: group commit.
    const store = new EventStore(counting, undefined, 5000, { groupCommit: true });
    const deps = { ...t.app.commandDeps, pool: counting, store };

    expect(await mailItinerariesOnIssue(deps, "trace-sweep")).toBe(3);
    // The bookings (1), their streams and their mails' streams (1), the company's setting (1), the appends of the
    // three mails (at most 3, together when they meet), each mail's claim and job (3). Before: 4 per booking.
    expect(statements()).toBeLessThanOrEqual(9);
    for (const locator of locators) {
      const events = await t.events(`itinerary-${locator}`);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: "ItineraryMailed",
        data: { locator, reason: "issued", to: contacts.email, mail_id: `issued-${locator}` },
      });
    }
    const { rows: queued } = await t.db.pool.query<{ mail_id: string; job_id: string | null }>(
      "SELECT mail_id, job_id FROM app.itinerary_mails WHERE locator = ANY($1) ORDER BY mail_id",
      [locators],
    );
    expect(queued.map((r) => r.mail_id)).toEqual(locators.map((l) => `issued-${l}`).sort());
    expect(queued.every((r) => r.job_id !== null)).toBe(true);

    const before = statements();
    expect(await mailItinerariesOnIssue(deps, "trace-sweep-again")).toBe(0);
    expect(statements() - before).toBe(1);
    for (const locator of locators) expect(await t.events(`itinerary-${locator}`)).toHaveLength(1);
  });
});
