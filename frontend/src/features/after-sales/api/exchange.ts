import type { ReshopPricedOffer } from "@skyward/contracts/booking-events";
import type {
  FlightsChangeConfirmResponse,
  FlightsChangeCreateResponse,
  ReshopOffersResponse,
} from "@skyward/contracts/bookings";
import { api } from "../../../lib/api-client.ts";

const orders = (locator: string) => `/orders/${encodeURIComponent(locator)}`;

export interface ChangeDates {
  departure_date: string;
  return_date?: string;
  /** The one slice changed (0 the first) to departure_date; absent: the whole journey. */
  slice?: number;
}

/** `POST /orders/{locator}/flights_change_requests/create`: the new dates of the same journey. */
export async function createFlightsChange(
  locator: string,
  dates: ChangeDates,
): Promise<FlightsChangeCreateResponse> {
  const { data } = await api.post<FlightsChangeCreateResponse>(
    `${orders(locator)}/flights_change_requests/create`,
    dates,
  );
  return data;
}

export interface PricedOffers {
  request_id: string;
  expires_at: string;
  offers: ReshopPricedOffer[];
  /** A one-slice exchange of a multi-city fare: the changed slice's booked rule, whose change fee is charged. */
  slice_rule: ReshopOffersResponse["slice_rule"];
}

/** `POST /orders/{locator}/reshop_offers/price`: the airline's offers for the request, priced with our markups. */
export async function priceReshopOffers(locator: string): Promise<PricedOffers> {
  const { data } = await api.post<ReshopOffersResponse>(`${orders(locator)}/reshop_offers/price`, {});
  return {
    request_id: data.request_id,
    expires_at: data.expires_at,
    offers: data.offers,
    slice_rule: data.slice_rule,
  };
}

/** `POST /orders/{locator}/flights_change_requests/confirm`: charges the balance and reissues the tickets. */
export async function confirmFlightsChange(
  locator: string,
  reshopOfferId: string,
): Promise<FlightsChangeConfirmResponse> {
  const { data } = await api.post<FlightsChangeConfirmResponse>(
    `${orders(locator)}/flights_change_requests/confirm`,
    {
      reshop_offer_id: reshopOfferId,
    },
  );
  return data;
}
