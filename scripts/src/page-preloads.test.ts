import { describe, expect, it } from "@jest/globals";
import { pagePreloads, withPreloads } from "./page-preloads.ts";

/** The shape of a Vite manifest: the entry, the shell it imports, two routes sharing a schemas chunk. */
const manifest = {
  "index.html": { file: "assets/index-A.js", imports: ["_shell-B.js"], isEntry: true },
  "_shell-B.js": { file: "assets/shell-B.js", imports: ["_runtime-C.js"], css: ["assets/shell-B.css"] },
  "_runtime-C.js": { file: "assets/runtime-C.js" },
  "_schemas-D.js": { file: "assets/schemas-D.js", imports: ["_shell-B.js"] },
  "src/routes/search.tsx?tsr-split=component": {
    file: "assets/search-E.js",
    imports: ["_runtime-C.js", "_shell-B.js", "_schemas-D.js"],
    css: ["assets/search-E.css"],
  },
  "src/routes/sales.tsx?tsr-split=component": { file: "assets/sales-F.js", imports: ["_schemas-D.js"] },
  "src/routes/sales.tsx?tsr-split=loader": { file: "assets/sales-G.js", imports: ["_shell-B.js"] },
  "src/routes/sign_in.tsx?tsr-split=component": {
    file: "assets/sign_in-H.js",
    css: ["assets/sign_in-H.css"],
  },
  "src/routes/legal.$document.tsx?tsr-split=component": { file: "assets/legal-I.js" },
  "src/routes/index.tsx?tsr-split=component": { file: "assets/routes-J.js" },
  "src/locales/bundles/ua.ts": { file: "assets/ua-K.js" },
  "src/locales/bundles/ua-public.ts": { file: "assets/ua-public-L.js" },
};

const hrefs = (tags: string) =>
  [...tags.matchAll(/<link rel="([a-z]+)"(?: as="style")? crossorigin href="([^"]+)">/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );

describe("a page's preloads", () => {
  const preloads = pagePreloads(manifest);

  it("given a signed-in page, then its own chunks and sheets are preloaded and the entry's are not", () => {
    expect(hrefs(preloads("/search", true))).toEqual([
      "modulepreload /packs/assets/search-E.js",
      "modulepreload /packs/assets/schemas-D.js",
      "preload /packs/assets/search-E.css",
    ]);
    // Every split of a route (its loader too), and an address below the page's.
    expect(hrefs(preloads("/sales/2026", true))).toEqual([
      "modulepreload /packs/assets/sales-F.js",
      "modulepreload /packs/assets/schemas-D.js",
      "modulepreload /packs/assets/sales-G.js",
    ]);
    expect(hrefs(preloads("/legal/terms", false))).toEqual(["modulepreload /packs/assets/legal-I.js"]);
    expect(hrefs(preloads("/", false))).toEqual(["modulepreload /packs/assets/routes-J.js"]);
  });

  it("given a visitor without a session on a page that needs one, then the sign-in page they land on is preloaded", () => {
    expect(hrefs(preloads("/search", false))).toEqual([
      "modulepreload /packs/assets/sign_in-H.js",
      "preload /packs/assets/sign_in-H.css",
    ]);
  });

  it("given an address no route has, then nothing is preloaded and the page is unchanged", () => {
    expect(preloads("/nowhere", true)).toBe("");
    expect(preloads("/search.tsx?tsr-split=component", true)).toBe("");
    expect(withPreloads("<head></head>", "")).toBe("<head></head>");
    expect(withPreloads("<head><title>x</title></head>", preloads("/", true))).toBe(
      '<head><title>x</title><link rel="modulepreload" crossorigin href="/packs/assets/routes-J.js"></head>',
    );
  });

  it("given a manifest of another shape, then it is refused at start rather than read wrong", () => {
    expect(() => pagePreloads({ "index.html": { file: 7 } })).toThrow();
  });

  it("given the language the browser shows, then its start-up catalogues come with the page, public ones before signing in", () => {
    expect(hrefs(preloads("/search", true, "ua")).at(-1)).toBe("modulepreload /packs/assets/ua-K.js");
    expect(hrefs(preloads("/sign_in", false, "ua")).at(-1)).toBe(
      "modulepreload /packs/assets/ua-public-L.js",
    );
    // A page that is not public starts on all the catalogues, as the page itself chooses, even before it redirects.
    expect(hrefs(preloads("/sales", false, "ua")).at(-1)).toBe("modulepreload /packs/assets/ua-K.js");
    expect(hrefs(preloads("/legal/terms", false, "ua")).at(-1)).toBe(
      "modulepreload /packs/assets/ua-public-L.js",
    );
    // A language the build has no catalogue for, or a cookie written by someone else, is read as no cookie.
    for (const language of ["de", "ua.ts", "../ua", 'ua"><script>', "__proto__"])
      expect(preloads("/search", true, language)).toBe(preloads("/search", true));
  });

  it("given no language cookie (a new visitor), then the default language's start-up catalogues come with the page", () => {
    const withEnglish = pagePreloads({
      ...manifest,
      "src/locales/bundles/en.ts": { file: "assets/en-M.js" },
      "src/locales/bundles/en-public.ts": { file: "assets/en-public-N.js" },
    });
    expect(hrefs(withEnglish("/search", true)).at(-1)).toBe("modulepreload /packs/assets/en-M.js");
    expect(hrefs(withEnglish("/sign_in", false)).at(-1)).toBe("modulepreload /packs/assets/en-public-N.js");
    expect(hrefs(withEnglish("/search", true, "ua")).at(-1)).toBe("modulepreload /packs/assets/ua-K.js");
    expect(withEnglish("/search", true, "__proto__")).toBe(withEnglish("/search", true));
  });
});
