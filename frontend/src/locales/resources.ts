import type { Language } from "../lib/i18n.ts";
import type { Catalogue } from "./catalogue.gen.ts";
import { onDemandCatalogues, startupCatalogues } from "./catalogue-files.ts";

// One namespace per feature, one file per language and namespace (`./<language>/<namespace>.json`); English is
// the reference every other catalogue must match (catalogues.test.ts). Adding a file needs no edit here.
export type { Catalogue };
export type Namespace = keyof Catalogue;
export type Catalogues = Record<string, Record<string, unknown>>;

/**
 * Fetched by the screens that use them rather than with the page: the legal texts are most of a language's text.
 * Also excluded by name in ./bundles/*.ts and globbed in ./catalogue-files.ts (bundler patterns are literals).
 */
export const ON_DEMAND_NAMESPACES: readonly string[] = ["legal"];

/** `../en/sign-in.json` -> `sign-in` */
function byNamespace(files: Record<string, unknown>): Catalogues {
  return Object.fromEntries(
    Object.entries(files).map(([path, catalogue]) => [
      path.replace(/^.*\/([^/]+)\.json$/, "$1"),
      catalogue as Record<string, unknown>,
    ]),
  );
}

const startupLoads = new Map<Language, Catalogues | Promise<Catalogues>>();

/**
 * Every start-up namespace of one language, by namespace: one chunk in the browser (a promise, fetched once), the
 * objects themselves under Jest.
 */
export function loadStartupCatalogues(language: Language): Catalogues | Promise<Catalogues> {
  const known = startupLoads.get(language);
  if (known) return known;
  const load = startupCatalogues[`./bundles/${language}.ts`];
  if (!load) throw new Error(`No start-up catalogues for ${language}`);
  const loaded = load();
  const catalogues =
    loaded instanceof Promise
      ? loaded.then((files: Record<string, unknown>) => byNamespace(files))
      : byNamespace(loaded as Record<string, unknown>);
  startupLoads.set(language, catalogues);
  return catalogues;
}

/** One namespace of one language, from its language's start-up chunk or its own on-demand file. */
export function loadCatalogue(language: Language, namespace: string): unknown {
  if (!ON_DEMAND_NAMESPACES.includes(namespace)) {
    const catalogues = loadStartupCatalogues(language);
    return catalogues instanceof Promise
      ? catalogues.then((loaded) => loaded[namespace])
      : catalogues[namespace];
  }
  const load = onDemandCatalogues[`./${language}/${namespace}.json`];
  if (!load) throw new Error(`No ${language} catalogue for namespace ${namespace}`);
  return load();
}
