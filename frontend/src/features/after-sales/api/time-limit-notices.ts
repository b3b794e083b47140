import type { TimeLimitNoticesResponse } from "@skyward/contracts/deadline-events";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** `GET /time_limit_notices`: the watchdog's reminders and automatic cancellations the caller may see. */
export const timeLimitNoticesQueryOptions = () =>
  queryOptions({
    queryKey: ["time-limit-notices"],
    queryFn: async () => (await api.get<TimeLimitNoticesResponse>("/time_limit_notices")).data.data,
    // Reminders arrive from a job: the list follows them without a reload.
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
