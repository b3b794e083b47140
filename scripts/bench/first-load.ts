// `npm run bench -- first-load [--no-build] [--no-lighthouse] [--runs=N] [--lighthouse-json=DIR] [--pages=/search,...]
// [--forms=mobile]`: the first load of the built front end in Chromium against issue 27's budgets (replacing issue
// 9's): requests, JS and CSS bytes as sent (brotli, what the budgets count; gzip beside them), and Lighthouse scores,
// desktop and mobile, the median of 3 runs (`--runs=N`). Prints figures only; nothing here is asserted (timings depend
// on the machine and its load; scripts/src/first-load-budget.test.ts holds the bytes, sheets and requests to their budgets).
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumBinary } from "../src/testing/chromium.ts";
import { FIRST_LOAD_PAGES, FIRST_LOAD_TARGETS, firstLoad, signedInAgent } from "../src/testing/first-load.ts";
import { startDemoApp } from "./demo-app.ts";

const TARGETS = FIRST_LOAD_TARGETS;
const PAGES = FIRST_LOAD_PAGES;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (ok: boolean) => (ok ? "ok" : "OVER TARGET");

/** A demo agent's session cookie (kept here too for the interaction bench). */
export { signedInAgent };

/** Performance and accessibility scores (0-100) of one Lighthouse run on the already running Chromium. */
async function lighthouseScores(
  browser: Browser,
  port: number,
  url: string,
  form: "desktop" | "mobile",
  session?: string,
  jsonDir?: string,
): Promise<{ performance: number; accessibility: number; metrics: string }> {
  // The session goes into the browser's cookie jar, where Lighthouse's tab finds it. (An extra Cookie header was
  // replaced by the jar's own cookies on the page's API requests: the signed-in pages were measured as their
  // redirect to /sign_in.)
  const cdp = await browser.newBrowserCDPSession();
  await cdp.send("Storage.clearCookies");
  if (session)
    await cdp.send("Storage.setCookies", {
      cookies: [{ name: "skyward_session", value: session, url: new URL(url).origin, httpOnly: true }],
    });
  await cdp.detach();
  const flags = {
    port,
    output: "json" as const,
    logLevel: "error" as const,
    onlyCategories: ["performance", "accessibility"],
  };
  if (jsonDir) await mkdir(jsonDir, { recursive: true });
  const result = await lighthouse(url, flags, form === "desktop" ? desktopConfig : undefined);
  // `--lighthouse-json=DIR`: the whole report of each run, to read what its score is made of.
  if (jsonDir && result)
    await writeFile(
      join(jsonDir, `${new URL(url).pathname.slice(1) || "home"}-${form}-${Date.now()}.json`),
      JSON.stringify(result.lhr),
    );
  const categories = result?.lhr.categories;
  const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100);
  // What the performance score is made of: the place to look when it is under its target.
  const audit = (id: string) => result?.lhr.audits[id]?.numericValue ?? 0;
  // A run Lighthouse could not complete (NO_FCP now and then on a busy machine) says so rather than scoring 0.
  const failed = result?.lhr.runtimeError;
  if (failed) return { performance: 0, accessibility: 0, metrics: `RUN FAILED: ${failed.code}` };
  const finalPath = result ? new URL(result.lhr.finalDisplayedUrl).pathname : "";
  const metrics =
    (finalPath === new URL(url).pathname ? "" : `ENDED ON ${finalPath}: `) +
    `FCP ${(audit("first-contentful-paint") / 1000).toFixed(1)} s, LCP ${(audit("largest-contentful-paint") / 1000).toFixed(1)} s, ` +
    `TBT ${Math.round(audit("total-blocking-time"))} ms, CLS ${audit("cumulative-layout-shift").toFixed(2)}, ` +
    `SI ${(audit("speed-index") / 1000).toFixed(1)} s`;
  return {
    performance: score(categories?.performance?.score),
    accessibility: score(categories?.accessibility?.score),
    metrics,
  };
}

function arg(args: readonly string[], name: string, fallback: number): number {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

export async function run(args: readonly string[]): Promise<void> {
  if (!args.includes("--no-build")) {
    console.log("building the front end (npm run build:frontend; --no-build uses frontend/dist as it is)");
    await promisify(execFile)("npm", ["run", "build:frontend"], { maxBuffer: 64 * 1024 * 1024 });
  }
  const runs = arg(args, "runs", 3);
  const { app, stop } = await startDemoApp("load");
  const port = 9300 + Math.floor(Math.random() * 500);
  const binary = await chromiumBinary();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    env: binary.env,
    // Lighthouse drives the same browser over the DevTools port.
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    const session = await signedInAgent(app.url);
    console.log(
      `\nfirst load (cold cache, Chromium ${browser.version()}), bytes as sent (brotli); targets: JS ≤ ` +
        `${PAGES.map(([path]) => `${kb(TARGETS.js[path] ?? 0)} ${path}`).join(", ")}; CSS ≤ ${kb(TARGETS.css)}; ` +
        `≤ ${TARGETS.requests} requests`,
    );
    // The budgets' table (markdown), printed last: one row per page, filled in as the figures come.
    const table = new Map<string, string[]>();
    for (const [path, signedIn] of PAGES) {
      const load = await firstLoad(browser, app.url, path, signedIn ? session : undefined);
      const jsTarget = TARGETS.js[path] ?? 0;
      console.log(
        `  ${path.padEnd(9)} requests ${String(load.requests).padStart(3)} (${mark(load.requests <= TARGETS.requests)})` +
          `  JS ${load.js.files} files ${kb(load.js.sent)} sent, ${kb(load.js.gzip)} gzip (${mark(load.js.sent <= jsTarget)})` +
          `  CSS ${load.css.files} files ${kb(load.css.sent)} sent, ${kb(load.css.gzip)} gzip (${mark(load.css.sent <= TARGETS.css)})` +
          `  other ${load.other.files} (${kb(load.other.sent)})`,
      );
      const cell = (figure: string, met: boolean) => `${figure} ${met ? "met" : "OVER"}`;
      table.set(path, [
        cell(kb(load.js.sent), load.js.sent <= jsTarget),
        cell(kb(load.css.sent), load.css.sent <= TARGETS.css),
        cell(String(load.requests), load.requests <= TARGETS.requests),
        "not run",
        "not run",
      ]);
      // Which files the first load fetched: the place to look when a figure is over its target.
      console.log(`            ${load.assets.map((a) => `${a.name} ${kb(a.gzip)}`).join(", ")}`);
      console.log(`            other requests: ${load.other.paths.join(", ")}`);
    }
    if (!args.includes("--no-lighthouse")) {
      console.log(
        `\nLighthouse ${runs > 1 ? `(median of ${runs}) ` : ""}targets: performance ≥ ${TARGETS.desktop} desktop,` +
          ` ≥ ${TARGETS.mobile} mobile; accessibility ${TARGETS.accessibility}`,
      );
      // `--pages=` and `--forms=` narrow the runs, to compare one page's score before and after a change.
      const listed = (name: string) =>
        args
          .find((a) => a.startsWith(`--${name}=`))
          ?.split("=")[1]
          ?.split(",");
      const pages = listed("pages");
      const forms = listed("forms");
      for (const [path, signedIn] of PAGES) {
        if (pages && !pages.includes(path)) continue;
        for (const form of ["desktop", "mobile"] as const) {
          if (forms && !forms.includes(form)) continue;
          const scores: { performance: number; accessibility: number; metrics: string }[] = [];
          for (let i = 0; i < runs; i++)
            scores.push(
              await lighthouseScores(
                browser,
                port,
                new URL(path, app.url).href,
                form,
                signedIn ? session : undefined,
                args.find((a) => a.startsWith("--lighthouse-json="))?.split("=")[1],
              ),
            );
          const median = (values: number[]) =>
            values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
          const performance = median(scores.map((s) => s.performance));
          const medianRun = scores.find((s) => s.performance === performance);
          const accessibility = median(scores.map((s) => s.accessibility));
          const target = form === "desktop" ? TARGETS.desktop : TARGETS.mobile;
          const row = table.get(path);
          if (row)
            row[form === "desktop" ? 3 : 4] = `${performance} ${performance >= target ? "met" : "OVER"}`;
          console.log(
            `  ${path.padEnd(9)} ${form.padEnd(7)} performance ${String(performance).padStart(3)} (${mark(performance >= target)})` +
              `  accessibility ${String(accessibility).padStart(3)} (${mark(accessibility >= TARGETS.accessibility)})` +
              `  ${medianRun?.metrics ?? ""}`,
          );
        }
      }
    }
    console.log(
      `\n| page | JS sent (≤ budget) | CSS sent (≤ ${kb(TARGETS.css)}) | requests (≤ ${TARGETS.requests}) ` +
        `| Lighthouse desktop (≥ ${TARGETS.desktop}) | Lighthouse mobile (≥ ${TARGETS.mobile}) |`,
    );
    console.log("|---|---|---|---|---|---|");
    for (const [path, cells] of table)
      console.log(`| ${path} (JS ≤ ${kb(TARGETS.js[path] ?? 0)}) | ${cells.join(" | ")} |`);
  } finally {
    await browser.close();
    await stop();
  }
}
