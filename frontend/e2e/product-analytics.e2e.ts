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
/**
 * Session replay uploads as they arrive: the query's session, the key it is sent under, the recorded events. `batch`:
 * the recorder's upload, which carries the SDK's client headers; a page-exit beacon the SDK routes through our
 * transport (keepalive) carries only the key, so it says no sample rate.
 */
const replays: {
  batch: boolean;
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
      batch: req.headers["x-client-version"] !== undefined,
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
  it("sends 'Change language', the start of a sign-in with nothing of the person, the user's properties and the search to the configured server, every event on platform Site", async () => {
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
    // Nobody is known yet: the SDK's anonymous device id, never the e-mail typed, and no e-mail in any property.
    expect(started.user_id).toBeUndefined();
    expect(JSON.stringify(started).toLowerCase()).not.toContain("agent@dnipro.test");

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
    expect(JSON.stringify(batches).toLowerCase()).not.toContain("agent@dnipro.test");
  }, 240_000);

  it("sends the session replay, and fetches its settings, from the configured server's origin", async () => {
    const { page } = suite.session;
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    // The first recorder upload (the previous test's page may have left a page-exit beacon before it).
    const uploads = () => replays.filter((r) => r.batch);
    for (let waited = 0; uploads().length === 0 && waited < 30_000; waited += 200)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(configRequests[0]).toBe(`/config/${KEY}`);
    const replay = uploads()[0];
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

/** A traveller whose every value is unique to this test, so any trace of it in what was sent is a leak. */
const TRAVELLER = {
  first_name: "Zoryana",
  last_name: "Kvitchenko",
  date_of_birth: "1979-03-14",
  passport: "KQ7345198",
  email: "zoryana.kvitchenko@example.org",
  phone: "+380671234987",
};

/** Every way the booking's and the agent's personal data may be written on a page or in its markup. */
function personalValues(agent: { email: string; first_name: string; last_name: string }): string[] {
  const [year, month, day] = TRAVELLER.date_of_birth.split("-");
  return [
    TRAVELLER.first_name,
    TRAVELLER.last_name,
    TRAVELLER.passport,
    TRAVELLER.email,
    TRAVELLER.email.split("@")[0] ?? "",
    TRAVELLER.phone.slice(1),
    TRAVELLER.phone.slice(4),
    TRAVELLER.date_of_birth,
    `${day}.${month}.${year}`,
    `${day}/${month}/${year}`,
    `${month}/${day}/${year}`,
    // As the booking screen writes it ("long" dates in English).
    `${Number(day)} mar ${year}`,
    `mar ${Number(day)}, ${year}`,
    agent.email,
    agent.first_name,
    agent.last_name,
  ].map((v) => v.toLowerCase());
}

describe("session replay privacy", () => {
  it("sends replays of the booking, its tickets, the account page and the lists (a filter by name too) with no personal value of the traveller or the agent in them", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
    const headers = { "X-CSRF-Token": token };
    const { account } = (await (await page.request.get("/account/details")).json()) as {
      account: { email: string; first_name: string; last_name: string };
    };
    const departure = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
    const search = await page.request.post("/offers", {
      headers,
      data: {
        origin: "KBP",
        destination: "WAW",
        departure_date: departure,
        passengers: { adults: 1, children: 0, infants: 0 },
        carriers: ["PS", "LO"],
      },
    });
    expect(search.status()).toBe(200);
    const { result } = (await search.json()) as {
      result: {
        id: string;
        origin_destinations: { fares: { fare_id: string; instant_payment: boolean }[] }[];
      };
    };
    const fare = result.origin_destinations.flatMap((od) => od.fares).find((f) => !f.instant_payment);
    const booked = await page.request.post("/bookings", {
      headers,
      data: {
        search_result_id: result.id,
        fare_id: fare?.fare_id,
        passengers: [
          {
            type: "adult",
            gender: "F",
            first_name: TRAVELLER.first_name,
            last_name: TRAVELLER.last_name,
            date_of_birth: TRAVELLER.date_of_birth,
            document: {
              type: "passport",
              number: TRAVELLER.passport,
              issuing_country: "UA",
              nationality: "UA",
              expires_on: "2034-01-01",
            },
          },
        ],
        contacts: { email: TRAVELLER.email, phone: TRAVELLER.phone },
      },
    });
    expect(booked.status()).toBe(201);
    const { locator } = (await booked.json()) as { locator: string };
    const issued = await page.request.post("/bookings/issue", { headers, data: { locator } });
    expect(issued.status()).toBe(201);

    const recorded = () => replays.map((r) => r.body).join("\n");
    const since = recorded().length;
    // The SDK sends what it recorded when the page is left (or with its next event): leave it, as a tab switch does.
    const replayed = async (what: string) => {
      for (let waited = 0; !recorded().slice(since).includes(what) && waited < 60_000; waited += 500) {
        await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide")));
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(recorded().slice(since)).toContain(what);
    };
    // The booking with its passenger, contacts and tickets; the account page; the list; the header throughout (one
    // page, moved through as a user does, so one recording follows it all).
    await page.goto(`/bookings?locator=${locator}`);
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.locator('[data-status="issued"]').first().waitFor();
    await drawer.getByText(TRAVELLER.passport).first().waitFor();
    await replayed(`/bookings?locator=${locator}`);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Account" }).click();
    await page
      .getByRole("heading", { level: 1, name: `${account.first_name} ${account.last_name}` })
      .waitFor();
    await replayed('/account\\"');
    await page.getByRole("navigation").getByRole("link", { name: "Bookings", exact: true }).click();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await replayed('/bookings\\"');
    // The sales list filtered by the passenger's name: the filter lives in the page's address.
    await page.getByRole("navigation").getByRole("link", { name: "Sales", exact: true }).click();
    await page
      .getByRole("textbox", { name: "Ticket, locator, passenger or route" })
      .fill(TRAVELLER.last_name);
    await page.waitForURL(/[?&]text=/);
    await page.locator("[data-testid=sale-paid-by]").first().waitFor();
    await replayed("text=");

    const sent = `${recorded().slice(since)}\n${JSON.stringify(batches)}`.toLowerCase();
    // The replay did record the pages (rrweb full snapshots of the document), only without the personal values.
    expect(sent).toContain('\\"type\\":2');
    // Each leak with what surrounds it, to find the element that shows it.
    const leaks = personalValues(account).flatMap((value) => {
      const at = sent.indexOf(value);
      return at < 0 ? [] : [`${value}: …${sent.slice(Math.max(0, at - 400), at + 60)}…`];
    });
    expect(leaks).toEqual([]);
  }, 240_000);
});
