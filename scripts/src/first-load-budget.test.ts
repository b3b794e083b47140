import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";

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
