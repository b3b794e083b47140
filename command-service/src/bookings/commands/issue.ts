import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { DomainError, IllegalState } from "@skyward/infra/http/errors";
import { balanceStream } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import { sellingContext } from "../../offers/selling-context.ts";
import { assertCanIssue } from "../../ticketing/channel.ts";
import { runSupplierOperation } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/** IssueTicket: claims the booking and charges the balance in one append, tickets at the supplier, records it. */
export async function issueBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: { locator: string; reshop?: boolean | undefined },
) {
  // Issues of one company take turns at its balance. An agent of one company can only issue that company's
  // bookings (any other answers 404 inside the run), so its turn needs no read; others read the booking first.
  const [only] = principal.companyIds;
  const companyId =
    principal.companyIds.length === 1 && only
      ? only
      : (await readBooking(deps, principal, request.locator)).company_id;
  const { recorded, outcome } = await runSupplierOperation(deps, { principal, context }, request.locator, {
    turnAt: balanceStream(companyId),
    start: async (booking, operationId) => {
      const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
      assertCanIssue(ctx.gates, ctx.channel, context.source);
      return {
        type: "StartIssue",
        operation_id: operationId,
        now: deps.now(),
        pays_by_card: ctx.channel.status !== "none" && ctx.channel.form_of_payment === "card",
        accept_pending_price: request.reshop === true,
      };
    },
  });
  if (!outcome.ok) throw outcome.error ?? new IllegalState(outcome.reason, outcome.code);
  const booking = recorded.booking;
  if (booking.status !== "issued")
    throw new DomainError(409, "not_issued", "Not issued", "The booking was not issued");
  return {
    locator: request.locator,
    status: "issued" as const,
    tickets: booking.tickets,
    void_until: booking.void_until,
    position: recorded.position,
  };
}
