import type {
  CardCreatedResponse,
  CardsResponse,
  ChannelCreatedResponse,
  ChannelHistoryResponse,
  ChannelListResponse,
  ChannelRow,
  CredentialResponse,
  GatesResponse,
} from "@skyward/contracts/ticketing-commands";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { optimisticUpdate } from "../../../lib/optimistic.ts";

export type Channel = ChannelRow;

const CHANNELS_KEY = ["ticketing", "channels"] as const;
const GATES_KEY = ["ticketing", "gates"] as const;
const HISTORY_KEY = ["ticketing", "history"] as const;

/** `GET /ticketing/agency_channels`: the channels the caller manages (an agency's for its supervisor). */
export const channelsQueryOptions = () =>
  queryOptions({
    queryKey: CHANNELS_KEY,
    queryFn: async () => (await api.get<ChannelListResponse>("/ticketing/agency_channels")).data.data,
    staleTime: 10_000,
  });

export type GatesView = GatesResponse["data"];

/** `GET /ticketing/gates`: administrators only. */
export const gatesQueryOptions = () =>
  queryOptions({
    queryKey: GATES_KEY,
    queryFn: async () => (await api.get<GatesResponse>("/ticketing/gates")).data.data,
    staleTime: 10_000,
  });

export interface HistoryFilters {
  page: number;
  channel_id?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
}
export const HISTORY_PAGE_SIZE = 25;

/** `GET /ticketing/channel_history`: who changed which channel or gate, newest first. */
export const historyQueryOptions = (filters: HistoryFilters) =>
  queryOptions({
    queryKey: [...HISTORY_KEY, filters],
    queryFn: async () =>
      (
        await api.get<ChannelHistoryResponse>("/ticketing/channel_history", {
          query: { ...filters, per_page: HISTORY_PAGE_SIZE },
        })
      ).data,
    placeholderData: keepPreviousData,
  });

export type ChannelSwitch = "on_by_admin" | "on_by_supervisor";

/**
 * A channel switched on or off: the table shows it at once and puts it back if the server refuses (the error
 * itself is shown by the API client's notification).
 */
export function useToggleChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; field: ChannelSwitch; active: boolean }) =>
      api.patch(`/ticketing/agency_channels/${encodeURIComponent(input.id)}`, {
        [input.field]: input.active,
      }),
    ...optimisticUpdate<Channel[], { id: string; field: ChannelSwitch; active: boolean }>(
      queryClient,
      CHANNELS_KEY,
      (rows, input) => {
        const key = input.field === "on_by_admin" ? "active_by_admin" : "active_by_supervisor";
        return rows.map((row) => (row.id === input.id ? { ...row, [key]: input.active } : row));
      },
      [HISTORY_KEY],
    ),
  });
}

export type GlobalGate = "main_gate" | "agency_gate" | "channel_gate";

/** A global gate switched: shown at once, put back on refusal. */
export function useToggleGate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { gate: GlobalGate; active: boolean }) =>
      api.patch(`/ticketing/${input.gate}`, { active: input.active }),
    ...optimisticUpdate<GatesView, { gate: GlobalGate; active: boolean }>(
      queryClient,
      GATES_KEY,
      (gates, input) => ({ ...gates, [input.gate]: input.active }),
      [CHANNELS_KEY, HISTORY_KEY],
    ),
  });
}

export type PartnerGateKind = "agency" | "company";

/**
 * A partner's (agency's) or a company's gate switched: it leaves the list it was shown in at once (seed spec,
 * section 4) and comes back if the server refuses.
 */
export function useTogglePartnerGate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { kind: PartnerGateKind; id: string; active: boolean }) =>
      api.patch(`/ticketing/${input.kind}_gates/${encodeURIComponent(input.id)}`, { active: input.active }),
    ...optimisticUpdate<GatesView, { kind: PartnerGateKind; id: string; active: boolean }>(
      queryClient,
      GATES_KEY,
      (gates, input) => {
        const list = input.kind === "agency" ? "agencies" : "companies";
        return {
          ...gates,
          [list]: gates[list].map((row) => (row.id === input.id ? { ...row, active: input.active } : row)),
        };
      },
      [HISTORY_KEY],
    ),
  });
}

export type CardView = CardsResponse["data"][number];

const CARDS_KEY = ["ticketing", "cards"] as const;

/** `GET /credit_cards`: an agency's cards for its supervisor, every card for administrators. */
export const cardsQueryOptions = () =>
  queryOptions({
    queryKey: CARDS_KEY,
    queryFn: async () => (await api.get<CardsResponse>("/credit_cards")).data.data,
    staleTime: 10_000,
  });

/** Settings of a channel (form of payment, the card that pays, codes); the list refreshes after. */
export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; settings: Record<string, unknown> }) =>
      api.patch(`/ticketing/agency_channels/${encodeURIComponent(input.id)}`, input.settings),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      void queryClient.invalidateQueries({ queryKey: CARDS_KEY });
      void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
    },
  });
}

/** `POST /credit_cards/`: the number goes to the card vault; only brand, last four, expiry and holder come back. */
export function useAddCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (card: {
      number: string;
      exp_month: number;
      exp_year: number;
      holder: string;
      agency_id?: string;
    }) => (await api.post<CardCreatedResponse>("/credit_cards/", { credit_card: card })).data.data,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: CARDS_KEY }),
  });
}

/** Create or edit a channel's supplier credentials: checked at once, answered with the spec's messages. */
export function useSaveCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; create: boolean; login: string; password: string }) => {
      const path = `/ticketing/agency_channels/${encodeURIComponent(input.id)}/credential`;
      const body = { credential: { login: input.login, password: input.password } };
      const { data } = input.create
        ? await api.post<CredentialResponse>(path, body)
        : await api.patch<CredentialResponse>(path, body);
      return data;
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
    },
  });
}

/** The partners a new channel can be opened for (administrators choose one). */
export const channelPartnersQueryOptions = () =>
  queryOptions({
    queryKey: ["ticketing", "partners"] as const,
    queryFn: async () =>
      (await api.get<{ data: { id: string; name: string }[] }>("/agencies")).data.data.map(
        ({ id, name }) => ({
          id,
          name,
        }),
      ),
    staleTime: 30_000,
  });

/** `POST /ticketing/agency_channels`: a new channel, switched off until its credentials check and it is enabled. */
export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { agency_id: string; name: string }) =>
      (await api.post<ChannelCreatedResponse>("/ticketing/agency_channels", { channel: input })).data.data,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
    },
  });
}

/** `DELETE /ticketing/agency_channels/{id}`. */
export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => api.delete(`/ticketing/agency_channels/${encodeURIComponent(id)}`),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      void queryClient.invalidateQueries({ queryKey: HISTORY_KEY });
    },
  });
}
