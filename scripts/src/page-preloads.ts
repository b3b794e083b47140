import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";

/** One module of the build's manifest (`vite build --manifest`): its file, static imports and style sheets. */
const ManifestChunk = z.object({
  file: z.string(),
  imports: z.array(z.string()).optional(),
  css: z.array(z.string()).optional(),
  isEntry: z.boolean().optional(),
});
const Manifest = z.record(z.string(), ManifestChunk);
type Manifest = z.infer<typeof Manifest>;

/** Pages anyone may open; any other page sends a visitor without a session to the sign-in page. */
const PUBLIC_PAGES = new Set(["", "sign_in", "legal", "docs"]);

/** The pages that start on the public catalogues when nobody is signed in (frontend/src/lib/i18n.ts, startupScope). */
const PUBLIC_CATALOGUE_PAGE = /^\/(sign_in|legal\/[^/]+)\/?$/;

/** The cookie in which the browser mirrors the language it shows (frontend/src/lib/i18n.ts). */
export const LANGUAGE_COOKIE = "skyward_lang";

/**
 * The language a page starts in when its browser has not said one (frontend/src/lib/i18n.ts, DEFAULT_LANGUAGE): the
 * page writes the cookie whenever it starts, so a browser without it is a new visitor, who starts in English.
 */
const DEFAULT_LANGUAGE = "en";

/** A route's code-split modules in the manifest: `src/routes/search.tsx?tsr-split=component` is page "search". */
const ROUTE_MODULE = /^src\/routes\/([^./?]+)[^?]*\.tsx\?tsr-split=/;

/**
 * The `<link>` tags that let a page's own code and style load beside the shell rather than after it: without them
 * the browser learns of a route's chunk only once the shell has run and the router has matched the address, one
 * round trip and the shell's start-up later. Scripts as module preloads, style sheets as preloads (the router inserts
 * the sheet itself; a preload never blocks the first paint). What the page's entry loads already is left out.
 */
export function pagePreloads(manifest: unknown, base = "/packs/") {
  const chunks: Manifest = Manifest.parse(manifest);
  const closure = (keys: Iterable<string>, into = new Set<string>()) => {
    for (const key of keys) {
      if (into.has(key) || !chunks[key]) continue;
      into.add(key);
      closure(chunks[key].imports ?? [], into);
    }
    return into;
  };
  const entry = closure(Object.keys(chunks).filter((key) => chunks[key]?.isEntry));
  const byPage = new Map<string, string[]>();
  for (const key of Object.keys(chunks)) {
    const name = key.match(ROUTE_MODULE)?.[1];
    if (name === undefined) continue;
    const page = name === "index" ? "" : name;
    byPage.set(page, [...(byPage.get(page) ?? []), key]);
  }
  const tags = new Map<string, string>();
  for (const [page, keys] of byPage) {
    const own = [...closure(keys)].filter((key) => !entry.has(key));
    const scripts = own.map((key) => chunks[key]?.file ?? "");
    const sheets = [...new Set(own.flatMap((key) => chunks[key]?.css ?? []))];
    tags.set(
      page,
      [
        ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
        ...sheets.map((file) => `<link rel="preload" as="style" crossorigin href="${base}${file}">`),
      ].join(""),
    );
  }
  /**
   * The tags for a page's address; a visitor without a session is preloaded the sign-in page they will see. With the
   * language the browser said it shows (its `skyward_lang` cookie; without one, or with one the build has no
   * catalogue for, the default language), that language's start-up catalogues too: the public ones on the sign-in
   * and legal pages before signing in, else all (as the page's i18n set-up chooses).
   */
  return (pathname: string, signedIn: boolean, language?: string): string => {
    const page = pathname.split("/")[1] ?? "";
    if (!byPage.has(page)) return "";
    const scope = !signedIn && PUBLIC_CATALOGUE_PAGE.test(pathname) ? "-public" : "";
    const bundle = (of: string) => chunks[`src/locales/bundles/${of}${scope}.ts`];
    const catalogue =
      (language && /^[a-z]{2}$/.test(language) ? bundle(language) : undefined) ?? bundle(DEFAULT_LANGUAGE);
    return (
      (tags.get(signedIn || PUBLIC_PAGES.has(page) ? page : "sign_in") ?? "") +
      (catalogue ? `<link rel="modulepreload" crossorigin href="${base}${catalogue.file}">` : "")
    );
  };
}

/** The preloads of a built front end (`dist/.vite/manifest.json`), or none when it was built without a manifest. */
export function pagePreloadsOf(dist: string): ReturnType<typeof pagePreloads> {
  const path = `${dist}.vite/manifest.json`;
  if (!existsSync(path)) return () => "";
  return pagePreloads(JSON.parse(readFileSync(path, "utf8")));
}

/** The page with its preloads at the end of its head. */
export function withPreloads(html: string, tags: string): string {
  return tags ? html.replace("</head>", `${tags}</head>`) : html;
}
