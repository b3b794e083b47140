import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * The handlers of a switch that shows its new state at once: the cached list is changed before the request, put
 * back as it was if the server refuses (the API client shows the error), and read again either way.
 */
export function optimisticUpdate<Data, Input>(
  queryClient: QueryClient,
  key: QueryKey,
  apply: (data: Data, input: Input) => Data,
  alsoStale: readonly QueryKey[] = [],
) {
  return {
    onMutate: async (input: Input): Promise<{ before: Data | undefined }> => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Data>(key);
      if (before !== undefined) queryClient.setQueryData<Data>(key, apply(before, input));
      return { before };
    },
    onError: (_error: unknown, _input: Input, context: { before: Data | undefined } | undefined) => {
      if (context?.before !== undefined) queryClient.setQueryData(key, context.before);
    },
    onSettled: () => {
      for (const stale of [key, ...alsoStale]) void queryClient.invalidateQueries({ queryKey: stale });
    },
  };
}
