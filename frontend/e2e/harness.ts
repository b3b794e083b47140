import { appendFile, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "@jest/globals";
import { createTestDatabase } from "@skyward/infra/testing";
import { startSkyward } from "@skyward/scripts/app";
import { answerCheck } from "@skyward/scripts/testing/answer-check";
import { launchChromium } from "@skyward/scripts/testing/chromium";
import type { Browser, BrowserContext, Page } from "playwright-core";

export interface RunningSkyward {
  url: string;
  stop(): Promise<void>;
}

/** The whole product on a fresh database, serving the frontend built by `npm run build:frontend`. */
export async function startApp(
  options: { seedDemo?: boolean; env?: Record<string, string> } = {},
): Promise<RunningSkyward> {
  const database = await createTestDatabase();
  try {
    const app = await startSkyward({
      databaseUrl: database.url,
      port: 0,
      host: "127.0.0.1",
      seedDemo: options.seedDemo ?? false,
      logLevel: "warn",
      ...(options.env ? { env: options.env } : {}),
      // Every answer the browser gets is checked against its route's contract, as in the integration tests.
      checkAnswers: answerCheck().middleware,
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

/** The impacts that fail a screen (issue 9: none of these on any screen). */
const FAILING_IMPACTS = new Set(["serious", "critical"]);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

let axeSource: Promise<string> | undefined;
const readAxeSource = () => {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  return axeSource;
};

/** Waits until the page's CSS transitions and animations (modal fades, menu pops) have finished. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline) {
      const running = document.getAnimations().filter((animation) => animation.playState === "running");
      if (running.length === 0) break;
      await Promise.race([
        Promise.allSettled(running.map((animation) => animation.finished)),
        new Promise((resolve) => setTimeout(resolve, 100)),
      ]);
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/**
 * Runs axe-core (injected from npm `axe-core`) on the page as it is now: the serious and critical violations, and a
 * SHA-256 of the body's markup. Given the other scheme's digest, and the body's markup is the same, only the colour
 * rules a default run has are run (axe's `cat.color`: contrast, links told apart by colour): the other rules read the
 * markup alone, so they found all they could in the other scheme.
 */
async function axeViolations(
  page: Page,
  otherScheme: string | null = null,
): Promise<{ violations: AxeViolation[]; body: string }> {
  await settle(page);
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy (script-src 'self') allows.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(`${await readAxeSource()}\n;0`);
  const body = await markupDigest(page, "body");
  const violations = await page.evaluate(
    async ([failing, colourOnly]) => {
      const { axe } = window as Window & {
        axe?: {
          run(context: Document, options: object): Promise<unknown>;
          _audit: { rules: { id: string; impact?: string; enabled: boolean; tags: string[] }[] };
        };
      };
      if (!axe) throw new Error("axe-core is not in the page");
      // Only the rules that can find what fails a screen: 32 of axe-core 4.14's rules declare a moderate or minor impact
      // (landmarks, heading order, region...), and skipping them took a results page's run from 1.3-1.8 s to 1.0-1.4 s.
      // A rule that declares no impact runs.
      const cannotFail = axe._audit.rules.filter((rule) => rule.impact && !failing.includes(rule.impact));
      const rules = Object.fromEntries(cannotFail.map((rule) => [rule.id, { enabled: false }]));
      // The colour rules a default run has (color-contrast, link-in-text-block; not the enhanced contrast, off by default).
      const colour = axe._audit.rules
        .filter((rule) => rule.enabled && rule.tags.includes("cat.color") && !(rule.id in rules))
        .map((rule) => rule.id);
      const options = colourOnly
        ? { resultTypes: ["violations"], runOnly: { type: "rule", values: colour } }
        : { resultTypes: ["violations"], rules };
      const result = (await axe.run(document, options)) as { violations: unknown[] };
      return result.violations;
    },
    [[...FAILING_IMPACTS], body === otherScheme] as const,
  );
  return {
    violations: (violations as AxeViolation[]).filter((violation) =>
      FAILING_IMPACTS.has(violation.impact ?? ""),
    ),
    body,
  };
}

const describeViolations = (screen: string, scheme: string, violations: AxeViolation[]) =>
  violations
    .map(
      (violation) =>
        `[${screen}, ${scheme}] ${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes
          .map(
            (node) =>
              `    ${node.target.join(" ")} ${node.html.slice(0, 160)} — ${(node.failureSummary ?? "").replace(/\s+/g, " ")}`,
          )
          .join("\n")}`,
    )
    .join("\n");

/** Switches the emulated system colour scheme and waits until the app has followed it. */
async function switchScheme(page: Page, scheme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  const followed = await page
    .waitForFunction(
      (wanted) => document.documentElement.getAttribute("data-mantine-color-scheme") === wanted,
      scheme,
      { timeout: 5_000 },
    )
    .then(() => true)
    .catch(() => false);
  if (!followed) {
    const shown = await page.evaluate(() =>
      document.documentElement.getAttribute("data-mantine-color-scheme"),
    );
    throw new Error(
      `The app did not follow the system's ${scheme} scheme on ${page.url()} (it shows ${shown})`,
    );
  }
}

/**
 * Checks the screen the page shows with axe-core in the light and the dark scheme, and fails on any serious or
 * critical violation, naming each with its elements. SKYWARD_AXE_REPORT=<file> records the violations there (one
 * JSON line per screen and scheme) instead of failing, to count them.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  // A screen unchanged since its last check passed (a test that checks the screen it ends on, then the suite's check
  // of every test's last screen) is not checked again: the same markup at the same address and size is the same screen.
  const state = await screenState(page);
  if (passed.get(page) === state) return;
  const found: string[] = [];
  let lightBody: string | null = null;
  for (const scheme of ["light", "dark"] as const) {
    await switchScheme(page, scheme);
    // A notification fading in or out is half transparent for a moment, and a colour moving to the new scheme is half
    // way for a moment: colours are checked once nothing moves (on a loaded machine axe otherwise met one mid-fade,
    // and one mid-way from dark to light, and measured the blend, 2.6:1 and 3:1, as the text's contrast). Endless
    // animations (a loader's spin) are not waited for.
    await page
      .waitForFunction(
        () =>
          !document.querySelector("[data-finish]") &&
          !document
            .getAnimations()
            .some(
              (a) =>
                a.playState === "running" &&
                (a instanceof CSSTransition || a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY),
            ),
        null,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    // The dark scheme's run checks colours alone when the markup is the light scheme's (axeViolations).
    const { violations, body } = await axeViolations(page, scheme === "dark" ? lightBody : null);
    if (scheme === "light") lightBody = body;
    if (process.env.SKYWARD_AXE_REPORT)
      await appendFile(
        process.env.SKYWARD_AXE_REPORT,
        `${JSON.stringify({ screen: name, scheme, violations: violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((node) => `${node.target.join(" ")} ${node.html.slice(0, 160)} — ${node.failureSummary ?? ""}`) })) })}\n`,
      );
    else if (violations.length > 0) found.push(describeViolations(name, scheme, violations));
  }
  await switchScheme(page, "light");
  await screenshot(page, name);
  if (found.length > 0)
    throw new Error(`Accessibility violations (axe-core, serious or critical):\n${found.join("\n")}`);
  passed.set(page, await screenState(page));
}

/** The state of the screen each page last passed the check in. */
const passed = new WeakMap<Page, string>();

/** The page's address, viewport and a SHA-256 of its whole markup. */
const screenState = async (page: Page): Promise<string> => {
  const digest = await markupDigest(page, "documentElement");
  return `${await page.evaluate(() => `${location.href} ${innerWidth}x${innerHeight}`)} ${digest}`;
};

/** A SHA-256 (hex) of the markup of the whole document or of its body, as the page has it now. */
const markupDigest = (page: Page, part: "documentElement" | "body"): Promise<string> =>
  page.evaluate(async (which) => {
    const markup = new TextEncoder().encode(document[which].outerHTML);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", markup));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }, part);

/** The suite's lifecycle in one line: one app and one Chromium per file, a fresh browser session per test. */
export function browserAppSuite(options: Parameters<typeof startApp>[0] = {}) {
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
    // The screen a test ends on is checked too, so no visited screen escapes the accessibility check.
    if (!suite.session) return;
    const { page } = suite.session;
    if (page.url().startsWith(suite.app.url))
      await checkScreen(page, `end of: ${expect.getState().currentTestName}`);
    await suite.session.close();
  });
  return suite;
}
