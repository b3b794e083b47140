/**
 * The longest line an agent types; anything longer is not a search (refused, never cut silently). Without zod
 * (text-search.ts re-exports it): the search page's first paint needs it, not the schemas.
 */
export const TEXT_SEARCH_MAX_LENGTH = 500;
