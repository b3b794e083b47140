import type {
  AddAncillariesResponse,
  AncillaryCatalogueResponse,
  AncillaryKind,
  EmdRefundResponse,
  SeatMapResponse,
} from "@skyward/contracts/ancillaries";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

const booking = (locator: string) => `/bookings/${encodeURIComponent(locator)}`;
const keys = {
  catalogue: (locator: string) => ["ancillaries", locator, "catalogue"] as const,
  seatMap: (locator: string, segment: string) => ["ancillaries", locator, "seat_map", segment] as const,
  all: (locator: string) => ["ancillaries", locator] as const,
};

/** `GET /bookings/{locator}/ancillaries`: bags, cabin bags and seats of the booking's flights, at the agent's price. */
export const catalogueQueryOptions = (locator: string, type?: AncillaryKind) =>
  queryOptions({
    queryKey: [...keys.catalogue(locator), type ?? "all"],
    queryFn: async () =>
      (
        await api.get<AncillaryCatalogueResponse>(`${booking(locator)}/ancillaries`, {
          query: type ? { type } : {},
        })
      ).data.data,
    staleTime: 60_000,
  });

/** `GET /bookings/{locator}/seat_map?segment=`: one segment's cabin with free, paid and occupied seats. */
export const seatMapQueryOptions = (locator: string, segment: string) =>
  queryOptions({
    queryKey: keys.seatMap(locator, segment),
    queryFn: async () =>
      (await api.get<SeatMapResponse>(`${booking(locator)}/seat_map`, { query: { segment } })).data.data,
    staleTime: 10_000,
  });

export type { AddAncillariesResponse, EmdRefundResponse };

export interface AncillaryChoice {
  ancillary_id: string;
  passenger_index: number;
  seat?: string;
}

/** A changed booking, its seat maps and the balance it charged or credited are read again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return (locator: string) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.booking(locator) });
    void queryClient.invalidateQueries({ queryKey: keys.all(locator) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.balances });
  };
}

/** `POST /bookings/{locator}/ancillaries`: added to a held booking, or bought after issue as EMDs. */
export function useAddAncillaries(locator: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (items: AncillaryChoice[]) =>
      (await api.post<AddAncillariesResponse>(`${booking(locator)}/ancillaries`, { items })).data,
    onSuccess: () => refresh(locator),
  });
}

/** `POST /bookings/{locator}/emds/{emd_number}/refund`: an unused EMD, credited back once. */
export function useRefundEmd(locator: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (emdNumber: string) =>
      (
        await api.post<EmdRefundResponse>(
          `${booking(locator)}/emds/${encodeURIComponent(emdNumber)}/refund`,
          {},
        )
      ).data,
    onSuccess: () => refresh(locator),
  });
}
