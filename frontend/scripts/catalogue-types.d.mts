/** The source of src/locales/catalogue.gen.ts for the English catalogue files now on disk. */
export function catalogueTypesSource(): string;
/** Rewrites src/locales/catalogue.gen.ts when the catalogue files changed. */
export function writeCatalogueTypes(): void;
