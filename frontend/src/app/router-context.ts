import type { QueryClient } from "@tanstack/react-query";

/** What every route's loader gets; apart from router.ts, which imports the route tree whose root names this. */
export interface RouterContext {
  queryClient: QueryClient;
}
