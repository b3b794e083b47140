import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "@jest/globals";
import { createTestDatabase } from "@skyward/infra/testing";
import { startSkyward } from "@skyward/scripts/app";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Flags measured to work on the build machines (TOOLCHAIN.md, gotcha 8). */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export interface RunningSkyward {
  url: string;
  stop(): Promise<void>;
}

/** The whole product on a fresh database, serving the frontend built by `npm run build:frontend`. */
export async function startApp(options: { seedDemo?: boolean } = {}): Promise<RunningSkyward> {
  const database = await createTestDatabase();
  try {
    const app = await startSkyward({
      databaseUrl: database.url,
      port: 0,
      host: "127.0.0.1",
      seedDemo: options.seedDemo ?? false,
      logLevel: "warn",
    });
    return {
      url: app.url,
      async stop() {
        await app.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors (CSP violations included) seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh browser profile (no stored language, no cookies) with one page. */
export async function openSession(browser: Browser, baseURL: string): Promise<BrowserSession> {
  const context = await browser.newContext({
    baseURL,
    locale: "en-GB",
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  return {
    context,
    page,
    problems,
    close: () => context.close(),
  };
}

/** Saves a full-page screenshot when SKYWARD_SCREENSHOTS names a folder, for a human to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.SKYWARD_SCREENSHOTS;
  if (folder) await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}

/** The suite's lifecycle in one line: one app and one Chromium per file, a fresh browser session per test. */
export function browserAppSuite(options: { seedDemo?: boolean } = {}) {
  const suite = {} as { app: RunningSkyward; browser: Browser; session: BrowserSession };
  beforeAll(async () => {
    [suite.app, suite.browser] = await Promise.all([startApp(options), launchChromium()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.app?.stop();
  });
  beforeEach(async () => {
    suite.session = await openSession(suite.browser, suite.app.url);
  });
  afterEach(async () => {
    await suite.session.close();
  });
  return suite;
}
