import { z } from "zod";
import {
  BalanceCommandResponse,
  BalanceHistoryQuery,
  BalanceHistoryResponse,
  BalanceMovementResponse,
  BalancesResponse,
  CreditLimitRequest,
  TransactionRequest,
} from "../balances.ts";
import { type DocumentedRoute, idParam, invalid, notFound, roleOrScope, unauthorized } from "./shared.ts";

/** The documented routes tagged "Balances" (the assembled document keeps the order in ../openapi.ts). */
export const balancesRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/balances",
    operationId: "listBalances",
    minPosition: "read_models",
    summary: "The balances of the companies the caller may see",
    tag: "Balances",
    secured: true,
    responses: {
      // Loose: the balances read answers more than BalanceRow names (the contract test found it).
      200: { description: "Balances", schema: BalancesResponse },
      401: unauthorized,
    },
  },
  {
    method: "get",
    path: "/balance_history",
    operationId: "balanceHistory",
    summary: "Every charge and credit of the caller's companies' balances with its booking and operation",
    tag: "Balances",
    secured: true,
    minPosition: "read_models",
    query: BalanceHistoryQuery,
    responses: {
      200: { description: "A page of movements", schema: BalanceHistoryResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/balance_history/{event_id}",
    operationId: "balanceMovement",
    summary: "One movement of a balance",
    tag: "Balances",
    secured: true,
    minPosition: "read_models",
    params: { event_id: z.string().min(1).max(100) },
    responses: {
      200: {
        description: "The movement",
        schema: BalanceMovementResponse,
      },
      401: unauthorized,
      404: notFound,
    },
  },
  {
    method: "post",
    path: "/transactions",
    operationId: "balanceTransaction",
    summary: "Top up a company balance, or correct it (administrators), with its reason",
    tag: "Balances",
    secured: true,
    body: TransactionRequest,
    responses: {
      201: { description: "The balance after it", schema: BalanceCommandResponse },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "put",
    path: "/companies/{id}/credit_limit",
    operationId: "setCreditLimit",
    summary: "Set a company's credit limit (administrators)",
    tag: "Balances",
    secured: true,
    params: idParam,
    body: CreditLimitRequest,
    responses: {
      200: { description: "The balance after it", schema: BalanceCommandResponse },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
];
