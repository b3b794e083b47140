// The list's text filter asking the trigram index for a rare part of the text only (infra/src/sales/text-search.ts)
// finds exactly the lines the whole text finds, on PostgreSQL, over generated lines (the sales benchmark's).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Params, type SalesViewer, salesWhere } from "@skyward/infra/sales/lines";
import { selectivePart, trigramSample } from "@skyward/infra/sales/text-search";
import { type BenchDatabase, benchDatabase, seedSales } from "./sales-bench-data.ts";

const admin: SalesViewer = { userId: "a", userType: "Admin", agencyId: null, companyIds: [], demo: false };
let db: BenchDatabase;

beforeAll(async () => {
  process.env.DATABASE_URL ??= process.env.SKYWARD_TEST_SERVER_URL;
  db = await benchDatabase();
  await seedSales(db.pool, 6_000);
}, 120_000);
afterAll(() => db.drop());

async function ids(text: string, part: string | null): Promise<string[]> {
  const p = new Params();
  const { rows } = await db.pool.query<{ id: string }>(
    `SELECT s.id FROM read.sales s WHERE ${salesWhere({ text }, admin, p, part)} ORDER BY s.id`,
    p.values,
  );
  return rows.map((r) => r.id);
}

describe("sales text search", () => {
  it("finds the same lines with the index asked for the rare part of the text as with the whole text", async () => {
    const sample = await trigramSample(db.pool);
    expect(sample.lines).toBe(5_000);
    const rewritten: string[] = [];
    for (const text of [
      "passenger1234/",
      "PASSENGER12",
      "r14-x4",
      "0000000001234",
      "name r1",
      "ssenger4321/na",
    ]) {
      const part = selectivePart(text.toUpperCase(), sample);
      if (part) rewritten.push(part);
      const whole = await ids(text, null);
      expect(whole.length).toBeGreaterThan(0);
      expect(await ids(text, part)).toEqual(whole);
    }
    // The common "PASSENGER" part is left to the check for the names with numbers.
    expect(rewritten).toEqual(["1234", "01234", "R4321"]);
  }, 60_000);
});
