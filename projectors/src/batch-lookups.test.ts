// Issue 26: a feed batch's statements read the booking rows they change or join by key, through the tables' indexes,
// however much the tables grew since the connection's plans were made (real PostgreSQL). Joined on the key alone, a
// batch's recordset is guessed at 100 rows, and the plan PostgreSQL keeps after five runs on a young read model scanned
// the whole table on every batch after: in the flow benchmark, bookings and sales_bookings per batch, each growing
// with every booking sold.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type PoolClient, StatementBatch } from "@skyward/infra/db";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { appendFixtures, currentFixture, heldAndIssuedBy } from "@skyward/infra/event-store/fixtures";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { type Projection, tablesOf } from "@skyward/infra/projections/projection";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { bookings } from "./bookings/bookings.ts";
import { sales } from "./sales/sales.ts";

/** Rows of each read model beside the batch's own: enough that reading them all costs more than 100 index lookups. */
const OTHERS = 3000;

let db: TestDatabase;
const held = [`A${randomUUID().slice(0, 5).toUpperCase()}`, `B${randomUUID().slice(0, 5).toUpperCase()}`];
const generations = new Map<string, number>();

beforeAll(async () => {
  db = await createTestDatabase();
  const store = new EventStore(db.pool);
  await appendFixtures(
    db.pool,
    held.map((locator) => ({
      streamId: `booking-${locator}`,
      events: heldAndIssuedBy(locator, "agent-1").slice(0, 1),
      stamped: true,
    })),
  );
  for (const projection of [bookings, sales])
    generations.set(
      projection.name,
      (await rebuildProjection(db.pool, store, projection, { batchSize: 100 })).generation,
    );
  await db.pool.query("ANALYZE");
}, 60_000);
afterAll(() => db?.drop());

/**
 * The held bookings' rows copied under other locators (numbered `from` to `others`), as read models grow between two
 * of PostgreSQL's analyses, which a new database's first minutes of sales outrun.
 */
async function growReadModels(others: number, from = 1): Promise<void> {
  for (const [projection, table] of [
    [bookings, "bookings"],
    [sales, "sales_bookings"],
  ] as const) {
    const name = tablesOf(projection as Projection, generations.get(projection.name) as number)[table];
    const { rowCount } = await db.pool.query(
      `INSERT INTO ${name}
       SELECT (jsonb_populate_record(x, jsonb_build_object('locator', 'Z' || g))).* FROM ${name} x,
              generate_series($3::int, $2::int) g
        WHERE x.locator = $1`,
      [held[0], others, from],
    );
    expect(rowCount).toBe(others - from + 1);
  }
}

/** An event as the feed hands it to a projection, at a made-up position after the seeded ones. */
function stored(streamId: string, type: string, data: Record<string, unknown>, at: number): StoredEvent {
  return {
    globalPosition: BigInt(1_000_000 + at),
    transactionId: BigInt(1_000_000 + at),
    streamId,
    streamPosition: 2,
    eventId: randomUUID(),
    type,
    data,
    metadata: systemMetadata(),
    recordedAt: new Date("2026-11-20T12:30:00.000Z"),
  };
}

describe("a feed batch among thousands of rows", () => {
  it("when two held bookings are issued in one batch after the read models grew past the plans kept, then bookings and sales read the bookings' rows by key, not every row", async () => {
    const issued = currentFixture("TicketsIssued");
    const tickets = (issued.data as { tickets: Record<string, unknown>[] }).tickets;
    const events = held.map((locator, i) =>
      stored(
        `booking-${locator}`,
        "TicketsIssued",
        { ...issued.data, tickets: tickets.map((t) => ({ ...t, ticket_number: `566000000000${i}` })) },
        i,
      ),
    );
    const projections = [bookings, sales] as Projection[];
    /** The batch applied by every projection on `client`, in its transaction; the rows each table was scanned for. */
    const apply = async (client: PoolClient) => {
      const scanned: Record<string, number> = {};
      for (const projection of projections) {
        const tables = tablesOf(projection, generations.get(projection.name) as number);
        const batch = new StatementBatch();
        await projection.apply(batch, events, tables);
        expect(batch.statements.length).toBeGreaterThan(0);
        await batch.send(client);
        const { rows } = await client.query<{ relname: string; rows: string }>(
          `SELECT relname, seq_tup_read::text AS rows FROM pg_stat_xact_user_tables
            WHERE schemaname = 'read' AND relname = ANY($1::text[])`,
          [Object.values(tables).map((t) => (t as string).replace(/^read\."|"$/g, ""))],
        );
        for (const row of rows) scanned[row.relname] = Number(row.rows);
      }
      return scanned;
    };
    // The connection runs the batch's statements while the read models are small, more often than PostgreSQL's five
    // plans made for the values before it keeps one; then the read models grow.
    await growReadModels(200);
    await db.pool.query("ANALYZE");
    const client = await db.pool.connect();
    try {
      for (let i = 0; i < 6; i++) {
        await client.query("BEGIN");
        await apply(client);
        await client.query("ROLLBACK");
      }
      await growReadModels(OTHERS, 201);
      await client.query("BEGIN");
      const scanned = await apply(client);
      // The bookings' rows the batch changes (bookings) and joins (sales_bookings) were read by their keys: no more than
      // the batch's few rows scanned, where a kept plan scanned every one of the thousands.
      expect(scanned.bookings_g1).toBeLessThanOrEqual(10);
      expect(scanned.sales_bookings_g1).toBeLessThanOrEqual(10);
      // And the batch did what it says.
      const { rows: issuedRows } = await client.query<{ status: string }>(
        `SELECT status FROM ${tablesOf(bookings, generations.get(bookings.name) as number).bookings}
          WHERE locator = ANY($1::text[])`,
        [held],
      );
      expect(issuedRows.map((r) => r.status)).toEqual(["issued", "issued"]);
      const { rows: lines } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${tablesOf(sales, generations.get(sales.name) as number).sales}
          WHERE locator = ANY($1::text[])`,
        [held],
      );
      expect(lines[0]?.n).toBe(2);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
