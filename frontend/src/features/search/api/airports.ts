import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** An airport, or a city code that searches all its airports (the server's `AirportSuggestion`; codes from an address carry no kind). */
export interface AirportSuggestion {
  kind?: "airport" | "city";
  code: string;
  name: string;
  city: string;
  country: string;
  airports?: string[] | undefined;
}

/** `GET /airports?q=`: the autocomplete of the search form. */
export async function searchAirports(text: string, signal?: AbortSignal): Promise<AirportSuggestion[]> {
  const { data } = await api.get<{ data: AirportSuggestion[] }>("/airports", {
    query: { q: text },
    ...(signal ? { signal } : {}),
  });
  return data.data;
}

export const airportsQueryOptions = (text: string) =>
  queryOptions({
    queryKey: ["airports", text.trim().toLowerCase()],
    queryFn: ({ signal }) => searchAirports(text.trim(), signal),
    staleTime: 60 * 60_000,
  });
