import { gzipSync } from "node:zlib";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { TERMS_VERSION } from "@skyward/contracts/account";
import type { Browser } from "playwright-core";
import { HttpClient } from "./http-client.ts";

/**
 * Issue 27's first-load budgets: JS as sent per page, CSS as sent, requests per first load (the page, its scripts and
 * sheets, and its API calls), Lighthouse performance. Measured by `npm run bench -- first-load` (with Lighthouse) and
 * held by scripts/src/first-load-budget.test.ts (without it).
 */
export const FIRST_LOAD_TARGETS = {
  js: { "/sign_in": 170 * 1024, "/search": 220 * 1024, "/bookings": 220 * 1024 } as Record<string, number>,
  css: 20 * 1024,
  requests: 10,
  desktop: 98,
  mobile: 90,
  accessibility: 100,
};

/** The pages the budgets are about, and whether they are opened signed in. */
export const FIRST_LOAD_PAGES = [
  ["/sign_in", false],
  ["/search", true],
  ["/bookings", true],
] as const;

const AGENT = "agent@dnipro.test";

export interface LoadFigures {
  path: string;
  requests: number;
  js: { files: number; gzip: number; sent: number };
  css: { files: number; gzip: number; sent: number };
  other: { files: number; sent: number; paths: string[] };
  /** Each script and style sheet: name (without its hash), gzip bytes and bytes as sent, largest first. */
  assets: { name: string; gzip: number; sent: number }[];
}

/** A demo agent with onboarding and terms done, so /search and /bookings open at once; its session cookie. */
export async function signedInAgent(url: string): Promise<string> {
  const client = new HttpClient(url);
  const signIn = await client.signInWithPassword(AGENT, DEMO_PASSWORD);
  const put = { headers: { "x-http-method-override": "PUT" } };
  if (signIn.body.onboarding !== "done") {
    await client.post("/onboarding", { account: { first_name: "Taras", last_name: "Shevchuk" } }, put);
    await client.post("/account/terms", { terms: { version: TERMS_VERSION } }, put);
  }
  const session = client.cookie("skyward_session");
  if (!session) throw new Error("signing in set no session cookie");
  return session;
}

/** One cold load (fresh profile, empty cache) of `path`: every request until the network is idle. */
export async function firstLoad(
  browser: Browser,
  url: string,
  path: string,
  session?: string,
): Promise<LoadFigures> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (session) await context.addCookies([{ name: "skyward_session", value: session, url }]);
  const page = await context.newPage();
  const seen: Promise<{ type: string; url: string; gzip: number; sent: number }>[] = [];
  page.on("requestfinished", (request) => {
    seen.push(
      (async () => {
        const response = await request.response().catch(() => null);
        const body = response ? await response.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
        const sent = await request.sizes().then(
          (sizes) => sizes.responseBodySize,
          () => 0, // the context closed first
        );
        return { type: request.resourceType(), url: request.url(), gzip: gzipSync(body).length, sent };
      })(),
    );
  });
  await page.goto(new URL(path, url).href, { waitUntil: "load" });
  // The page's own heading, then quiet: on a loaded machine parsing alone can outlast "networkidle"'s 500 ms.
  await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState("networkidle");
  const requests = await Promise.all(seen);
  await context.close();
  const sum = (type: string) => {
    const of = requests.filter((r) => r.type === type);
    return {
      files: of.length,
      gzip: of.reduce((total, r) => total + r.gzip, 0),
      sent: of.reduce((total, r) => total + r.sent, 0),
    };
  };
  const others = requests.filter((r) => r.type !== "script" && r.type !== "stylesheet");
  return {
    path,
    requests: requests.length,
    js: sum("script"),
    css: sum("stylesheet"),
    other: {
      files: others.length,
      sent: others.reduce((total, r) => total + r.sent, 0),
      paths: others.map((r) => new URL(r.url).pathname),
    },
    assets: requests
      .filter((r) => r.type === "script" || r.type === "stylesheet")
      .map((r) => ({
        name: new URL(r.url).pathname.replace(/^.*\//, "").replace(/-[\w-]{8}\./, "."),
        gzip: r.gzip,
        sent: r.sent,
      }))
      .sort((a, b) => b.gzip - a.gzip),
  };
}
