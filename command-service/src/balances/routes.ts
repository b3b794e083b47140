import { unwrapBody } from "@skyward/contracts/administration";
import {
  type BalanceCommandResponse,
  CreditLimitRequest,
  TransactionRequest,
} from "@skyward/contracts/balances";
import type { BalanceCommand } from "@skyward/contracts/booking-commands";
import type { BalanceAdminCommand } from "@skyward/contracts/directory-commands";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import { requireUserType } from "@skyward/infra/http/auth";
import { InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import { positionOf } from "../command-answer.ts";
import type { CommandDeps } from "../deps.ts";
import { appendTo, loadBalance } from "../directory/administration.ts";
import { activeCompany, companyStream, evolveCompany, noCompany } from "../directory/company.ts";
import { balanceStream, decide, evolve } from "./balance.ts";

/** An amount sent as minor units alone is in the company's currency; one in another currency is refused by the decider. */
const moneyIn = (amount: number | { amount: number; currency: string }, currency: string) =>
  typeof amount === "number" ? { amount, currency } : amount;

/**
 * Administrators' balance commands: top-ups and corrections (POST /transactions, Admin only: support users do not
 * move money) and the company's credit limit. Each decides on the balance stream as it is and appends at its
 * version, so a top-up racing issues never lets a charge take the balance below its limit.
 */
export function balanceRoutes(deps: CommandDeps): Router {
  const router = Router();

  const onBalance = async (
    req: Parameters<Parameters<Router["post"]>[1]>[0],
    companyId: string,
    build: (currency: string) => BalanceCommand | BalanceAdminCommand,
  ) => {
    const { result, append } = await runCommand(deps.store, async (ctx) => {
      const company = activeCompany(
        (await ctx.load(companyStream(companyId), evolveCompany, noCompany)).state,
      );
      const balance = await loadBalance(ctx, companyId);
      const events = decide(build(company.currency), balance.state);
      const metadata = metadataFor(req.context, { agency_id: company.agency_id, company_id: companyId });
      return {
        appends: [appendTo(balanceStream(companyId), balance.version, events, metadata)],
        result: events.reduce(evolve, balance.state),
      };
    });
    return { balance: result, position: positionOf(append) };
  };

  router.post("/transactions", async (req, res) => {
    requireUserType(req, "Admin");
    const body = parseInput(TransactionRequest, unwrapBody(req.body, "transaction"));
    const { balance, position } = await onBalance(req, body.company_id, (currency) => {
      const amount = moneyIn(body.amount, currency);
      if (body.kind === "correction")
        return { type: "CorrectBalance", company_id: body.company_id, amount, reason: body.reason };
      if (amount.amount <= 0)
        throw new InvalidInput([
          {
            pointer: "/amount",
            detail: "must be positive for a top-up; send a correction to take money off",
          },
        ]);
      return { type: "TopUpBalance", company_id: body.company_id, amount, comment: body.reason };
    });
    res.status(201).json({
      balance_amount: balance.amount,
      credit_limit: balance.amount
        ? { amount: balance.credit_limit, currency: balance.amount.currency }
        : null,
      position,
    } satisfies BalanceCommandResponse);
  });

  router.put("/companies/:id/credit_limit", async (req, res) => {
    requireUserType(req, "Admin");
    const companyId = req.params.id;
    if (typeof companyId !== "string" || companyId.length > 100)
      throw new NotFound("No such company", "company_not_found");
    const body = parseInput(CreditLimitRequest, unwrapBody(req.body, "company"));
    const { balance, position } = await onBalance(req, companyId, (currency) => ({
      type: "SetCreditLimit",
      company_id: companyId,
      credit_limit: moneyIn(body.credit_limit, currency),
    }));
    res.json({
      balance_amount: balance.amount,
      credit_limit: { amount: balance.credit_limit, currency: balance.amount?.currency },
      position,
    } satisfies BalanceCommandResponse);
  });

  return router;
}
