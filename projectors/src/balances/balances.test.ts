// The balances read model from real events in a real PostgreSQL: one set-based statement per batch must give
// the rows that applying the events one by one gives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { BalanceEvent } from "@skyward/contracts/balances";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { balances } from "./balances.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

const uah = (amount: number) => ({ amount, currency: "UAH" });

async function append(companyId: string, events: BalanceEvent[]): Promise<void> {
  const metadata = systemMetadata();
  await store.append({
    streamId: `balance-${companyId}`,
    expected: "any",
    events: events.map((e) => ({ ...e, metadata })),
  });
}

/** The read model rebuilt from every event, `batchSize` events per batch, for the companies named. */
async function rebuilt(batchSize: number, companyIds: string[]) {
  await rebuildProjection(db.pool, store, balances, { batchSize });
  const query = (sql: string) => db.pool.query(sql, [companyIds]).then((r) => r.rows);
  return {
    balances: await query(
      `SELECT company_id, amount, currency, credit_limit FROM read.company_balances WHERE company_id = ANY($1)
        ORDER BY 1`,
    ),
    history: await query(
      `SELECT company_id, kind, amount, balance_after, locator, reason FROM read.balance_history
        WHERE company_id = ANY($1) ORDER BY position`,
    ),
  };
}

describe("balances projection", () => {
  it("when a batch tops up, charges and credits two companies, then each balance and each line's balance after are those of the events one by one", async () => {
    const a = randomUUID();
    const b = randomUUID();
    await append(a, [
      { type: "BalanceToppedUp", data: { company_id: a, amount: uah(1000_00), comment: "Opening" } },
    ]);
    await append(a, [
      {
        type: "BalanceCharged",
        data: { company_id: a, amount: uah(300_00), locator: "AB12CD", reason: "issue" },
      },
    ]);
    await append(b, [
      { type: "BalanceToppedUp", data: { company_id: b, amount: uah(50_00), comment: "Opening" } },
    ]);
    await append(a, [
      {
        type: "BalanceCredited",
        data: { company_id: a, amount: uah(100_00), locator: "AB12CD", reason: "void" },
      },
    ]);
    await append(a, [
      { type: "BalanceCreditLimitSet", data: { company_id: a, credit_limit: uah(500_00) } },
      { type: "BalanceCorrected", data: { company_id: a, amount: uah(-900_00), reason: "Wire returned" } },
    ]);

    const oneByOne = await rebuilt(1, [a, b]);
    const together = await rebuilt(1000, [a, b]);

    expect(together).toEqual(oneByOne);
    expect(together.balances).toEqual(
      [
        { company_id: a, amount: -100_00, currency: "UAH", credit_limit: 500_00 },
        { company_id: b, amount: 50_00, currency: "UAH", credit_limit: 0 },
      ].sort((x, y) => x.company_id.localeCompare(y.company_id)),
    );
    expect(together.history.filter((h) => h.company_id === a)).toEqual([
      {
        company_id: a,
        kind: "top_up",
        amount: 1000_00,
        balance_after: 1000_00,
        locator: null,
        reason: "Opening",
      },
      {
        company_id: a,
        kind: "charge",
        amount: -300_00,
        balance_after: 700_00,
        locator: "AB12CD",
        reason: "issue",
      },
      {
        company_id: a,
        kind: "credit",
        amount: 100_00,
        balance_after: 800_00,
        locator: "AB12CD",
        reason: "void",
      },
      {
        company_id: a,
        kind: "correction",
        amount: -900_00,
        balance_after: -100_00,
        locator: null,
        reason: "Wire returned",
      },
    ]);
  });

  it("when a balance event's data does not match its schema, then the batch fails instead of folding it", async () => {
    const own = await createTestDatabase(); // its bad event would fail every later rebuild of a shared store
    const c = randomUUID();
    const badStore = new EventStore(own.pool);
    await badStore.append({
      streamId: `balance-${c}`,
      expected: "any",
      events: [{ type: "BalanceCharged", data: { company_id: c, amount: 5 }, metadata: systemMetadata() }],
    });
    try {
      await expect(rebuildProjection(own.pool, badStore, balances)).rejects.toThrow(/amount/);
    } finally {
      await own.drop();
    }
  });
});
