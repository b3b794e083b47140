import type { FareCalendar } from "@skyward/contracts/fare-calendar";
import type { SearchRequest } from "@skyward/contracts/offers";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** `POST /fare_calendar`: the cheapest total per date around a one-way or round trip's dates, in one request. */
export async function fetchFareCalendar(request: SearchRequest, companyId?: string): Promise<FareCalendar> {
  const { data } = await api.post<{ calendar: FareCalendar }>(
    "/fare_calendar",
    companyId ? { ...request, company_id: companyId } : request,
  );
  return data.calendar;
}

export const fareCalendarQueryOptions = (request: SearchRequest, companyId?: string) =>
  queryOptions({
    queryKey: ["fare_calendar", request, companyId ?? null],
    queryFn: () => fetchFareCalendar(request, companyId),
    // The server keeps it like a search page, for an hour; prices move, so it is asked again after a few minutes.
    staleTime: 5 * 60_000,
  });
