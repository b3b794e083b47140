/**
 * The search page's checks with zod and the contracts' schemas, in one chunk: the address and recent searches read,
 * the search form's and the text search's schemas, and the search's state machine (XState). The page's first paint (an empty form) needs none of them; they
 * load with the first address or recent search to read, or the first form an agent uses (load-checks.ts).
 */
export { TextSearchLineForm } from "@skyward/contracts/text-search-form";
export { zod4Resolver } from "mantine-form-zod-resolver";
export { startSearchActor } from "./machines/search-actor.ts";
export { SearchFormSchema, validateSearchForm } from "./machines/search-form-checks.ts";
export { recentSearches, rememberSearch, requestFromParams, SearchParams } from "./url-checks.ts";
