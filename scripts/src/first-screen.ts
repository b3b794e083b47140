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
    const chosen = language && byLanguage[language] ? language : "en";
    const html = byLanguage[chosen];
    return html ? { html, language: chosen } : null;
  };
}

/**
 * The page with its first screen in place of the start-up skeleton, in its language (`<html lang>`), and the page's
 * own style sheets, which the server preloads (scripts/src/page-preloads.ts), applied from the start: the screen is
 * styled before the app inserts them (it finds them in place and adds none).
 */
export function withFirstScreen(html: string, screen: FirstScreen | null): string {
  if (!screen) return html;
  return html
    .replace(SKELETON, () => screen.html)
    .replace(/<html lang="en"/, `<html lang="${LOCALE_TAGS[screen.language] ?? "en"}"`)
    .replace(
      /<link rel="preload" as="style" crossorigin href="([^"]+)">/g,
      '<link rel="stylesheet" crossorigin href="$1">',
    );
}
