// The agents' notifications from booking and inbox events in a real PostgreSQL: events in, rows out.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { EventStore } from "@skyward/infra/event-store/event-store";
import {
  appendFixtures,
  currentFixture,
  type EventFixture,
  heldAndIssuedBy,
} from "@skyward/infra/event-store/fixtures";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { directory } from "../directory/directory.ts";
import { agentNotifications } from "./agent-notifications.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
  // The supervisors of a schedule change are read from the directory's users.
  await rebuildProjection(db.pool, store, directory, { batchSize: 100 });
});
afterAll(() => db.drop());

const _current = currentFixture;
const issuedBy = heldAndIssuedBy;
const inbox = (type: string, data: Record<string, unknown>): EventFixture => ({ type, version: 1, data });

const rows = async (userId: string) =>
  (
    await db.pool.query<{
      id: string;
      kind: string;
      locator: string;
      in_app: boolean;
      mail: boolean;
      read: boolean;
    }>(
      `SELECT id, kind, locator, in_app, mail, read_at IS NOT NULL AS read FROM read.notifications
        WHERE user_id = $1 ORDER BY id`,
      [userId],
    )
  ).rows;

describe("agent_notifications projection", () => {
  it("when a booking is issued, then its agent has one unread notification, shown and mailed by default; a user who switched the kind off gets none; a read mark reads only its user's; a rebuild writes the same ids", async () => {
    const [a, b, c] = ["A", "B", "C"].map((p) => `${p}${randomUUID().slice(0, 5).toUpperCase()}`);
    const [agent, quiet, other] = ["agent", "quiet", "other"].map((u) => `${u}-${randomUUID()}`);
    const at = "2026-11-29T08:00:00.000Z";
    await appendFixtures(db.pool, [
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
      {
        streamId: `notifications-${other}`,
        events: [
          inbox("NotificationSettingChanged", {
            user_id: other,
            kind: "issued",
            in_app: true,
            mail: false,
            at,
          }),
        ],
        stamped: true,
      },
    ]);
    // The bookings afterwards (one append orders its streams by name).
    await appendFixtures(db.pool, [
      { streamId: `booking-${a}`, events: issuedBy(a as string, agent as string), stamped: true },
      { streamId: `booking-${b}`, events: issuedBy(b as string, quiet as string), stamped: true },
      { streamId: `booking-${c}`, events: issuedBy(c as string, other as string), stamped: true },
    ]);
    await rebuildProjection(db.pool, store, agentNotifications, { batchSize: 100 });
    const [mine] = await rows(agent as string);
    expect(mine).toMatchObject({ kind: "issued", locator: a, in_app: true, mail: true, read: false });
    expect(mine?.id).toMatch(new RegExp(`^[0-9a-f-]{36}:${agent}$`));
    expect(await rows(quiet as string)).toEqual([]);
    expect(await rows(other as string)).toMatchObject([{ locator: c, in_app: true, mail: false }]);

    // Another user names the agent's notification: nothing of the agent's is read. The agent's own mark is.
    await appendFixtures(db.pool, [
      {
        streamId: `notifications-${other}-marks`,
        events: [
          inbox("NotificationsMarkedRead", { user_id: other, notification_ids: [mine?.id], all: false, at }),
        ],
        stamped: true,
      },
    ]);
    await rebuildProjection(db.pool, store, agentNotifications, { batchSize: 100 });
    expect((await rows(agent as string))[0]?.read).toBe(false);
    await appendFixtures(db.pool, [
      {
        streamId: `notifications-${agent}`,
        events: [inbox("NotificationsMarkedRead", { user_id: agent, notification_ids: [], all: true, at })],
        stamped: true,
      },
    ]);
    await rebuildProjection(db.pool, store, agentNotifications, { batchSize: 100 });
    const rebuilt = await rows(agent as string);
    expect(rebuilt).toEqual([{ ...mine, read: true }]);
    expect((await rows(other as string))[0]?.read).toBe(false);
  });
});
