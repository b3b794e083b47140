/**
 * The catalogue files, found by the bundler so a new namespace file needs no registration: each language's start-up
 * namespaces as one lazy chunk (`./bundles/<language>.ts`, keyed by file path) and each on-demand namespace as its own.
 * Jest has no `import.meta.glob`; its config maps this module to frontend/test/catalogue-files.ts.
 */
export const startupCatalogues: Record<string, () => unknown> = import.meta.glob("./bundles/*.ts", {
  import: "default",
});

export const onDemandCatalogues: Record<string, () => unknown> = import.meta.glob(
  ["./*/legal.json", "./*/errors.json"],
  {
    import: "default",
  },
);
