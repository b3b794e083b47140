import type { Company, Partner } from "@skyward/contracts/administration";
import type { BalanceHistoryRow, BalanceMovementKind } from "@skyward/contracts/balances";
import type { Money } from "@skyward/contracts/money";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

const PARTNERS_KEY = ["admin", "partners"] as const;
const COMPANIES_KEY = ["admin", "companies"] as const;
const HISTORY_KEY = ["admin", "balance-history"] as const;

/** `GET /agencies`: the partners the caller manages (its own for a supervisor). */
export const partnersQueryOptions = () =>
  queryOptions({
    queryKey: PARTNERS_KEY,
    queryFn: async () => (await api.get<{ data: Partner[] }>("/agencies")).data.data,
    staleTime: 10_000,
  });

/** `GET /companies`: the companies the caller manages, with balances and credit limits. */
export const companiesQueryOptions = () =>
  queryOptions({
    queryKey: COMPANIES_KEY,
    queryFn: async () => (await api.get<{ data: Company[] }>("/companies")).data.data,
    staleTime: 10_000,
  });

export interface BalanceFilters {
  page: number;
  company_id?: string | undefined;
  kind?: BalanceMovementKind | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
}
export const BALANCE_PAGE_SIZE = 25;

/** `GET /balance_history`: every movement with its booking, operation, author, reason and running balance. */
export const balanceHistoryQueryOptions = (filters: BalanceFilters) =>
  queryOptions({
    queryKey: [...HISTORY_KEY, filters],
    queryFn: async () =>
      (
        await api.get<{ data: BalanceHistoryRow[]; meta: { total: number } }>("/balance_history", {
          query: { ...filters, per_page: BALANCE_PAGE_SIZE },
        })
      ).data,
    placeholderData: keepPreviousData,
  });

/** Every administration command refreshes the lists it may have changed once it is done. */
function useAdminMutation<Input>(call: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: PARTNERS_KEY });
      void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY });
      void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
    },
  });
}

const path = (id: string) => encodeURIComponent(id);

export const useCreatePartner = () =>
  useAdminMutation((input: { name: string }) => api.post("/agencies", { agency: input }));
export const useDeletePartner = () => useAdminMutation((id: string) => api.delete(`/agencies/${path(id)}`));
export const useDuplicatePartner = () =>
  useAdminMutation((id: string) => api.post(`/agencies/${path(id)}/duplicate`));

export type PartnerFlag = "production_api_on" | "corporate_number_on" | "ghost_segments_remarks_on";

/** A partner switch: shown at once, put back if the server refuses. */
export function useTogglePartnerFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; flag: PartnerFlag; active: boolean }) =>
      api.patch(`/agencies/${path(input.id)}/${input.flag}`, { active: input.active }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: PARTNERS_KEY });
      const before = queryClient.getQueryData<Partner[]>(PARTNERS_KEY);
      queryClient.setQueryData<Partner[]>(PARTNERS_KEY, (rows) =>
        rows?.map((row) => (row.id === input.id ? { ...row, [input.flag]: input.active } : row)),
      );
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) queryClient.setQueryData(PARTNERS_KEY, context.before);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: PARTNERS_KEY }),
  });
}

export const useCreateCompany = () =>
  useAdminMutation((input: { agency_id: string; name: string; currency?: string | undefined }) =>
    api.post("/companies", { company: input }),
  );
export const useDeleteCompany = () => useAdminMutation((id: string) => api.delete(`/companies/${path(id)}`));

/** Shared bookings of a company: shown at once, put back if the server refuses. */
export function useToggleSharedBookings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; active: boolean }) =>
      api.patch(`/ticketing/company_shared_bookings/${path(input.id)}`, { active: input.active }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: COMPANIES_KEY });
      const before = queryClient.getQueryData<Company[]>(COMPANIES_KEY);
      queryClient.setQueryData<Company[]>(COMPANIES_KEY, (rows) =>
        rows?.map((row) => (row.id === input.id ? { ...row, shared_bookings: input.active } : row)),
      );
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) queryClient.setQueryData(COMPANIES_KEY, context.before);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY }),
  });
}

export const useTransaction = () =>
  useAdminMutation(
    (input: { company_id: string; kind: "top_up" | "correction"; amount: Money; reason: string }) =>
      api.post("/transactions", { transaction: input }),
  );
