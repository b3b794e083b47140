// `npm run bench -- interaction [--no-build] [--throttle=4] [--scale=issue|demo]`: issue 27's interaction budget. A
// signed-in agent on the built front end in Chromium, the CPU slowed 4 times (DevTools' Emulation.setCPUThrottlingRate),
// does what an agent does all day: filter the results, sort them, open an offer, switch the bookings' tab and type in
// their search box. Each interaction's latency is read as the browser measures it for INP (the Event Timing API: input
// delay, handlers and the next paint) and printed against 200 ms. Prints figures only; nothing is asserted.
//
// Scale (`--scale=issue`, the default): issue 27's 300 offers on the results page and 10,000 bookings in the list. The
// results are a round trip KBP to MNY, the sandbox's manyOffers scenario (SCENARIOS.md: London with the caps lifted,
// 300 offers; a normal search answers at most 25); the bookings are appended straight to the event store
// (seed-bookings.ts) for the agent's company before the browser starts. `--scale=demo` measures the demo world as it
// is (a one-way KBP to WAW, some 15 offers, and the demo world's few bookings).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, chromiumBinary } from "../src/testing/chromium.ts";
import { startDemoApp } from "./demo-app.ts";
import { signedInAgent } from "./first-load.ts";
import { seedBookings } from "./seed-bookings.ts";

const BUDGET_MS = 200;
/** The agent signedInAgent signs in. */
const AGENT = "agent@dnipro.test";
const SEEDED_BOOKINGS = 10_000;

/**
 * Keeps the Event Timing entries of the page's interactions in `window.skywardInteractions` (installed before the
 * page's own scripts; as text, since this package is compiled without the DOM's types).
 */
const OBSERVE_INTERACTIONS = `
  window.skywardInteractions = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.interactionId) window.skywardInteractions.push(entry.duration);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
`;

/** The longest interaction (by Event Timing's duration) that `action` caused, in ms; 0 when none reached 16 ms. */
async function interaction(
  page: Page,
  action: () => Promise<void>,
  settled: () => Promise<void>,
): Promise<number> {
  await page.evaluate("window.skywardInteractions = []");
  await action();
  await settled();
  // Event Timing reports an interaction after its next paint; give the slowed page a moment to report it.
  await page.waitForTimeout(1500);
  const durations = (await page.evaluate("window.skywardInteractions")) as number[];
  return Math.max(0, ...durations);
}

/** A day from today, as the search's address names it (YYYY-MM-DD). */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function run(args: readonly string[]): Promise<void> {
  if (!args.includes("--no-build")) {
    console.log("building the front end (npm run build:frontend; --no-build uses frontend/dist as it is)");
    await promisify(execFile)("npm", ["run", "build:frontend"], { maxBuffer: 64 * 1024 * 1024 });
  }
  const rate = Number(args.find((a) => a.startsWith("--throttle="))?.split("=")[1] ?? 4);
  const scale = args.find((a) => a.startsWith("--scale="))?.split("=")[1] ?? "issue";
  if (scale !== "issue" && scale !== "demo") throw new Error("--scale is issue or demo");
  const { app, stop } = await startDemoApp("inp");
  const binary = await chromiumBinary();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    env: binary.env,
    args: CHROMIUM_ARGS,
  });
  try {
    const session = await signedInAgent(app.url);
    if (scale === "issue") {
      const started = performance.now();
      await seedBookings(app, AGENT, SEEDED_BOOKINGS);
      console.log(
        `${SEEDED_BOOKINGS} bookings appended and listed by the projection in ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: app.url });
    await context.addCookies([{ name: "skyward_session", value: session, url: app.url }]);
    await context.addInitScript({ content: OBSERVE_INTERACTIONS });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    page.setDefaultTimeout(60_000);

    // The results page: a search from the address, as a shared link or a reload opens it.
    const trip =
      scale === "issue"
        ? `from=KBP&to=MNY&depart=${inDays(21)}&return=${inDays(28)}`
        : `from=KBP&to=WAW&depart=${inDays(21)}`;
    await page.goto(`/search?${trip}`);
    await page.getByTestId("results-count").waitFor();
    // The offers the result holds (the page renders a window of them: results-list.tsx).
    const offers = Number(
      ((await page.getByTestId("results-count").textContent()) ?? "").match(/\d+/)?.[0] ?? 0,
    );
    const quiet = () => page.locator('[aria-busy="true"]').waitFor({ state: "detached" });

    const figures: [string, number][] = [];
    figures.push([
      "filter (an airline's checkbox)",
      await interaction(
        page,
        () => page.getByRole("checkbox", { name: "Ukraine International Airlines PS" }).click(),
        quiet,
      ),
    ]);
    figures.push([
      "sort (Fastest)",
      await interaction(page, () => page.getByText("Fastest", { exact: true }).click(), quiet),
    ]);
    const firstOffer = page.getByRole("article").first();
    figures.push([
      "open an offer (its first fare)",
      await interaction(
        page,
        () =>
          firstOffer
            .getByRole("button", { name: /^Select / })
            .first()
            .click(),
        () => page.getByRole("heading", { name: "Passengers and contacts" }).waitFor(),
      ),
    ]);

    // The bookings list: a tab, then the search box typed into.
    await page.goto("/bookings");
    await page.getByRole("heading", { level: 1, name: "Bookings" }).waitFor();
    const rows = page.locator("table tbody tr");
    const listed = async () => {
      await rows
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => undefined);
      return rows.count();
    };
    const bookings = await listed();
    // Cancelled: a quarter of the seeded bookings are.
    figures.push([
      "switch a tab (Cancelled)",
      await interaction(page, () => page.getByRole("tab", { name: "Cancelled" }).click(), quiet),
    ]);
    const cancelled = await listed();
    figures.push([
      "type in the search box (6 keys)",
      await interaction(
        page,
        () =>
          page.getByRole("textbox", { name: "Search bookings" }).pressSequentially("PETREN", { delay: 80 }),
        quiet,
      ),
    ]);

    console.log(
      `\ninteractions (INP: Event Timing's longest duration each caused), CPU slowed ${rate}×, Chromium ` +
        `${browser.version()}; budget ${BUDGET_MS} ms each`,
    );
    const { rows: held } = await app.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM read.bookings b JOIN read.users u ON u.company_ids[1] = b.company_id WHERE u.email = $1",
      [AGENT],
    );
    console.log(
      `  scale: ${offers} offers on the results page (issue 27: 300); ${held[0]?.n ?? 0} bookings of the agent's ` +
        `company in the list (issue 27: 10,000), the server's pages of ${bookings} rows shown (${cancelled} in the ` +
        "Cancelled tab)",
    );
    for (const [name, ms] of figures)
      console.log(
        `  ${name.padEnd(34)} ${ms === 0 ? "  < 16 ms" : `${String(Math.round(ms)).padStart(5)} ms`}` +
          `  ${ms <= BUDGET_MS ? "ok" : "OVER BUDGET"}`,
      );
    await context.close();
  } finally {
    await browser.close();
    await stop();
  }
}
