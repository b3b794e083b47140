// Product analytics end to end: the page gets its key and server URL from the server's environment, loads the real
// Amplitude SDK after the first render, and sends to a local collector, which records exactly what arrives.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "@jest/globals";
import { searchFlights, signInAsAgent } from "./flows.ts";
import { browserAppSuite } from "./harness.ts";

interface ArrivedEvent {
  event_type: string;
  user_id?: string;
  platform?: string;
  event_properties?: Record<string, unknown>;
  user_properties?: Record<string, Record<string, unknown>>;
}
const batches: { api_key: string; events: ArrivedEvent[] }[] = [];
/** Session replay uploads as they arrive: the query's session, the key it is sent under, the recorded events. */
const replays: {
  sessionId: string;
  deviceId: string;
  authorization: string;
  sampleRate: string;
  body: string;
}[] = [];
const configRequests: string[] = [];

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });

/**
 * Amplitude's HTTP API, session replay upload and replay settings as far as the SDK needs them, at Amplitude's
 * paths: CORS, then 200 for every batch and replay, kept for the test to read; no replay settings of the project.
 */
const collector = createServer(async (req, res) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Headers", req.headers["access-control-request-headers"] ?? "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  const url = new URL(req.url ?? "/", "http://collector");
  const body = await read(req);
  if (req.method === "GET" && url.pathname.startsWith("/config/")) {
    configRequests.push(url.pathname);
    res.writeHead(200, { "Content-Type": "application/json" }).end('{"configs":{"sessionReplay":{}}}');
    return;
  }
  if (req.method === "POST" && url.pathname === "/sessions/v2/track") {
    const text = req.headers["content-encoding"] === "gzip" ? gunzipSync(body).toString() : body.toString();
    replays.push({
      sessionId: url.searchParams.get("session_id") ?? "",
      deviceId: url.searchParams.get("device_id") ?? "",
      authorization: String(req.headers.authorization),
      sampleRate: String(req.headers["x-client-sample-rate"]),
      body: text,
    });
    res.writeHead(200).end();
    return;
  }
  if (req.method !== "POST" || url.pathname !== "/2/httpapi") {
    res.writeHead(404).end();
    return;
  }
  const batch = JSON.parse(body.toString()) as (typeof batches)[number];
  batches.push(batch);
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(
    JSON.stringify({ code: 200, events_ingested: batch.events.length, server_upload_time: Date.now() }),
  );
});
await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/2/httpapi`;
afterAll(() => new Promise((resolve) => collector.close(resolve)));

const KEY = "e2e-analytics-key";
const suite = browserAppSuite({
  seedDemo: true,
  // Every session replayed (a test-only setting; production replays 10 %), so the replay's traffic can be checked.
  env: { ANALYTICS_KEY: KEY, ANALYTICS_SERVER_URL: collectorUrl, ANALYTICS_REPLAY_SAMPLE_RATE: "1" },
});

const arrived = () => batches.flatMap((b) => b.events);
async function arrivedEvent(type: string): Promise<ArrivedEvent> {
  for (let waited = 0; waited < 15_000; waited += 100) {
    const found = arrived().find((e) => e.event_type === type);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no '${type}' arrived; got ${arrived().map((e) => e.event_type)}`);
}

describe("product analytics", () => {
  it("sends 'Change language', the start of a sign-in under the e-mail only, the user's properties and the search to the configured server, every event on platform Site", async () => {
    const { page } = suite.session;
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    expect(await page.locator('meta[name="analytics-key"]').getAttribute("content")).toBe(KEY);

    await page.getByRole("button", { name: "Language: English" }).click();
    await page.getByRole("menuitem", { name: "Polski" }).click();
    const changed = await arrivedEvent("Change language");
    expect(changed.event_properties).toMatchObject({ language: "pl", platform: "Site" });
    expect(changed.user_id).toBeUndefined();

    await page.getByRole("button", { name: "Język: Polski" }).click();
    await page.getByRole("menuitem", { name: "English" }).click();
    await page.goto("/sign_in");
    await page.getByLabel("Work e-mail").fill("Agent@Dnipro.test");
    await page.getByRole("button", { name: "Continue" }).click();
    const started = await arrivedEvent("Start sign in");
    expect(started.user_id).toBe("agent@dnipro.test");

    await signInAsAgent(page);
    // A signed-in page reads the session, which identifies the agent to analytics.
    await page.goto("/bookings");
    await page.getByRole("navigation").getByRole("link", { name: "Search", exact: true }).waitFor();
    const identified = await arrivedEvent("$identify");
    expect(identified.user_properties?.$set).toMatchObject({ user_type: "Agent", language: "en" });
    expect(arrived().some((e) => e.user_properties?.$setOnce?.first_language === "en")).toBe(true);

    await searchFlights(page, 1);
    const search = await arrivedEvent("Search");
    // The custom id was for one event: the search is the signed-in agent's, by their Skyward id.
    expect(search.user_id).toMatch(/^[0-9a-z-]+$/);
    expect(search.user_id).not.toBe("agent@dnipro.test");
    expect(search.user_id).toBe(identified.user_id);

    expect(new Set(batches.map((b) => b.api_key))).toEqual(new Set([KEY]));
    expect(arrived().filter((e) => e.platform !== "Site")).toEqual([]);
  }, 240_000);

  it("sends the session replay, and fetches its settings, from the configured server's origin", async () => {
    const { page } = suite.session;
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    for (let waited = 0; replays.length === 0 && waited < 30_000; waited += 200)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(configRequests[0]).toBe(`/config/${KEY}`);
    const replay = replays[0];
    expect(replay).toBeDefined();
    expect(replay?.authorization).toBe(`Bearer ${KEY}`);
    expect(replay?.sampleRate).toBe("1");
    // The replay belongs to the session the events were sent in.
    const sessions = new Set(arrived().map((e) => String((e as { session_id?: number }).session_id)));
    expect(sessions.has(replay?.sessionId ?? "")).toBe(true);
    // rrweb's recording of the page, one serialized event after another.
    const payload = JSON.parse(replay?.body ?? "{}") as { events?: unknown[] };
    expect(payload.events?.length).toBeGreaterThan(0);
  }, 120_000);
});
