import { issueCharge } from "@skyward/contracts/booking-actions";
import type { IssueResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { DomainError } from "@skyward/infra/http/errors";
import { balanceStream } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import { assertSucceeded, issuingClaim, runSupplierOperation } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/** IssueTicket: claims the booking and charges the balance in one append, tickets at the supplier, records it. */
export async function issueBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: { locator: string; accept_pending_price: boolean },
): Promise<IssueResponse> {
  // Issues of one company take turns at its balance: the booking's, which never changes (so a fold this process
  // keeps answers without a read).
  const { company_id: companyId } = await readBooking(deps, principal, request.locator, { trusted: true });
  const { claimed, recorded, outcome } = await runSupplierOperation(
    deps,
    { principal, context },
    request.locator,
    {
      turnAt: balanceStream(companyId),
      start: issuingClaim(deps, principal, context.source, ({ operationId, payment }) => ({
        type: "StartIssue",
        operation_id: operationId,
        now: deps.now(),
        payment,
        accept_pending_price: request.accept_pending_price,
      })),
    },
  );
  assertSucceeded({ recorded, outcome });
  const booking = recorded.booking;
  if (booking.status !== "issued")
    throw new DomainError(409, "not_issued", "Not issued", "The booking was not issued");
  return {
    locator: request.locator,
    status: "issued" as const,
    tickets: booking.tickets,
    void_until: booking.void_until,
    // As the claim charged it: the fare it took (a pending price accepted) and the extras held until then.
    charge: issueCharge(claimed.booking.price, claimed.booking.ancillaries),
    charged: claimed.booking.charged,
    position: recorded.position,
  } satisfies IssueResponse;
}
