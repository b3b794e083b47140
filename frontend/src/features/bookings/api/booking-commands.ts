import type {
  BookingListPage,
  IssueResponse,
  RepriceResponse,
  VoidOrCancelResponse,
} from "@skyward/contracts/bookings";
import type { BookingContacts } from "@skyward/contracts/supplier";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export type { IssueResponse, RepriceResponse, VoidOrCancelResponse };

/** `POST /bookings/issue`; `reshop: true` accepts the new price the airline quoted at the last attempt (409). */
export async function issueBooking(locator: string, reshop: boolean): Promise<IssueResponse> {
  const { data } = await api.post<IssueResponse>("/bookings/issue", {
    locator,
    ...(reshop ? { reshop: true } : {}),
  });
  return data;
}

/** `DELETE /bookings/{locator}`: voids an issued booking inside its void window, cancels a held one. */
export async function voidOrCancel(locator: string): Promise<VoidOrCancelResponse> {
  const { data } = await api.delete<VoidOrCancelResponse>(`/bookings/${encodeURIComponent(locator)}`);
  return data;
}

export async function repriceBooking(locator: string): Promise<RepriceResponse> {
  const { data } = await api.post<RepriceResponse>("/bookings/reprice", { locator });
  return data;
}

export async function commentBooking(locator: string, comment: string): Promise<void> {
  await api.post("/bookings/comment", { locator, comment });
}

export async function modifyContacts(locator: string, contacts: Partial<BookingContacts>): Promise<void> {
  await api.post("/bookings/modify", { locator, contacts });
}

/** After a command: the booking, the lists and (for money moves) the balance are read again. */
export function refreshBooking(
  queryClient: QueryClient,
  locator: string,
  options: { balance?: boolean } = {},
) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.booking(locator) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.bookingLists }),
    options.balance ? queryClient.invalidateQueries({ queryKey: queryKeys.balances }) : null,
  ]);
}

/** Takes a booking out of every list on screen at once (spec: void, cancel and 416 remove it). */
export function dropFromLists(queryClient: QueryClient, locator: string): void {
  queryClient.setQueriesData<BookingListPage>({ queryKey: queryKeys.bookingLists }, (page) =>
    page
      ? {
          ...page,
          data: page.data.filter((row) => row.locator !== locator),
          meta: {
            ...page.meta,
            total: Math.max(0, page.meta.total - (page.data.some((r) => r.locator === locator) ? 1 : 0)),
          },
        }
      : page,
  );
}

export function useVoidOrCancel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voidOrCancel,
    onSuccess: (response) => {
      dropFromLists(queryClient, response.locator);
      queryClient.removeQueries({ queryKey: queryKeys.booking(response.locator) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.bookingLists });
      void queryClient.invalidateQueries({ queryKey: queryKeys.balances });
    },
  });
}

export function useRepriceBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: repriceBooking,
    onSuccess: (response) => refreshBooking(queryClient, response.locator),
  });
}

export function useCommentBooking(locator: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: string) => commentBooking(locator, comment),
    onSuccess: () => refreshBooking(queryClient, locator),
  });
}

export function useModifyContacts(locator: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contacts: Partial<BookingContacts>) => modifyContacts(locator, contacts),
    onSuccess: () => refreshBooking(queryClient, locator),
  });
}
