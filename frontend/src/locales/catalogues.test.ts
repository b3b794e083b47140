import { readdirSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { LANGUAGES, LOCALE_TAGS } from "../lib/i18n.ts";
import { resources } from "./resources.ts";

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object") {
      for (const [nested, leaf] of flatten(value, path)) entries.set(nested, leaf);
    } else {
      entries.set(path, value);
    }
  }
  return entries;
}

/** Plural keys (`x_one`, `x_few`...) collapse to their base: each language needs its own plural forms. */
function keyShape(entries: Map<string, unknown>): { plain: Set<string>; plurals: Map<string, Set<string>> } {
  const plain = new Set<string>();
  const plurals = new Map<string, Set<string>>();
  for (const key of entries.keys()) {
    const base = key.replace(PLURAL_SUFFIX, "");
    if (base !== key && entries.has(`${base}_other`)) {
      const forms = plurals.get(base) ?? new Set<string>();
      forms.add(key.slice(base.length + 1));
      plurals.set(base, forms);
    } else {
      plain.add(key);
    }
  }
  return { plain, plurals };
}

function placeholders(value: unknown): string[] {
  return [...String(value).matchAll(/\{\{\s*([\w.]+)/g)].map((match) => match[1] ?? "").sort();
}

const reference = resources.en;
const namespaces = Object.keys(reference) as (keyof typeof reference)[];

describe("translation catalogues", () => {
  it("register every catalogue file of every language", () => {
    for (const language of LANGUAGES) {
      const files = readdirSync(new URL(`./${language}/`, import.meta.url)).sort();
      expect(files).toEqual(namespaces.map((namespace) => `${namespace}.json`).sort());
    }
  });

  describe.each(LANGUAGES.filter((language) => language !== "en"))("%s", (language) => {
    const pluralForms = new Intl.PluralRules(LOCALE_TAGS[language]).resolvedOptions().pluralCategories;

    it.each(namespaces)("has every key of the English %s catalogue, and no other", (namespace) => {
      const english = keyShape(flatten(reference[namespace]));
      const translated = keyShape(flatten(resources[language][namespace]));
      expect([...translated.plain].sort()).toEqual([...english.plain].sort());
      expect([...translated.plurals.keys()].sort()).toEqual([...english.plurals.keys()].sort());
      for (const [base, forms] of translated.plurals) {
        for (const form of pluralForms)
          expect({ key: base, has: forms.has(form) }).toEqual({ key: base, has: true });
      }
    });

    it.each(namespaces)("keeps the English placeholders in %s", (namespace) => {
      const english = flatten(reference[namespace]);
      for (const [key, value] of flatten(resources[language][namespace])) {
        const englishValue = english.get(key) ?? english.get(key.replace(PLURAL_SUFFIX, "_other"));
        expect({ key, placeholders: placeholders(value) }).toEqual({
          key,
          placeholders: placeholders(englishValue),
        });
      }
    });
  });

  describe.each(LANGUAGES)("%s", (language) => {
    it.each(namespaces)("has no empty text in %s", (namespace) => {
      for (const [key, value] of flatten(resources[language][namespace])) {
        expect({ key, value: typeof value === "string" ? value.trim() !== "" : value }).toEqual({
          key,
          value: true,
        });
      }
    });
  });
});
