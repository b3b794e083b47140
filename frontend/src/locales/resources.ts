import type { Language } from "@skyward/contracts/ids";
import type { Catalogue } from "./catalogue.gen.ts";
import { onDemandCatalogues, startupCatalogues } from "./catalogue-files.ts";

// One namespace per feature, one file per language and namespace (`./<language>/<namespace>.json`); English is
// the reference every other catalogue must match (catalogues.test.ts). Adding a file needs no edit here.
export type { Catalogue };
export type Namespace = keyof Catalogue;
export type Catalogues = Record<string, Record<string, unknown>>;

/**
 * Fetched by the screens that use them rather than with the page: the legal texts are most of a language's text, and
 * the server errors' texts come with the first error that needs them (lib/i18n.ts, errorTextsReady), as on a public
 * page. Also excluded by name in ./bundles/*.ts and globbed in ./catalogue-files.ts (bundler patterns are literals).
 */
export const ON_DEMAND_NAMESPACES: readonly string[] = ["legal", "errors"];

/** `../en/sign-in.json` -> `sign-in` */
function byNamespace(files: Record<string, unknown>): Catalogues {
  return Object.fromEntries(
    Object.entries(files).map(([path, catalogue]) => [
      path.replace(/^.*\/([^/]+)\.json$/, "$1"),
      catalogue as Record<string, unknown>,
    ]),
  );
}

/**
 * What a signed-out visitor's first page shows (header, sign-in, notices): a language's public bundle
 * (`./bundles/<language>-public.ts`, which globs these same files) is about a sixth of its full bundle. The server
 * errors' texts (two thirds of it) come with the full bundle when a first error needs them (lib/api-client.ts), which
 * the page after signing in needs anyway.
 */
export const PUBLIC_NAMESPACES: readonly string[] = [
  "common",
  "account",
  "language",
  "notifications",
  "sign-in",
  "sign-in-form",
];

/** `public`: the public namespaces; `full`: every start-up namespace (the signed-in screens). */
export type StartupScope = "public" | "full";

const startupLoads = new Map<string, Catalogues | Promise<Catalogues>>();
/** Once the full bundle is asked for, every later load uses full bundles: one request per language, not two. */
let scope: StartupScope = "public";

/**
 * The start-up namespaces of one language, by namespace: one chunk in the browser (a promise, fetched once), the
 * objects themselves under Jest.
 */
export function loadStartupCatalogues(
  language: Language,
  wanted: StartupScope = "full",
): Catalogues | Promise<Catalogues> {
  if (wanted === "full") scope = "full";
  const bundle = scope === "full" ? language : `${language}-public`;
  const known = startupLoads.get(bundle);
  if (known) return known;
  const load = startupCatalogues[`./bundles/${bundle}.ts`];
  if (!load) throw new Error(`No start-up catalogues for ${bundle}`);
  const loaded = load();
  const catalogues =
    loaded instanceof Promise
      ? loaded.then((files: Record<string, unknown>) => byNamespace(files))
      : byNamespace(loaded as Record<string, unknown>);
  startupLoads.set(bundle, catalogues);
  return catalogues;
}

/** One namespace of one language, from its language's start-up chunk or its own on-demand file. */
export function loadCatalogue(language: Language, namespace: string): unknown {
  if (!ON_DEMAND_NAMESPACES.includes(namespace)) {
    const catalogues = loadStartupCatalogues(
      language,
      PUBLIC_NAMESPACES.includes(namespace) ? "public" : "full",
    );
    return catalogues instanceof Promise
      ? catalogues.then((loaded) => loaded[namespace])
      : catalogues[namespace];
  }
  const load = onDemandCatalogues[`./${language}/${namespace}.json`];
  if (!load) throw new Error(`No ${language} catalogue for namespace ${namespace}`);
  return load();
}
