// Idempotency keys over real HTTP and PostgreSQL: replays, a repeat while the first still runs, and a first request
// that died with its process (its key row left in flight).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let agent: HttpClient;
beforeAll(async () => {
  t = await startTestApp();
  agent = t.client();
  await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
});
afterAll(() => t.stop());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const searchBody = (destination = "KBP") => ({
  origin: "WAW",
  destination,
  departure_date: inDays(20),
  passengers: { adults: 1, children: 0, infants: 0 },
});
const pages = async () =>
  (await t.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM app.search_results")).rows[0]?.n;

/** Leaves a finished key as a crash would have left it: no answer stored, leased until `lease`. */
const asInFlight = (key: string, lease: string) =>
  t.db.pool.query(
    `UPDATE app.idempotency_keys SET status = NULL, response = NULL, lease_until = now() + $2::interval
      WHERE key = $1`,
    [key, lease],
  );

describe("Idempotency-Key", () => {
  it("when POST /offers is repeated with the same key, then the first result comes back and no page is written", async () => {
    const headers = { "idempotency-key": "search-once-1" };
    const first = await agent.post("/offers", searchBody(), { headers });
    expect(first.status).toBe(200);
    const before = await pages();
    const second = await agent.post("/offers", searchBody(), { headers });
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.result.id).toBe(first.body.result.id);
    expect(second.body).toEqual(first.body);
    expect(await pages()).toBe(before);
  });

  it("when two identical searches with one key arrive together, then both get the one result and one page is written", async () => {
    const headers = { "idempotency-key": "search-together-1" };
    const before = await pages();
    const [a, b] = await Promise.all([
      agent.post("/offers", searchBody("LWO"), { headers }),
      agent.post("/offers", searchBody("LWO"), { headers }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.result.id).toBe(b.body.result.id);
    expect(await pages()).toBe((before ?? 0) + 1);
  });

  it("when the first request with a key died with its process and its lease ran out, then a retry runs and is stored", async () => {
    const headers = { "idempotency-key": "search-crashed-1" };
    const first = await agent.post("/offers", searchBody("GDN"), { headers });
    expect(first.status).toBe(200);
    await asInFlight("search-crashed-1", "-1 second");
    const before = await pages();
    const retried = await agent.post("/offers", searchBody("GDN"), { headers });
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(retried.body.result.id).not.toBe(first.body.result.id);
    expect(await pages()).toBe((before ?? 0) + 1);
    const replayed = await agent.post("/offers", searchBody("GDN"), { headers });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body.result.id).toBe(retried.body.result.id);
  });

  it("when a repeat arrives while the first request still holds its lease, then it answers 409 in the envelope within about a second", async () => {
    const headers = { "idempotency-key": "search-running-1" };
    expect((await agent.post("/offers", searchBody("KRK"), { headers })).status).toBe(200);
    await asInFlight("search-running-1", "1 hour");
    const before = await pages();
    const started = performance.now();
    const repeat = await agent.post("/offers", searchBody("KRK"), { headers });
    const waited = performance.now() - started;
    expect(repeat.status).toBe(409);
    expect(repeat.body.errors[0]).toMatchObject({ status: "409", code: "idempotency_in_progress" });
    expect(repeat.headers.get("retry-after")).toBe("1");
    expect(waited).toBeLessThan(5000);
    expect(await pages()).toBe(before);
    process.stdout.write(`repeat of a request in flight answered 409 after ${waited.toFixed(0)} ms\n`);
  });

  it("when a key whose request died is reused for a different request, then it is refused and nothing runs", async () => {
    const headers = { "idempotency-key": "search-crashed-2" };
    expect((await agent.post("/offers", searchBody("GDN"), { headers })).status).toBe(200);
    await asInFlight("search-crashed-2", "-1 second");
    const before = await pages();
    const other = await agent.post("/offers", searchBody("WRO"), { headers });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].source).toEqual({ parameter: "Idempotency-Key" });
    expect(await pages()).toBe(before);
  });

  it("when the first answer was a refusal, then a repeat replays the refusal", async () => {
    const headers = { "idempotency-key": "filters-missing-1" };
    const missing = await agent.post(
      "/search_results",
      { search_result_id: "no-such-page", filters: { stops: [0] } },
      { headers },
    );
    expect(missing.status).toBe(404);
    const again = await agent.post(
      "/search_results",
      { search_result_id: "no-such-page", filters: { stops: [0] } },
      { headers },
    );
    expect(again.status).toBe(404);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});
