import type { AirportsResponse } from "@skyward/contracts/search";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** A city or airport the server suggests; one read back from an address carries no kind. */
export type AirportSuggestion = Omit<AirportsResponse["data"][number], "kind"> & {
  kind?: AirportsResponse["data"][number]["kind"];
};

/** `GET /airports?q=`: the autocomplete of the search form. */
export async function searchAirports(text: string, signal?: AbortSignal): Promise<AirportSuggestion[]> {
  const { data } = await api.get<AirportsResponse>("/airports", {
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
