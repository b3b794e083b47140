import type { RefundQuoted } from "@skyward/contracts/booking-events";
import type { RefundConfirmResponse, RefundQuoteResponse } from "@skyward/contracts/bookings";
import { api } from "../../../lib/api-client.ts";

const orders = (locator: string) => `/orders/${encodeURIComponent(locator)}`;

export type { RefundConfirmResponse, RefundQuoteResponse };

/** `POST /orders/{locator}/refund_requests/create`: the airline's quote for these passengers (all open ones if none). */
export async function createRefundQuote(locator: string, passengers?: number[]): Promise<RefundQuoted> {
  const { data } = await api.post<RefundQuoteResponse>(
    `${orders(locator)}/refund_requests/create`,
    passengers ? { passengers } : {},
  );
  return data.quote;
}

/** `POST /orders/{locator}/refund_requests/confirm`: refunds at the airline and credits the balance, once. */
export async function confirmRefund(locator: string, quoteId: string): Promise<RefundConfirmResponse> {
  const { data } = await api.post<RefundConfirmResponse>(`${orders(locator)}/refund_requests/confirm`, {
    quote_id: quoteId,
  });
  return data;
}
