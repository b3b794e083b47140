import {
  CreateTravellerRequest,
  TravellerAnswer,
  TravellerDetails,
  TravellerList,
  TravellersQuery,
  UpdateTravellerRequest,
} from "../travellers.ts";
import { type DocumentedRoute, errors, idParam, invalid, roleOrScope, unauthorized } from "./shared.ts";

/** The documented routes tagged "Travellers" (issue 23, items 4 and 6). */
export const travellersRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/travellers",
    operationId: "listTravellers",
    summary: "Find kept travellers by name or document number, as typed (the caller's companies or agency)",
    tag: "Travellers",
    secured: true,
    query: TravellersQuery,
    minPosition: "read_models",
    responses: { 200: { description: "Travellers", schema: TravellerList }, 401: unauthorized, 422: invalid },
  },
  {
    method: "get",
    path: "/travellers/{id}",
    operationId: "getTraveller",
    summary: "One kept traveller; an erased one is a placeholder with no personal field",
    tag: "Travellers",
    secured: true,
    params: idParam,
    minPosition: "read_models",
    responses: {
      200: { description: "The traveller", schema: TravellerDetails },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/travellers",
    operationId: "createTraveller",
    summary: "Keep a traveller in a company (a likely duplicate answers 409 naming the one kept)",
    tag: "Travellers",
    secured: true,
    body: CreateTravellerRequest,
    responses: {
      201: { description: "Kept", schema: TravellerAnswer },
      401: unauthorized,
      404: roleOrScope,
      409: errors("A traveller of the same name and date of birth is kept: errors[0].meta.traveller_id"),
      422: invalid,
    },
  },
  {
    method: "put",
    path: "/travellers/{id}",
    operationId: "updateTraveller",
    summary: "Replace a kept traveller's profile",
    tag: "Travellers",
    secured: true,
    params: idParam,
    body: UpdateTravellerRequest,
    responses: {
      200: { description: "Changed", schema: TravellerAnswer },
      401: unauthorized,
      404: roleOrScope,
      409: errors("The change makes it a likely duplicate of another kept traveller"),
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/travellers/{id}",
    operationId: "eraseTraveller",
    summary:
      "Erase a traveller (right to erasure): their key is destroyed, nothing personal can be read again",
    tag: "Travellers",
    secured: true,
    params: idParam,
    responses: {
      200: { description: "Erased: the placeholder", schema: TravellerAnswer },
      401: unauthorized,
      404: roleOrScope,
    },
  },
];
