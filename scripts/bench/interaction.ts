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
// is (a one-way KBP to WAW, some 15 offers, and the demo world's few bookings). `--bookings=N` seeds N instead of
// 10,000; `--rounds=N` (3) measures each interaction N times and prints the median and the worst; `--detail` prints each figure's parts (input delay, handlers, rendering up to the paint).
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
      if (entry.interactionId)
        window.skywardInteractions.push({
          name: entry.name,
          duration: entry.duration,
          delay: entry.processingStart - entry.startTime,
          handlers: entry.processingEnd - entry.processingStart,
        });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
`;

interface Timing {
  name: string;
  duration: number;
  /** Input delay: from the input to its handlers' start. */
  delay: number;
  /** The handlers' run; the rest of the duration is rendering up to the next paint. */
  handlers: number;
}

/** The longest interaction (by Event Timing's duration) that `action` caused; duration 0 when none reached 16 ms. */
async function interaction(
  page: Page,
  action: () => Promise<void>,
  settled: () => Promise<void>,
): Promise<Timing> {
  // From a page at rest: the work of the interaction before (its answer's render) is not this one's input delay.
  await page.evaluate("new Promise((resolve) => requestIdleCallback(() => resolve(0), { timeout: 10000 }))");
  await page.evaluate("window.skywardInteractions = []");
  await action();
  await settled();
  // Event Timing reports an interaction after its next paint; give the slowed page a moment to report it.
  await page.waitForTimeout(1500);
  const timings = (await page.evaluate("window.skywardInteractions")) as Timing[];
  return timings.reduce((longest, t) => (t.duration > longest.duration ? t : longest), {
    name: "",
    duration: 0,
    delay: 0,
    handlers: 0,
  });
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
  // --detail: each figure's parts (input delay, handlers, rendering to the paint), to see where the time goes.
  const detail = args.includes("--detail");
  const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.split("=")[1] ?? 3);
  const seeded = Number(args.find((a) => a.startsWith("--bookings="))?.split("=")[1] ?? SEEDED_BOOKINGS);
  const { app, stop } = await startDemoApp("inp");
  const binary = await chromiumBinary();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    env: binary.env,
    args: CHROMIUM_ARGS,
  });
  try {
    const session = await signedInAgent(app.url);
    if (scale === "issue" && seeded > 0) {
      const started = performance.now();
      await seedBookings(app, AGENT, seeded);
      console.log(
        `${seeded} bookings appended and listed by the projection in ` +
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

    // Each interaction `rounds` times (the machine's other work spreads single figures): its median is the figure.
    const figures: [string, Timing[]][] = [];
    const measure = async (
      name: string,
      action: (round: number) => Promise<void>,
      settled: () => Promise<void>,
      between?: () => Promise<void>,
    ) => {
      const timings: Timing[] = [];
      for (let round = 0; round < rounds; round++) {
        if (round > 0 && between) await between();
        timings.push(await interaction(page, () => action(round), settled));
      }
      figures.push([name, timings]);
    };
    await measure(
      "filter (an airline's checkbox)",
      () => page.getByRole("checkbox", { name: "Ukraine International Airlines PS" }).click(),
      quiet,
    );
    await measure(
      "sort (Fastest, Cheapest, ...)",
      (round) => page.getByText(round % 2 === 0 ? "Fastest" : "Cheapest", { exact: true }).click(),
      quiet,
    );
    await measure(
      "open an offer (its first fare)",
      () =>
        page
          .getByRole("article")
          .first()
          .getByRole("button", { name: /^Select / })
          .first()
          .click(),
      () => page.getByRole("heading", { name: "Passengers and contacts" }).waitFor(),
      async () => {
        // Back to the results (restored from the server, as a reload shows them), settled before the next click.
        await page.goBack();
        await page.getByRole("article").first().waitFor();
        await quiet();
        await page.waitForTimeout(2000);
      },
    );

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
    await measure(
      "switch a tab (Cancelled, New, ...)",
      (round) => page.getByRole("tab", { name: round % 2 === 0 ? "Cancelled" : "New" }).click(),
      quiet,
    );
    const cancelled = await listed();
    const box = page.getByRole("textbox", { name: "Search bookings" });
    await measure(
      "type in the search box (6 keys)",
      () => box.pressSequentially("PETREN", { delay: 80 }),
      quiet,
      async () => {
        await box.fill("");
        await page.waitForTimeout(1000);
      },
    );

    console.log(
      `\ninteractions (INP: Event Timing's longest duration each caused; the median of ${rounds} rounds), CPU ` +
        `slowed ${rate}×, Chromium ${browser.version()}; budget ${BUDGET_MS} ms each`,
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
    for (const [name, timings] of figures) {
      const sorted = [...timings].sort((a, b) => a.duration - b.duration);
      const timing = sorted[Math.floor(sorted.length / 2)] ?? {
        name: "",
        duration: 0,
        delay: 0,
        handlers: 0,
      };
      const worst = sorted.at(-1)?.duration ?? 0;
      const ms = timing.duration;
      const parts =
        ms === 0
          ? ""
          : `  (${timing.name}: input delay ${Math.round(timing.delay)}, handlers ${Math.round(timing.handlers)}, ` +
            `to the paint ${Math.round(ms - timing.delay - timing.handlers)})`;
      console.log(
        `  ${name.padEnd(36)} ${ms === 0 ? "  < 16 ms" : `${String(Math.round(ms)).padStart(5)} ms`}` +
          `  ${ms <= BUDGET_MS ? "ok" : "OVER BUDGET"}  (worst of ${sorted.length}: ${Math.round(worst)} ms)` +
          `${detail ? parts : ""}`,
      );
    }
    await context.close();
  } finally {
    await browser.close();
    await stop();
  }
}
