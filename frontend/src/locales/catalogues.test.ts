import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { LANGUAGES, type Language, LOCALE_TAGS } from "../lib/i18n.ts";
import { PUBLIC_NAMESPACES } from "./resources.ts";

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

/** The file as it is on disk, not through the module loader, so every file in the folder is checked. */
function catalogue(language: Language, namespace: string): Tree {
  return JSON.parse(
    readFileSync(new URL(`./${language}/${namespace}.json`, import.meta.url), "utf8"),
  ) as Tree;
}

const namespaces = readdirSync(new URL("./en/", import.meta.url))
  .filter((file) => file.endsWith(".json"))
  .map((file) => file.slice(0, -".json".length))
  .sort();
const resources = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    Object.fromEntries(namespaces.map((namespace) => [namespace, catalogue(language, namespace)])),
  ]),
) as Record<Language, Record<string, Tree>>;
const reference = resources.en;

describe("translation catalogues", () => {
  it("has the same namespace files in every language", () => {
    for (const language of LANGUAGES) {
      const files = readdirSync(new URL(`./${language}/`, import.meta.url)).sort();
      expect({ language, files }).toEqual({
        language,
        files: namespaces.map((namespace) => `${namespace}.json`).sort(),
      });
    }
  });

  it("bundles every language's start-up namespaces from its own folder", () => {
    for (const language of LANGUAGES) {
      const bundle = readFileSync(new URL(`./bundles/${language}.ts`, import.meta.url), "utf8");
      expect({ language, globs: bundle.includes(`import.meta.glob(["../${language}/*.json"`) }).toEqual({
        language,
        globs: true,
      });
    }
  });

  it("bundles exactly the public namespaces in every language's public bundle", () => {
    for (const language of LANGUAGES) {
      const bundle = readFileSync(new URL(`./bundles/${language}-public.ts`, import.meta.url), "utf8");
      const files = [...bundle.matchAll(/"\.\.\/([a-z]+)\/([a-z-]+)\.json"/g)].map(([, folder, name]) =>
        folder === language ? name : `${folder}/${name}`,
      );
      expect({ language, files: files.sort() }).toEqual({ language, files: [...PUBLIC_NAMESPACES].sort() });
    }
  });

  it("has every namespace file in the generated key types", () => {
    const types = readFileSync(new URL("./catalogue.gen.ts", import.meta.url), "utf8");
    for (const namespace of namespaces) {
      // When this fails: `npm run routes -w frontend` regenerates catalogue.gen.ts.
      expect({ namespace, typed: types.includes(`import("./en/${namespace}.json")`) }).toEqual({
        namespace,
        typed: true,
      });
    }
  });

  describe.each(LANGUAGES.filter((language) => language !== "en"))("%s", (language) => {
    const pluralForms = new Intl.PluralRules(LOCALE_TAGS[language]).resolvedOptions().pluralCategories;

    it.each(namespaces)("has every key of the English %s catalogue, and no other", (namespace) => {
      const english = keyShape(flatten(reference[namespace] ?? {}));
      const translated = keyShape(flatten(resources[language][namespace] ?? {}));
      expect([...translated.plain].sort()).toEqual([...english.plain].sort());
      expect([...translated.plurals.keys()].sort()).toEqual([...english.plurals.keys()].sort());
      for (const [base, forms] of translated.plurals) {
        for (const form of pluralForms)
          expect({ key: base, has: forms.has(form) }).toEqual({ key: base, has: true });
      }
    });

    it.each(namespaces)("keeps the English placeholders in %s", (namespace) => {
      const english = flatten(reference[namespace] ?? {});
      for (const [key, value] of flatten(resources[language][namespace] ?? {})) {
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
      for (const [key, value] of flatten(resources[language][namespace] ?? {})) {
        expect({ key, value: typeof value === "string" ? value.trim() !== "" : value }).toEqual({
          key,
          value: true,
        });
      }
    });
  });
});
