import { z } from "zod";
import {
  AddAncillariesRequest,
  AddAncillariesResponse,
  AncillaryCatalogueQuery,
  AncillaryCatalogueResponse,
  EmdNumberParam,
  EmdRefundResponse,
  SeatMapQuery,
  SeatMapResponse,
} from "../ancillaries.ts";
import { Locator } from "../bookings.ts";
import { type DocumentedRoute, errors, invalid, notFound, unauthorized } from "./shared.ts";

/** The documented routes tagged "Ancillaries" (the assembled document keeps the order in ../openapi.ts). */
export const ancillariesRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/offers/{fare_id}/ancillaries",
    operationId: "offerAncillaries",
    summary:
      "Bags and seats on sale with a fare of a search result, per passenger type and segment, with markups",
    tag: "Ancillaries",
    secured: true,
    params: { fare_id: z.string().min(1).max(200) },
    query: AncillaryCatalogueQuery,
    responses: {
      200: { description: "The priced catalogue", schema: AncillaryCatalogueResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/bookings/{locator}/ancillaries",
    operationId: "bookingAncillaries",
    summary: "Bags and seats on sale for a booking, per passenger type and segment, with markups",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator },
    query: AncillaryCatalogueQuery.pick({ type: true }),
    responses: {
      200: { description: "The priced catalogue", schema: AncillaryCatalogueResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/bookings/{locator}/seat_map",
    operationId: "seatMap",
    summary: "The seat map of a booking's segment: cabin layout, free, paid and occupied seats",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator },
    query: SeatMapQuery,
    responses: {
      200: { description: "The seat map", schema: SeatMapResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/bookings/{locator}/ancillaries",
    operationId: "addAncillaries",
    summary:
      "Add bags or seats: to a held booking (paid with the tickets), or after issue as EMDs charged to the balance",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator },
    body: AddAncillariesRequest,
    responses: {
      201: { description: "The lines added", schema: AddAncillariesResponse },
      401: unauthorized,
      404: notFound,
      422: errors("Not sold on this booking, a seat taken, or not possible in the booking's state"),
    },
  },
  {
    method: "post",
    path: "/bookings/{locator}/emds/{emd_number}/refund",
    operationId: "refundEmd",
    summary: "Refund an unused EMD: the airline refunds it and the company balance is credited",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator, emd_number: EmdNumberParam },
    responses: {
      200: { description: "Refunded", schema: EmdRefundResponse },
      401: unauthorized,
      404: notFound,
      422: errors("The EMD is used, already refunded, or cannot be refunded"),
    },
  },
];
