import type { AnalyticsResponse } from "@skyward/contracts/sales";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** `GET /analytics/?analytics[date_from]=&analytics[date_to]=` */
export const analyticsQueryOptions = (dateFrom: string, dateTo: string) =>
  queryOptions({
    queryKey: ["analytics", dateFrom, dateTo],
    queryFn: async ({ signal }) =>
      (
        await api.get<AnalyticsResponse>("/analytics/", {
          query: { analytics: { date_from: dateFrom, date_to: dateTo } },
          signal,
        })
      ).data.data,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
