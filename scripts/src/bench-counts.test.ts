// The flow benchmark's round-trip count (issue 26): what the counting proxy in front of PostgreSQL calls one round trip.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createPool, StatementBatch } from "@skyward/infra/db";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import type pg from "pg";
import { startCountingProxy } from "../bench/pg-proxy.ts";

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startCountingProxy(db.url);
  pool = createPool(proxy.urlFor(db.url), { max: 1 });
  await pool.query("SELECT 1"); // the connection's start-up exchanges are not what the tests count
});
afterAll(async () => {
  await pool.end();
  await proxy.close();
  await db.drop();
});

/** Round trips and bytes that `work` cost. */
async function cost(work: (client: pg.PoolClient) => Promise<unknown>) {
  const client = await pool.connect();
  try {
    const before = proxy.counts();
    await work(client);
    const after = proxy.counts();
    return {
      roundTrips: after.roundTrips - before.roundTrips,
      bytes: after.bytesToServer - before.bytesToServer,
    };
  } finally {
    client.release();
  }
}

describe("the counting proxy", () => {
  it("counts each statement awaited on its own as one round trip", async () => {
    const { roundTrips, bytes } = await cost(async (client) => {
      await client.query("SELECT 1");
      await client.query("SELECT $1::int", [2]);
      await client.query("SELECT $1::text", ["three"]);
    });
    expect(roundTrips).toBe(3);
    expect(bytes).toBeGreaterThan(0);
  });

  it("counts a pipelined transaction (BEGIN, statements, COMMIT sent together) as one round trip", async () => {
    const batch = new StatementBatch();
    batch.add("BEGIN");
    for (let i = 0; i < 5; i++) batch.add("SELECT $1::int", [i]);
    batch.add("COMMIT");
    expect((await cost((client) => batch.send(client))).roundTrips).toBe(1);
  });
});
