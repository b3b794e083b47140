import type {
  Company,
  CompanyListResponse,
  DirectoryHistoryResponse,
  JoinRequestRow,
  JoinRequestsResponse,
  Partner,
  PartnerListResponse,
  SupervisorsResponse,
} from "@skyward/contracts/administration";
import type { BalanceHistoryResponse, BalanceMovementKind } from "@skyward/contracts/balances";
import type { Money } from "@skyward/contracts/money";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { optimisticUpdate } from "../../../lib/optimistic.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session.ts";

const PARTNERS_KEY = ["admin", "partners"] as const;
const COMPANIES_KEY = ["admin", "companies"] as const;
const HISTORY_KEY = ["admin", "balance-history"] as const;

/** `GET /agencies`: the partners the caller manages (its own for a supervisor). */
export const partnersQueryOptions = () =>
  queryOptions({
    queryKey: PARTNERS_KEY,
    queryFn: async () => (await api.get<PartnerListResponse>("/agencies")).data.data,
    staleTime: 10_000,
  });

/** `GET /companies`: the companies the caller manages, with balances and credit limits. */
export const companiesQueryOptions = () =>
  queryOptions({
    queryKey: COMPANIES_KEY,
    queryFn: async () => (await api.get<CompanyListResponse>("/companies")).data.data,
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
        await api.get<BalanceHistoryResponse>("/balance_history", {
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

/** The zone a partner's receipts, reports and mails write times in: shown at once, put back if refused. */
export function useSetPartnerTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; time_zone: string }) =>
      api.patch(`/agencies/${path(input.id)}`, { agency: { time_zone: input.time_zone } }),
    ...optimisticUpdate<Partner[], { id: string; time_zone: string }>(
      queryClient,
      PARTNERS_KEY,
      (rows, input) =>
        rows.map((row) => (row.id === input.id ? { ...row, time_zone: input.time_zone } : row)),
    ),
  });
}

export type PartnerFlag = "production_api_on" | "corporate_number_on" | "ghost_segments_remarks_on";

/** A partner switch: shown at once, put back if the server refuses. */
export function useTogglePartnerFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; flag: PartnerFlag; active: boolean }) =>
      api.patch(`/agencies/${path(input.id)}/${input.flag}`, { active: input.active }),
    ...optimisticUpdate<Partner[], { id: string; flag: PartnerFlag; active: boolean }>(
      queryClient,
      PARTNERS_KEY,
      (rows, input) =>
        rows.map((row) => (row.id === input.id ? { ...row, [input.flag]: input.active } : row)),
    ),
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
    ...optimisticUpdate<Company[], { id: string; active: boolean }>(
      queryClient,
      COMPANIES_KEY,
      (rows, input) =>
        rows.map((row) => (row.id === input.id ? { ...row, shared_bookings: input.active } : row)),
    ),
  });
}

export const useTransaction = () =>
  useAdminMutation(
    (input: { company_id: string; kind: "top_up" | "correction"; amount: Money; reason: string }) =>
      api.post("/transactions", { transaction: input }),
  );

const PEOPLE_KEY = ["admin", "people"] as const;
const REQUESTS_KEY = ["admin", "join-requests"] as const;
const CHANGES_KEY = ["admin", "changes"] as const;

/** `GET /agencies/{id}/supervisors`. */
export const supervisorsQueryOptions = (agencyId: string) =>
  queryOptions({
    queryKey: [...PEOPLE_KEY, agencyId],
    queryFn: async () =>
      (await api.get<SupervisorsResponse>(`/agencies/${path(agencyId)}/supervisors`)).data.data,
    enabled: agencyId !== "",
  });

export type { JoinRequestRow };

/** `GET /join_agency_requests?status=sent`: connection requests waiting for a decision. */
export const joinRequestsQueryOptions = () =>
  queryOptions({
    queryKey: REQUESTS_KEY,
    queryFn: async () =>
      (await api.get<JoinRequestsResponse>("/join_agency_requests", { query: { status: "sent" } })).data.data,
  });

/** `GET /directory_history`: the latest partner and company changes, newest first. */
export const changesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...CHANGES_KEY, page],
    queryFn: async () =>
      (
        await api.get<DirectoryHistoryResponse>("/directory_history", {
          query: { page, per_page: BALANCE_PAGE_SIZE },
        })
      ).data,
    placeholderData: keepPreviousData,
  });

/** People and request commands refresh the people, requests and change lists too. */
function usePeopleMutation<Input>(call: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      for (const key of [PEOPLE_KEY, REQUESTS_KEY, CHANGES_KEY, PARTNERS_KEY, COMPANIES_KEY])
        void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

export const useInviteSupervisor = () =>
  usePeopleMutation(
    (input: { agencyId: string; email: string; first_name: string; last_name: string; language: string }) => {
      const { agencyId, ...supervisor } = input;
      return api.post(`/agencies/${path(agencyId)}/supervisors`, { supervisor });
    },
  );
export const useSwitchSupervisor = () =>
  usePeopleMutation((input: { agencyId: string; id: string; active: boolean }) =>
    api.patch(`/agencies/${path(input.agencyId)}/supervisors/${path(input.id)}`, {
      supervisor: { active: input.active },
    }),
  );
export const useRemoveSupervisor = () =>
  usePeopleMutation((input: { agencyId: string; id: string }) =>
    api.delete(`/agencies/${path(input.agencyId)}/supervisors/${path(input.id)}`),
  );
export const useDecideJoinRequest = () =>
  usePeopleMutation(
    (input: { id: string; status: "accepted" | "rejected"; company_id?: string | undefined }) =>
      api.patch(`/join_agency_requests/${path(input.id)}`, {
        join_agency: { status: input.status, company_id: input.company_id },
      }),
  );

/** The company searches and bookings are for when they name none; the header's company follows it. */
export function useSellFor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (companyId: string) => api.put("/account/selling_company", { company_id: companyId }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
  });
}
