import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

// The interface's catalogues read in the browser tests, to find English left on a screen in another language.

const LOCALES = fileURLToPath(new URL("../src/locales/", import.meta.url));

/** Every string of one language's catalogues (legal texts aside), flattened. */
export function catalogue(language: string): string[] {
  const strings: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") strings.push(value);
    else if (value && typeof value === "object") for (const child of Object.values(value)) walk(child);
  };
  for (const file of readdirSync(join(LOCALES, language)))
    if (file.endsWith(".json") && file !== "legal.json")
      walk(JSON.parse(readFileSync(join(LOCALES, language, file), "utf8")));
  return strings;
}

/**
 * The interface's English sentences and labels that the other language translates differently: any of them on a
 * screen in that language is an untranslated string. Interpolations are cut at their placeholders.
 */
export function englishOnly(language: string): string[] {
  const theirs = new Set(catalogue(language));
  const phrases = new Set<string>();
  for (const text of catalogue("en")) {
    if (theirs.has(text)) continue;
    for (const part of text.split(/\{\{[^}]*\}\}|<[^>]*>|\n/)) {
      const phrase = part.trim().replace(/[.:,;!?]+$/, "");
      // Two words or more: a lone word ("Route", "Total") may also be a name or a code.
      if (/[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(phrase)) phrases.add(phrase);
    }
  }
  return [...phrases];
}

/**
 * Single words the two-word rule above lets through, where a lone English word is the fault (issue 27 item 3): the
 * cabin words beside fare-brand names, the fare families, and the booking's action labels. Only those the language
 * says otherwise (French keeps "Void", Spanish "Business").
 */
const SINGLE_WORDS: Record<string, string[]> = {
  "fares.json": ["cabins", "families"],
  "search.json": ["cabins"],
  "after-sales.json": ["now.actions"],
};

function valuesAt(file: string, language: string, path: string): Record<string, string> {
  let node: unknown = JSON.parse(readFileSync(join(LOCALES, language, file), "utf8"));
  for (const key of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[key];
  return (node ?? {}) as Record<string, string>;
}

export function englishWords(language: string): string[] {
  const theirs = new Set(catalogue(language));
  const words = new Set<string>();
  for (const [file, paths] of Object.entries(SINGLE_WORDS))
    for (const path of paths) {
      const own = valuesAt(file, language, path);
      for (const [key, text] of Object.entries(valuesAt(file, "en", path)))
        if (!text.includes(" ") && own[key] !== text && !theirs.has(text)) words.add(text);
    }
  return [...words];
}

/** The words of `words` the page shows as whole words (a letter on neither side), in any case (a badge may shout). */
export async function untranslatedWords(page: Page, words: string[]): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return words.filter((word) => new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, "iu").test(text));
}

export async function untranslated(page: Page, phrases: string[]): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return phrases.filter((phrase) => text.includes(phrase));
}
