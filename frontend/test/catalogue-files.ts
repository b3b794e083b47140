import { readdirSync, readFileSync } from "node:fs";

// Jest's stand-in for src/locales/catalogue-files.ts: the same files, read synchronously so i18n is ready at import.
const root = new URL("../src/locales/", import.meta.url);
const languages = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "bundles")
  .map((entry) => entry.name);
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), "utf8"));
const files = (language: string) =>
  readdirSync(new URL(`${language}/`, root)).filter((file) => file.endsWith(".json"));

export const startupCatalogues: Record<string, () => unknown> = Object.fromEntries(
  languages.map((language) => [
    `./bundles/${language}.ts`,
    () =>
      Object.fromEntries(
        files(language)
          .filter((file) => file !== "legal.json")
          .map((file) => [`../${language}/${file}`, read(`${language}/${file}`)]),
      ),
  ]),
);

export const onDemandCatalogues: Record<string, () => unknown> = Object.fromEntries(
  languages.map((language) => [`./${language}/legal.json`, () => read(`${language}/legal.json`)]),
);
