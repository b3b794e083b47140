import type { ReplayOverview, ReplayRun } from "@skyward/contracts/replay";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** `GET /audit/replays`: the projections that can be replayed and the latest runs. */
export const replaysQueryOptions = () =>
  queryOptions({
    queryKey: ["audit", "replays"],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: ReplayOverview }>("/audit/replays", { signal })).data.data,
  });

/** `GET /audit/replays/{id}`, polled while the run is queued or running (its progress bar). */
export const replayRunQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["audit", "replays", id],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: ReplayRun }>(`/audit/replays/${encodeURIComponent(id)}`, { signal })).data.data,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "done" || status === "failed" ? false : 400;
    },
  });

/** `POST /audit/replays`: replays a projection beside live and compares them (changes nothing). */
export async function startReplay(projection: string): Promise<ReplayRun> {
  return (await api.post<{ data: ReplayRun }>("/audit/replays", { projection })).data.data;
}

/** `POST /audit/replays/{id}/switch`: replays again and puts a fresh generation in service if it still agrees. */
export async function switchReplay(compareId: string): Promise<ReplayRun> {
  return (await api.post<{ data: ReplayRun }>(`/audit/replays/${encodeURIComponent(compareId)}/switch`)).data
    .data;
}
