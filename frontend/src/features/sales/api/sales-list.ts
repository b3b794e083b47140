import type { SalesListResponse } from "@skyward/contracts/sales";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** The spec's ticket search filter, with the page; empty values are left out of the URL. */
export interface SalesFilter {
  text: string;
  dateFrom: string | null;
  dateTo: string | null;
}

export const ticketQuery = (filter: SalesFilter) => ({
  ticket: {
    text: filter.text.trim() || undefined,
    date_from: filter.dateFrom ?? undefined,
    date_to: filter.dateTo ?? undefined,
  },
});

/** `GET /sales/?ticket[text]=&ticket[date_from]=&ticket[date_to]=&page=&per_page=` */
export const salesListQueryOptions = (filter: SalesFilter, page: number, perPage: number) =>
  queryOptions({
    queryKey: ["sales", "list", filter, page, perPage],
    queryFn: async ({ signal }) =>
      (
        await api.get<SalesListResponse>("/sales/", {
          query: { ...ticketQuery(filter), page, per_page: perPage },
          signal,
        })
      ).data,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
