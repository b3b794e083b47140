import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser } from "playwright-core";
import { launchChromium } from "./testing/chromium.ts";
import {
  FIRST_LOAD_PAGES,
  FIRST_LOAD_TARGETS,
  firstLoad,
  type LoadFigures,
  signedInAgent,
} from "./testing/first-load.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Issue 27's first-load budget for the sign-in page, counted on the built front end (`npm run build:frontend`, which
 * `npm test` runs before Jest): the JavaScript a signed-out visitor's first load of /sign_in fetches, as the server
 * sends it (the build's brotli files), is at most 170 KB. Bytes are counts, not timings: the same build gives the
 * same figure on any machine. `npm run bench -- first-load` measures the same in a browser, with /search's and
 * /bookings' budgets and Lighthouse.
 */
const BUDGET = 170 * 1024;
const dist = fileURLToPath(new URL("../../frontend/dist/", import.meta.url));

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

function built(): Record<string, ManifestChunk> {
  const path = `${dist}.vite/manifest.json`;
  if (!existsSync(path)) throw new Error("no front-end build: run `npm run build:frontend` first");
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, ManifestChunk>;
}

/** What the server sends for a built file to a browser that takes brotli (every browser the product supports). */
const sentBytes = (file: string) =>
  statSync(existsSync(`${dist}${file}.br`) ? `${dist}${file}.br` : `${dist}${file}`).size;

/** The files of the chunks `keys` import, themselves included. */
function closure(
  manifest: Record<string, ManifestChunk>,
  keys: string[],
  into = new Set<string>(),
): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk || into.has(key)) continue;
    into.add(key);
    closure(manifest, chunk.imports ?? [], into);
  }
  return into;
}

/** The scripts a first load of /sign_in fetches: the page's (the entry is written into it), its route's, English. */
function signInScripts(): { file: string; bytes: number }[] {
  const manifest = built();
  const page = readFileSync(`${dist}index.html`, "utf8");
  const keys = closure(manifest, [
    ...Object.keys(manifest).filter((key) => manifest[key]?.isEntry),
    "src/routes/sign_in.tsx?tsr-split=component",
    "src/locales/bundles/en-public.ts",
  ]);
  return [...keys]
    .map((key) => manifest[key]?.file ?? "")
    .filter((file) => !(manifest["index.html"]?.file === file && !page.includes(`src="/packs/${file}"`)))
    .map((file) => ({ file, bytes: sentBytes(file) }));
}

describe("the first load's budget", () => {
  it("given the built front end, when /sign_in loads, then its JavaScript as sent is at most 170 KB", () => {
    const scripts = signInScripts();
    expect(scripts.map((s) => s.file)).toEqual(
      expect.arrayContaining([expect.stringMatching(/sign_in-/), expect.stringMatching(/en-public-/)]),
    );
    const total = scripts.reduce((sum, s) => sum + s.bytes, 0);
    // The figure and the files beside the verdict: a failure says what the page carries.
    expect({ withinBudget: total <= BUDGET, kb: (total / 1024).toFixed(1), scripts }).toMatchObject({
      withinBudget: true,
    });
  });

  it("given the built front end, when a first page loads, then its shared code carries no zod (the route tree reads addresses without it)", () => {
    const manifest = built();
    const shared = closure(
      manifest,
      Object.keys(manifest).filter((key) => manifest[key]?.isEntry),
    );
    for (const key of shared) {
      const code = readFileSync(`${dist}${manifest[key]?.file}`, "utf8");
      expect([manifest[key]?.file, code.includes("$ZodType")]).toEqual([manifest[key]?.file, false]);
    }
  });
});

/**
 * The budgets a browser measures without Lighthouse (issue 27), on the built front end served by the real app: a cold
 * first load of /sign_in (signed out), /search and /bookings (a demo agent) in Chromium, counted as
 * `npm run bench -- first-load` counts them: every request until the network is idle (the page, its scripts and
 * sheets, its API calls), and the scripts' and sheets' bytes as sent (brotli). Byte counts and request counts, not
 * timings: the same build gives the same figures on any machine.
 */
describe("the first load's budgets in a browser", () => {
  let app: TestApp;
  let browser: Browser;
  const loads = new Map<string, LoadFigures>();

  beforeAll(async () => {
    built();
    app = await startTestApp();
    browser = await launchChromium();
    const session = await signedInAgent(app.app.url);
    for (const [path, signedIn] of FIRST_LOAD_PAGES)
      loads.set(path, await firstLoad(browser, app.app.url, path, signedIn ? session : undefined));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A figure beside its verdict, with what the page fetched: a failure says what the page carries. */
  const verdict = (load: LoadFigures | undefined, figure: number, budget: number) => ({
    withinBudget: figure <= budget,
    figure,
    budget,
    assets: load?.assets.map((a) => `${a.name} ${a.sent}`),
    other: load?.other.paths,
  });

  it.each(FIRST_LOAD_PAGES.map(([path]) => path))(
    "given the built front end, when %s loads cold, then its JavaScript as sent is within its budget",
    (path) => {
      const load = loads.get(path);
      expect(
        verdict(load, load?.js.sent ?? Number.POSITIVE_INFINITY, FIRST_LOAD_TARGETS.js[path] ?? 0),
      ).toMatchObject({
        withinBudget: true,
      });
    },
  );

  it.each(FIRST_LOAD_PAGES.map(([path]) => path))(
    "given the built front end, when %s loads cold, then its style sheets as sent are at most 20 KB",
    (path) => {
      const load = loads.get(path);
      expect(verdict(load, load?.css.sent ?? Number.POSITIVE_INFINITY, FIRST_LOAD_TARGETS.css)).toMatchObject(
        {
          withinBudget: true,
        },
      );
    },
  );

  const withinRequests = (path: string) => {
    const load = loads.get(path);
    expect(
      verdict(load, load?.requests ?? Number.POSITIVE_INFINITY, FIRST_LOAD_TARGETS.requests),
    ).toMatchObject({
      withinBudget: true,
    });
  };
  // /bookings made 13 before the server wrote who is signed in, the bell's notifications and the balances into the
  // page (scripts/src/page-data.ts): the page, Rolldown's runtime, the shell's script and sheet, the route's script and
  // sheet, the catalogue, the signed-in header's chunk, and its first list and time-limit notices.
  it.each(FIRST_LOAD_PAGES.map(([path]) => path))(
    "given the built front end, when %s loads cold, then it makes at most 10 requests (page, scripts, sheets and API calls)",
    withinRequests,
  );
});
