// Result pages against a real PostgreSQL: a page kept by one command-service process is served by another.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SearchRequest } from "@skyward/contracts/offers";
import { NO_MARKUPS } from "@skyward/contracts/pricing";
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
    await new SearchResults(db.pool).save(search, JSON.stringify(search.result));

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
    await store.save(search, JSON.stringify(search.result));
    await store.saveFilters(search, { stops: [0] });
    expect((await new SearchResults(db.pool).load(agent("u1"), "page-2")).filters).toEqual({ stops: [0] });
  });

  it("when a page is older than its time to live, then it is gone for everyone", async () => {
    const search = await page("page-3");
    await new SearchResults(db.pool).save(search, JSON.stringify(search.result));
    await db.pool.query(
      "UPDATE app.search_results SET created_at = now() - interval '61 minutes' WHERE id = $1",
      ["page-3"],
    );
    await expect(new SearchResults(db.pool).load(agent("u1"), "page-3")).rejects.toMatchObject({
      code: "search_result_not_found",
    });
    expect(await new SearchResults(db.pool).purge()).toBe(1);
  });
});
