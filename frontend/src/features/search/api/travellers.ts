import type { Traveller } from "@skyward/contracts/travellers";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** `GET /travellers?q=`: the kept travellers whose name or document number holds every typed word. */
export async function findTravellers(text: string, signal?: AbortSignal): Promise<Traveller[]> {
  const { data } = await api.get<{ data: Traveller[] }>("/travellers", {
    query: { q: text, limit: 8 },
    ...(signal ? { signal } : {}),
  });
  return data.data;
}

/** `GET /travellers?order=recent`: the company's travellers last kept or changed, newest first. */
export const recentTravellersQueryOptions = () =>
  queryOptions({
    queryKey: ["travellers", "recent"],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: Traveller[] }>("/travellers", { query: { order: "recent", limit: 8 }, signal }))
        .data.data,
    staleTime: 30_000,
  });

export const travellersQueryOptions = (text: string) =>
  queryOptions({
    queryKey: ["travellers", text.trim().toUpperCase()],
    queryFn: ({ signal }) => findTravellers(text.trim(), signal),
    staleTime: 30_000,
  });
