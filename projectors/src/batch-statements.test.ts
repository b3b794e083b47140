// Issue 26: a feed batch's new bookings and notifications are written set-based, one statement per batch rather than
// one per event, and the rows are those the events make one batch at a time (real PostgreSQL).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { StatementBatch } from "@skyward/infra/db";
import { EventStore } from "@skyward/infra/event-store/event-store";
import {
  appendFixtures,
  currentFixture,
  type EventFixture,
  heldAndIssuedBy,
} from "@skyward/infra/event-store/fixtures";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { tablesOf } from "@skyward/infra/projections/projection";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { agentNotifications } from "./agent-notifications/agent-notifications.ts";
import { balances } from "./balances/balances.ts";
import { bookings } from "./bookings/bookings.ts";
import { directory } from "./directory/directory.ts";
import { itineraryMails } from "./itinerary/itinerary-mails.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
  // agent_notifications reads the supervisors of a schedule change from the directory's users.
  await rebuildProjection(db.pool, store, directory, { batchSize: 100 });
});
afterAll(() => db.drop());

const current = currentFixture;
const issuedBy = heldAndIssuedBy;
const inbox = (type: string, data: Record<string, unknown>): EventFixture => ({ type, version: 1, data });
const locator = () => `L${randomUUID().slice(0, 5).toUpperCase()}`;

/** The fixtures as the feed hands them to a projection (positions and time made up: apply does not read them). */
function asStored(streamId: string, fixtures: readonly EventFixture[], from: number): StoredEvent[] {
  return fixtures.map((f, i) => ({
    globalPosition: BigInt(from + i),
    transactionId: BigInt(from + i),
    streamId,
    streamPosition: i + 1,
    eventId: randomUUID(),
    type: f.type,
    data: f.data,
    metadata: { correlation_id: randomUUID(), causation_id: randomUUID() } as StoredEvent["metadata"],
    recordedAt: new Date("2026-11-20T12:30:00.000Z"),
  }));
}

describe("projection statements per feed batch", () => {
  it("when one batch holds five bookings held and issued, interleaved, then bookings writes one INSERT for the five and agent_notifications one INSERT for their rows and one for their notifications", async () => {
    const events = Array.from({ length: 5 }, (_, i) => {
      const l = locator();
      return asStored(`booking-${l}`, issuedBy(l, `agent-${i}`), i * 2 + 1);
    }).flat();
    const written = new StatementBatch();
    await bookings.apply(written, events, tablesOf(bookings, 1));
    const inserts = written.statements.filter((s) => /^\s*INSERT/.test(s.text));
    expect(inserts).toHaveLength(1);
    // The five issues still change their rows, after the INSERT.
    expect(written.statements[0]?.text).toMatch(/^\s*INSERT/);

    const notifications = new StatementBatch();
    await agentNotifications.apply(notifications, events, tablesOf(agentNotifications, 1));
    expect(notifications.statements).toHaveLength(2);
  });

  it("when a batch interleaves bookings with a switch turned off and a read mark, then the rows are those of one event per batch", async () => {
    const [agent, quiet] = ["agent", "quiet"].map((u) => `${u}-${randomUUID()}`) as [string, string];
    const [quietFirst, quietSecond, agentFirst, agentSecond] = [locator(), locator(), locator(), locator()];
    const at = "2026-11-29T08:00:00.000Z";
    // Each step its own append, so the feed keeps this order.
    for (const step of [
      [{ streamId: `booking-${quietFirst}`, events: issuedBy(quietFirst, quiet), stamped: true }],
      [
        {
          streamId: `notifications-${quiet}`,
          events: [
            inbox("NotificationSettingChanged", {
              user_id: quiet,
              kind: "issued",
              in_app: false,
              mail: false,
              at,
            }),
          ],
          stamped: true,
        },
      ],
      [{ streamId: `booking-${quietSecond}`, events: issuedBy(quietSecond, quiet), stamped: true }],
      [{ streamId: `booking-${agentFirst}`, events: issuedBy(agentFirst, agent), stamped: true }],
      [
        {
          streamId: `notifications-${agent}`,
          events: [inbox("NotificationsMarkedRead", { user_id: agent, notification_ids: [], all: true, at })],
          stamped: true,
        },
      ],
      [{ streamId: `booking-${agentSecond}`, events: issuedBy(agentSecond, agent), stamped: true }],
    ])
      await appendFixtures(db.pool, step);
    const snapshot = async () => ({
      notifications: (
        await db.pool.query(
          `SELECT id, user_id, kind, locator, route, in_app, mail, read_at IS NOT NULL AS read
             FROM read.notifications WHERE user_id = ANY($1) ORDER BY id`,
          [[agent, quiet]],
        )
      ).rows,
      bookings: (
        await db.pool.query(
          "SELECT to_jsonb(b) AS row FROM read.bookings b WHERE locator = ANY($1) ORDER BY locator",
          [[quietFirst, quietSecond, agentFirst, agentSecond]],
        )
      ).rows,
    });
    for (const projection of [bookings, agentNotifications])
      await rebuildProjection(db.pool, store, projection, { batchSize: 1 });
    const oneByOne = await snapshot();
    for (const projection of [bookings, agentNotifications])
      await rebuildProjection(db.pool, store, projection, { batchSize: 1000 });
    const batched = await snapshot();
    expect(batched).toEqual(oneByOne);
    // What one by one gives: the quiet user's first booking notified, the second not; the agent's first read.
    expect(oneByOne.bookings).toHaveLength(4);
    expect(oneByOne.notifications.map((n) => [n.locator, n.read])).toEqual(
      expect.arrayContaining([
        [quietFirst, false],
        [agentFirst, true],
        [agentSecond, false],
      ]),
    );
    expect(oneByOne.notifications).toHaveLength(3);
  });
  it("when a batch holds several bookings' issue started and then issued, then bookings updates them with one statement per kind, and the rows are those of one event per batch", async () => {
    const locators = [locator(), locator(), locator(), locator()];
    // The feed's order: the bookings held, then each issue started, then each issued (three appends).
    const phases = [
      locators.flatMap((l, i) =>
        asStored(`booking-${l}`, [issuedBy(l, `agent-${i}`)[0] as EventFixture], i + 1),
      ),
      locators.flatMap((l, i) => asStored(`booking-${l}`, [current("TicketingStarted")], i + 11)),
      locators.flatMap((l, i) => asStored(`booking-${l}`, [current("TicketsIssued")], i + 21)),
    ];
    const written = new StatementBatch();
    await bookings.apply(written, phases.flat(), tablesOf(bookings, 1));
    expect(written.statements).toHaveLength(3);

    const metadata = systemMetadata("batch-statements");
    for (const [version, phase] of [
      ["no_stream", [issuedBy("", "")[0] as EventFixture]],
      [1, [current("TicketingStarted")]],
      [2, [current("TicketsIssued")]],
    ] as const)
      await store.append(
        locators.map((l, i) => ({
          streamId: `booking-${l}`,
          expected: version,
          events: phase.map((f) => ({
            type: f.type,
            data: f.type === "BookingHeld" ? { ...f.data, locator: l, agent_id: `agent-${i}` } : f.data,
            metadata,
          })),
        })),
      );
    const rowsOf = async () =>
      (
        await db.pool.query(
          "SELECT to_jsonb(b) AS row FROM read.bookings b WHERE locator = ANY($1) ORDER BY locator",
          [locators],
        )
      ).rows;
    await rebuildProjection(db.pool, store, bookings, { batchSize: 1 });
    const oneByOne = await rowsOf();
    await rebuildProjection(db.pool, store, bookings, { batchSize: 1000 });
    expect(await rowsOf()).toEqual(oneByOne);
    expect(oneByOne.map((r) => r.row.status)).toEqual(["issued", "issued", "issued", "issued"]);
  });
  it("when a batch holds a booking's issue started and no balance movement, then balances writes its operation only, not an empty movement statement", async () => {
    const l = locator();
    const written = new StatementBatch();
    await balances.apply(
      written,
      asStored(`booking-${l}`, [current("TicketingStarted")], 1),
      tablesOf(balances, 1),
    );
    expect(written.statements).toHaveLength(1);
    expect(written.statements[0]?.text).toMatch(/balance_operations/);
  });
  it("when a batch holds a sweep's itinerary mails and a schedule-change mail, then itinerary_mails writes one INSERT for them, and the rows are those of one event per batch", async () => {
    const locators = [locator(), locator(), locator()];
    const changedLocator = locator();
    const mailed = (l: string, i: number) => ({
      type: "ItineraryMailed",
      version: 1,
      data: {
        mail_id: `issued-${l}`,
        locator: l,
        agency_id: "agency-1",
        company_id: "company-1",
        to: "traveller@example.com",
        note: i === 1 ? "Bon voyage" : null,
        language: "en",
        reason: i === 2 ? "on_demand" : "issued",
        by: i === 2 ? { user_id: "agent-1", email: "agent@example.com" } : null,
        at: `2026-11-29T08:0${i}:00.000Z`,
      },
    });
    const changed = (l: string) => ({
      type: "ScheduleChangeMailed",
      version: 1,
      data: {
        mail_id: `change-${l}`,
        locator: l,
        agency_id: "agency-1",
        company_id: "company-1",
        change_id: `change-${l}`,
        kind: "minor",
        to: "traveller@example.com",
        language: "fr",
        at: "2026-11-29T09:00:00.000Z",
      },
    });
    const events = [
      ...locators.flatMap((l, i) => asStored(`itinerary-${l}`, [mailed(l, i)], i + 1)),
      ...asStored(`itinerary-${changedLocator}`, [changed(changedLocator)], 10),
    ];
    const written = new StatementBatch();
    await itineraryMails.apply(written, events, tablesOf(itineraryMails, 1));
    expect(written.statements).toHaveLength(1);

    // Each mail its own append, so the feed keeps this order.
    for (const [i, l] of locators.entries())
      await appendFixtures(db.pool, [{ streamId: `itinerary-${l}`, events: [mailed(l, i)], stamped: true }]);
    await appendFixtures(db.pool, [
      { streamId: `itinerary-${changedLocator}`, events: [changed(changedLocator)], stamped: true },
    ]);
    const rowsOf = async () =>
      (
        await db.pool.query(
          "SELECT to_jsonb(m) AS row FROM read.itinerary_mails m WHERE locator = ANY($1) ORDER BY mail_id",
          [[...locators, changedLocator]],
        )
      ).rows;
    await rebuildProjection(db.pool, store, itineraryMails, { batchSize: 1 });
    const oneByOne = await rowsOf();
    await rebuildProjection(db.pool, store, itineraryMails, { batchSize: 1000 });
    expect(await rowsOf()).toEqual(oneByOne);
    expect(oneByOne.map((r) => [r.row.reason, r.row.note, r.row.by_email])).toEqual(
      expect.arrayContaining([
        ["issued", null, null],
        ["issued", "Bon voyage", null],
        ["on_demand", null, "agent@example.com"],
        ["schedule_change", null, null],
      ]),
    );
    expect(oneByOne).toHaveLength(4);
  });
  it("when a batch holds issues started with their balance charges, then balances writes one statement for their operations and lines, and the lines (with their operations) are those of one event per batch", async () => {
    const company = `company-${randomUUID()}`;
    const [first, second, third] = [locator(), locator(), locator()];
    const started = (operationId: string): EventFixture => ({
      ...current("TicketingStarted"),
      data: { ...current("TicketingStarted").data, operation_id: operationId },
    });
    const charged = (l: string, operationId?: string): EventFixture => ({
      type: "BalanceCharged",
      version: 2,
      data: {
        company_id: company,
        amount: { amount: 100_00, currency: "UAH" },
        locator: l,
        reason: "issue",
        ...(operationId ? { operation_id: operationId } : {}),
      },
    });
    const written = new StatementBatch();
    await balances.apply(
      written,
      [
        ...asStored(`booking-${first}`, [started("op-first")], 1),
        ...asStored(`balance-${company}`, [charged(first)], 2),
      ].map((e) => ({ ...e, metadata: systemMetadata("batch-statements") as StoredEvent["metadata"] })),
      tablesOf(balances, 1),
    );
    expect(written.statements).toHaveLength(1);

    // Each issue's booking event and charge in one append (one transaction): the first with its booking event first,
    // the second with its charge first (its operation comes after its line), the third naming its own operation.
    await appendFixtures(db.pool, [
      { streamId: `booking-${first}`, events: [started("op-first")], stamped: true },
      { streamId: `balance-${company}`, events: [charged(first)], stamped: true },
    ]);
    await appendFixtures(db.pool, [
      { streamId: `balance-${company}-2`, events: [charged(second)], stamped: true },
      { streamId: `booking-${second}`, events: [started("op-second")], stamped: true },
    ]);
    await appendFixtures(db.pool, [
      { streamId: `balance-${company}-3`, events: [charged(third, "op-third")], stamped: true },
    ]);
    const linesOf = async () =>
      (
        await db.pool.query(
          `SELECT locator, amount, balance_after, operation_id FROM read.balance_history
            WHERE company_id = $1 ORDER BY position`,
          [company],
        )
      ).rows;
    await rebuildProjection(db.pool, store, balances, { batchSize: 1 });
    const oneByOne = await linesOf();
    await rebuildProjection(db.pool, store, balances, { batchSize: 1000 });
    expect(await linesOf()).toEqual(oneByOne);
    expect(oneByOne).toEqual([
      { locator: first, amount: -10000, balance_after: -10000, operation_id: "op-first" },
      { locator: second, amount: -10000, balance_after: -20000, operation_id: "op-second" },
      { locator: third, amount: -10000, balance_after: -30000, operation_id: "op-third" },
    ]);
  });
});
