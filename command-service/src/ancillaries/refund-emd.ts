import type { EmdRefundResponse } from "@skyward/contracts/ancillaries";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { assertSucceeded, runSupplierOperation } from "../bookings/supplier-operation.ts";
import type { CommandDeps } from "../deps.ts";

/**
 * POST /bookings/{locator}/emds/{emd_number}/refund: an unused EMD refunded at the airline, idempotently on the
 * operation id, and its price credited back once in the append that records it.
 */
export async function refundEmd(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  emdNumber: string,
): Promise<EmdRefundResponse> {
  const { recorded, outcome } = await runSupplierOperation(deps, { principal, context }, locator, {
    start: (_booking, operationId) => ({
      type: "StartEmdRefund",
      operation_id: operationId,
      emd_number: emdNumber,
      now: deps.now(),
    }),
  });
  assertSucceeded({ recorded, outcome });
  const refunded = recorded.events.find((e) => e.type === "EmdRefunded");
  return {
    locator,
    emd_number: emdNumber,
    refunded: refunded?.type === "EmdRefunded" ? refunded.data.refunded : null,
    credited: refunded?.type === "EmdRefunded" ? refunded.data.credited : null,
    position: recorded.position,
  };
}
