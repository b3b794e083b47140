import { brotliDecompressSync } from "node:zlib";
// Result pages against a real PostgreSQL: a page kept by one command-service process is served by another.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SearchRequest } from "@skyward/contracts/offers";
import { NO_MARKUPS } from "@skyward/contracts/pricing";
import { ChangeNotices } from "@skyward/infra/event-store/change-notices";
import type { Principal } from "@skyward/infra/http/context";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { priceSearchResult } from "../pricing/apply-pricing.ts";
import { SandboxSupplier } from "../suppliers/sandbox/sandbox-supplier.ts";
import { SearchResults, type StoredSearch } from "./search-results.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const agent = (userId: string): Principal => ({
  userId,
  userType: "Agent",
  agencyId: "agency",
  companyIds: ["company"],
  demo: false,
  sessionId: null,
});

async function page(id: string): Promise<StoredSearch> {
  const request = SearchRequest.parse({
    origin: "KBP",
    destination: "WAW",
    departure_date: "2025-06-01",
    passengers: { adults: 1 },
  });
  const found = await new SandboxSupplier().search(request, {
    now: new Date("2025-05-20T09:00:00Z"),
    currency: "UAH",
    credentials: { login: "agency", password: "secret" },
  });
  const result = { ...priceSearchResult(found, NO_MARKUPS), id };
  return { id, user_id: "u1", company_id: "company", channel_id: "channel", request, result, filters: {} };
}

describe("search results", () => {
  it("when a page is kept by one process, then another process reads back the same page for its owner only", async () => {
    const search = await page("page-1");
    expect(search.result.origin_destinations.length).toBeGreaterThan(0);
    const answer = JSON.stringify({ result: search.result });
    const encoded = await new SearchResults(db.pool).save(search, answer);
    // What was kept is the answer, Brotli-encoded, ready for a browser that accepts Brotli.
    expect(encoded && brotliDecompressSync(encoded).toString("utf8")).toBe(answer);

    const other = new SearchResults(db.pool);
    expect(await other.load(agent("u1"), "page-1")).toEqual(search);
    await expect(new SearchResults(db.pool).load(agent("u2"), "page-1")).rejects.toMatchObject({
      code: "search_result_not_found",
    });
    const { rows } = await db.pool.query<{ stored: number }>(
      "SELECT octet_length(result) AS stored FROM app.search_results WHERE id = $1",
      ["page-1"],
    );
    // Kept compressed: a fraction of the JSON it answered with.
    expect(rows[0]?.stored).toBeLessThan(JSON.stringify(search.result).length / 4);
  });

  it("when filters are saved on a page, then another process reads them with it", async () => {
    const search = await page("page-2");
    const store = new SearchResults(db.pool);
    await store.save(search, JSON.stringify({ result: search.result }));
    await store.saveFilters(search, { stops: [0] });
    expect((await new SearchResults(db.pool).load(agent("u1"), "page-2")).filters).toEqual({ stops: [0] });
  });

  it("when a page is older than its time to live, then it is gone for everyone", async () => {
    const search = await page("page-3");
    await new SearchResults(db.pool).save(search, JSON.stringify({ result: search.result }));
    await db.pool.query(
      "UPDATE app.search_results SET created_at = now() - interval '61 minutes' WHERE id = $1",
      ["page-3"],
    );
    await expect(new SearchResults(db.pool).load(agent("u1"), "page-3")).rejects.toMatchObject({
      code: "search_result_not_found",
    });
    expect(await new SearchResults(db.pool).purge()).toBe(1);
  });

  it("when another process changes the filters of a page this process holds, then this process answers the new filters", async () => {
    const search = await page("page-4");
    const hereNotices = new ChangeNotices(db.pool);
    const stopListening = await hereNotices.listen(db.url);
    const here = new SearchResults(db.pool, { notices: hereNotices });
    const there = new SearchResults(db.pool, { notices: new ChangeNotices(db.pool) });
    await here.save(search, JSON.stringify({ result: search.result }));
    expect((await here.load(agent("u1"), "page-4")).filters).toEqual({});
    const theirs = await there.load(agent("u1"), "page-4");
    const heard = new Promise((resolve) => hereNotices.onChange(resolve));
    await there.saveFilters(theirs, { stops: [0] });
    await heard;
    expect((await here.load(agent("u1"), "page-4")).filters).toEqual({ stops: [0] });
    here.close();
    await stopListening();
  });

  it("when more pages are kept than memory holds, then the least recently used is read back from the table", async () => {
    const store = new SearchResults(db.pool, { capacity: 1 });
    const first = await page("page-5");
    const second = await page("page-6");
    await store.save(first, JSON.stringify({ result: first.result }));
    await store.save(second, JSON.stringify({ result: second.result }));
    // Held in memory: the very object saved. Read back: an equal copy.
    expect(await store.load(agent("u1"), "page-6")).toBe(second);
    const reread = await store.load(agent("u1"), "page-5");
    expect(reread).not.toBe(first);
    expect(reread).toEqual(first);
  });
});
