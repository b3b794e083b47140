import { readdirSync, readFileSync } from "node:fs";
import { PUBLIC_NAMESPACES } from "../src/locales/resources.ts";

// Jest's stand-in for src/locales/catalogue-files.ts: the same files, read synchronously so i18n is ready at import.
const root = new URL("../src/locales/", import.meta.url);
const languages = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "bundles")
  .map((entry) => entry.name);
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), "utf8"));
const files = (language: string) =>
  readdirSync(new URL(`${language}/`, root)).filter((file) => file.endsWith(".json"));

const bundle = (language: string, namespaces: (file: string) => boolean) => () =>
  Object.fromEntries(
    files(language)
      .filter(namespaces)
      .map((file) => [`../${language}/${file}`, read(`${language}/${file}`)]),
  );

export const startupCatalogues: Record<string, () => unknown> = Object.fromEntries(
  languages.flatMap((language) => [
    // With the errors' texts, unlike the browser's bundle: unit tests make coded ApiErrors themselves, where the app's
    // come through the client, which loads those texts first (lib/i18n.ts, errorTextsReady).
    [`./bundles/${language}.ts`, bundle(language, (file) => file !== "legal.json")],
    [
      `./bundles/${language}-public.ts`,
      bundle(language, (file) => PUBLIC_NAMESPACES.includes(file.replace(/\.json$/, ""))),
    ],
  ]),
);

export const onDemandCatalogues: Record<string, () => unknown> = Object.fromEntries(
  languages.flatMap((language) =>
    ["legal", "errors"].map((namespace) => [
      `./${language}/${namespace}.json`,
      () => read(`${language}/${namespace}.json`),
    ]),
  ),
);
