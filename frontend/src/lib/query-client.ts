import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError, notifyApiError } from "./api-client.ts";

declare module "@tanstack/react-query" {
  interface Register {
    /** `notifyErrors: false` when the caller shows the failure itself (e.g. a 416 that closes a booking). */
    queryMeta: { notifyErrors?: boolean };
    mutationMeta: { notifyErrors?: boolean };
  }
}

/** Only failures that may pass on their own are retried: the server unreachable or in trouble. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < 2 && error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.notifyErrors !== false) notifyApiError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.notifyErrors !== false) notifyApiError(error);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
