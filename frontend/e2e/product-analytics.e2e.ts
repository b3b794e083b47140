// Product analytics end to end: the page gets its key and server URL from the server's environment, loads the real
// Amplitude SDK after the first render, and sends to a local collector, which records exactly what arrives.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

/** Amplitude's HTTP API as far as the SDK needs it: CORS, then 200 for every batch, kept for the test to read. */
const collector = createServer((req, res) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Headers", "Content-Type, Accept");
  res.setHeader("Access-Control-Allow-Methods", "POST, OPTIONS");
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    const batch = JSON.parse(body) as (typeof batches)[number];
    batches.push(batch);
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({ code: 200, events_ingested: batch.events.length, server_upload_time: Date.now() }),
    );
  });
});
await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/2/httpapi`;
afterAll(() => new Promise((resolve) => collector.close(resolve)));

const KEY = "e2e-analytics-key";
const suite = browserAppSuite({
  seedDemo: true,
  env: { ANALYTICS_KEY: KEY, ANALYTICS_SERVER_URL: collectorUrl },
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
});
