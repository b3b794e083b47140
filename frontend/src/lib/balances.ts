import type { BalanceRow, BalancesResponse } from "@skyward/contracts/balances";
import { queryOptions } from "@tanstack/react-query";
import { api } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";

/** `GET /balances`: the prepaid balances of the companies the caller may see. */
export async function fetchBalances(): Promise<BalanceRow[]> {
  const { data } = await api.get<BalancesResponse>("/balances");
  return data.data;
}

export const balancesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.balances,
    queryFn: fetchBalances,
    staleTime: 15_000,
  });
