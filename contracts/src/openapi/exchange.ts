import {
  FlightsChangeConfirmRequest,
  FlightsChangeConfirmResponse,
  FlightsChangeCreateRequest,
  FlightsChangeCreateResponse,
  Locator,
  ReshopOffersResponse,
} from "../bookings.ts";
import { type DocumentedRoute, errors, notFound, unauthorized } from "./shared.ts";

/** The documented routes tagged "Exchange" (the assembled document keeps the order in ../openapi.ts). */
export const exchangeRoutes: readonly DocumentedRoute[] = [
  {
    method: "post",
    path: "/orders/{locator}/flights_change_requests/create",
    operationId: "createFlightsChange",
    summary: "Ask to exchange an issued booking's flights for other dates of the same journey",
    tag: "Exchange",
    secured: true,
    params: { locator: Locator },
    body: FlightsChangeCreateRequest,
    responses: {
      201: { description: "The change request", schema: FlightsChangeCreateResponse },
      401: unauthorized,
      404: notFound,
      422: errors("Invalid dates, or the booking cannot be exchanged"),
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/reshop_offers/price",
    operationId: "priceReshopOffers",
    summary:
      "The priced offers of a change request: fare difference, change fee, markups, residual value, total to pay",
    tag: "Exchange",
    secured: true,
    params: { locator: Locator },
    responses: {
      200: { description: "The offers (empty after a failure)", schema: ReshopOffersResponse },
      401: unauthorized,
      404: notFound,
      422: errors("No change request, or the booking cannot be exchanged"),
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/flights_change_requests/confirm",
    operationId: "confirmFlightsChange",
    summary:
      "Confirm a priced offer: the balance is charged and new tickets are issued, the old ones exchanged",
    tag: "Exchange",
    secured: true,
    params: { locator: Locator },
    body: FlightsChangeConfirmRequest,
    responses: {
      200: { description: "Exchanged", schema: FlightsChangeConfirmResponse },
      401: unauthorized,
      404: notFound,
      422: errors("The offer is gone or changed, or the booking cannot be exchanged"),
    },
  },
];
