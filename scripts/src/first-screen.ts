import { existsSync, readFileSync } from "node:fs";
import { mayUseScreen } from "@skyward/contracts/screens";
import type { PageData } from "./page-data.ts";

/** Where the page's start-up skeleton stands in the built page (frontend/index.html). */
const SKELETON = /<!--first-screen-->[\s\S]*?<!--\/first-screen-->/;

/** `<html lang>` per product language (frontend/src/lib/i18n.ts, LOCALE_TAGS). */
const LOCALE_TAGS: Record<string, string> = { en: "en", ua: "uk", fr: "fr", es: "es", pl: "pl" };

const SEARCH_PAGE = /^\/search\/?$/;
const BOOKINGS_PAGE = /^\/bookings\/?$/;

/** The first screen chosen for a page: its markup and language. */
export interface FirstScreen {
  html: string;
  language: string;
}

/**
 * The first screens the front-end build rendered (`frontend/scripts/first-screens.tsx`, dist/first-screens.json: by
 * screen, by language), and the one for a page (issue 27: the page's largest text paints before any script runs):
 * a signed-in user's search page at its start (no search in the address; the roles whose page is the plain form) and
 * bookings page on the list its data was read for (its empty state when that list has no row), in the language the
 * browser shows (its `skyward_lang` cookie, else English). Any other page, or a page without data, keeps the build's
 * start-up skeleton.
 */
export function firstScreensOf(dist: string) {
  const path = `${dist}first-screens.json`;
  const screens: Record<string, Record<string, string>> = existsSync(path)
    ? JSON.parse(readFileSync(path, "utf8"))
    : {};
  return (
    page: { path: string; query: Record<string, unknown> },
    data: PageData | null,
    language: string | undefined,
  ): FirstScreen | null => {
    const role = data?.session?.account.user_type;
    if (!role) return null;
    let name: string | null = null;
    if (
      SEARCH_PAGE.test(page.path) &&
      Object.keys(page.query).length === 0 &&
      (role === "Agent" || role === "Supervisor")
    )
      name = "search";
    else if (BOOKINGS_PAGE.test(page.path) && data.bookings && mayUseScreen(role, "bookings"))
      name = `bookings-${data.bookings.list}${data.bookings.answer.data.length === 0 ? "-empty" : ""}`;
    const byLanguage = name ? screens[name] : undefined;
    if (!byLanguage) return null;
    // A cookie names anything: only a language the build rendered is taken (no `constructor` from the prototype).
    const chosen = language && Object.hasOwn(byLanguage, language) ? language : "en";
    const html = byLanguage[chosen];
    return html ? { html, language: chosen } : null;
  };
}

/** The scripts a page with a first screen fetches once painted (the entry preloads them then, side by side). */
const AFTER_PAINT = "skyward-modulepreload";

/** The entry the build writes into the page (frontend/vite.config.ts, inlineEntry): one import of the shell, one call. */
const ENTRY =
  /<script type="module">import\s*\{\s*(\w+) as (\w+)\s*\}\s*from\s*"([^"]+)";\s*await \2\(\);?<\/script>/;

/**
 * The page's entry, changed to fetch and import the app only once the browser has shown the page's first contentful
 * paint (or after a second: a tab opened in the background paints nothing until shown): then it preloads the page's
 * scripts side by side (the `<meta>` elements `withFirstScreen` left in place of their preloads) and imports the shell.
 * A static import runs the shell, fetched beside the page, before the first frame: the first screen would paint only
 * once the app has started; and scripts fetched beside the sheets share the line with what the paint waits for.
 * Pages without a first screen keep the entry as built.
 */
export function afterFirstPaintEntry(html: string): string {
  return html.replace(
    ENTRY,
    (_, name: string, local: string, file: string) =>
      '<script type="module">await new Promise((r)=>{const o=new PerformanceObserver((l)=>{' +
      'if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();r()}});' +
      'o.observe({type:"paint",buffered:true});setTimeout(r,1000)});' +
      `for(const m of document.querySelectorAll('meta[name="${AFTER_PAINT}"]')){const l=document.createElement("link");` +
      'l.rel="modulepreload";l.crossOrigin="";l.href=m.content;document.head.append(l)}' +
      `const{${name}:${local}}=await import("${file}");await ${local}();</script>`,
  );
}

/**
 * The page with its first screen in place of the start-up skeleton, in its language (`<html lang>`); the page's own
 * style sheets, which the server preloads (scripts/src/page-preloads.ts), applied from the start (the screen is
 * styled before the app would insert them; it finds them in place and adds none); its scripts, which the first paint
 * does not wait for, fetched after that paint by its entry (the HTML and the sheets it does wait for go first: on a
 * slow line the app starts about a sheet's download later, and the page shows its content seconds earlier).
 */
export function withFirstScreen(html: string, screen: FirstScreen | null): string {
  if (!screen) return html;
  return afterFirstPaintEntry(html)
    .replace(SKELETON, () => screen.html)
    .replace(/<html lang="en"/, `<html lang="${LOCALE_TAGS[screen.language] ?? "en"}"`)
    .replace(
      /<link rel="preload" as="style" crossorigin href="([^"]+)">/g,
      '<link rel="stylesheet" crossorigin href="$1">',
    )
    .replace(
      /<link rel="modulepreload" crossorigin href="([^"]+)">/g,
      `<meta name="${AFTER_PAINT}" content="$1">`,
    );
}
