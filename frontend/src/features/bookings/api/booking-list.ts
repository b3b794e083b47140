import type { BookingList, BookingListPage } from "@skyward/contracts/bookings";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export interface BookingListParams {
  list: BookingList;
  q: string;
  page: number;
  perPage: number;
  /** Days (YYYY-MM-DD) the bookings were made between, both included. */
  createdFrom?: string | null;
  createdTo?: string | null;
  /** The queue: held bookings by their time limit, the nearest first. */
  byTimeLimit?: boolean;
}

/** `GET /bookings?list=&q=&page=&per_page=`; a text search looks within the list. */
export async function fetchBookingList(
  params: BookingListParams,
  signal?: AbortSignal,
): Promise<BookingListPage> {
  const q = params.q.trim();
  const { data } = await api.get<BookingListPage>("/bookings", {
    query: {
      list: params.list,
      q: q || undefined,
      page: params.page,
      per_page: params.perPage,
      created_from: params.createdFrom || undefined,
      created_to: params.createdTo || undefined,
      sort: params.byTimeLimit ? "time_limit" : undefined,
    },
    ...(signal ? { signal } : {}),
  });
  return data;
}

/**
 * The list the bookings page opens on for its address (no dates, by creation): what its loader asks for, and what the
 * server may have written into the page (scripts/src/page-data.ts) under the same key.
 */
export const startingListParams = (
  list: BookingList,
  q: string,
  page: number,
  perPage: number,
): BookingListParams => ({ list, q, page, perPage, createdFrom: null, createdTo: null, byTimeLimit: false });

export const bookingListQueryOptions = (params: BookingListParams) =>
  queryOptions({
    queryKey: [...queryKeys.bookingLists, params],
    queryFn: ({ signal }) => fetchBookingList(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
