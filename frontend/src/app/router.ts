import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type RouterHistory, stringifySearchWith } from "@tanstack/react-router";
import { routeTree } from "../routeTree.gen.ts";
import { jsonLooking, parseSearch } from "./search-params.ts";

export type { RouterContext } from "./router-context.ts";

/** The browser's history by default; tests pass a memory history. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    context: { queryClient },
    defaultPreload: "intent",
    // Loaders read through react-query, which decides freshness itself.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    parseSearch: parseSearch,
    // Strings as they are (no quotes around numeric-looking ones), objects, numbers and JSON-like text as JSON.
    stringifySearch: stringifySearchWith(JSON.stringify, jsonLooking),
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
