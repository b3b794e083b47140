import { z } from "zod";
import {
  AccountCommandResponse,
  AccountDetailsResponse,
  ApiTokenResponse,
  ApiTokenStatusResponse,
  UpdateAccountDetailsRequest,
} from "../account.ts";
import { SellingCompanyRequest, SellingCompanyResponse } from "../administration.ts";
import {
  type DocumentedRoute,
  errors,
  invalid,
  position,
  roleOrScope,
  sessionRequired,
  unauthorized,
} from "./shared.ts";

/** The documented routes tagged "Account" (the assembled document keeps the order in ../openapi.ts). */
export const accountRoutes: readonly DocumentedRoute[] = [
  {
    method: "put",
    path: "/account/api_token",
    operationId: "issueApiToken",
    summary:
      "A new API token for the caller (shown once; replaces the previous one); send it as a bearer. Takes a " +
      "signed-in session: a token cannot replace itself",
    tag: "Account",
    secured: true,
    responses: {
      200: { description: "The token", schema: ApiTokenResponse },
      401: unauthorized,
      403: sessionRequired,
    },
  },
  {
    method: "get",
    path: "/account/api_token",
    operationId: "getApiTokenStatus",
    summary: "Whether the caller has an API token, since when, and when a call last used it (to the minute)",
    tag: "Account",
    secured: true,
    responses: {
      200: { description: "The token's status", schema: ApiTokenStatusResponse },
      401: unauthorized,
    },
  },
  {
    method: "delete",
    path: "/account/api_token",
    operationId: "revokeApiToken",
    summary: "Withdraws the caller's API token; takes a signed-in session, as issuing does",
    tag: "Account",
    secured: true,
    responses: {
      200: { description: "Revoked", schema: z.object({ data: z.null(), position }) },
      401: unauthorized,
      403: sessionRequired,
      404: errors("The caller has no API token"),
    },
  },
  {
    method: "get",
    path: "/account/details",
    operationId: "accountDetails",
    summary: "The caller's account: profile, companies and channels",
    tag: "Account",
    secured: true,
    minPosition: "read_models",
    responses: { 200: { description: "The account", schema: AccountDetailsResponse }, 401: unauthorized },
  },
  {
    method: "put",
    path: "/account/selling_company",
    operationId: "chooseSellingCompany",
    summary: "The company the caller sells for first (one of its own)",
    tag: "Account",
    secured: true,
    body: SellingCompanyRequest,
    responses: {
      200: {
        description: "The caller's companies, chosen first",
        schema: SellingCompanyResponse,
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "put",
    path: "/account/details",
    operationId: "updateAccountDetails",
    summary: "Change the caller's name, phone or language",
    tag: "Account",
    secured: true,
    body: UpdateAccountDetailsRequest,
    responses: {
      200: { description: "The account after it", schema: AccountCommandResponse },
      401: unauthorized,
      422: invalid,
    },
  },
];
