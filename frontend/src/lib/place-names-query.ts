import { queryOptions } from "@tanstack/react-query";
import type { Language } from "./i18n.ts";
import { loadPlaceNames } from "./place-names.ts";

/** A language's city names as a query, so a route's loader can fetch them beside the page's code. */
export const placeNamesQueryOptions = (language: Language) =>
  queryOptions({
    queryKey: ["place-names", language],
    queryFn: () => loadPlaceNames(language),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
