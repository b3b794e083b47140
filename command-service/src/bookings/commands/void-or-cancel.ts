import type { VoidOrCancelResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { assertSucceeded, runSupplierOperation } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/** DELETE /bookings/{locator}: void when issued (inside the void window), cancel when held. */
export async function voidOrCancel(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
): Promise<VoidOrCancelResponse> {
  const actor = { principal, context };
  const current = await readBooking(deps, principal, locator);
  const kind = current.status === "issued" ? "void" : "cancel";
  const { recorded, outcome } = await runSupplierOperation(deps, actor, locator, {
    start: (_booking, operationId) =>
      kind === "void"
        ? { type: "StartVoid", operation_id: operationId, now: deps.now() }
        : { type: "StartCancel", operation_id: operationId, now: deps.now() },
  });
  assertSucceeded({ recorded, outcome });
  return {
    locator,
    status: kind === "void" ? ("voided" as const) : ("cancelled" as const),
    position: recorded.position,
  };
}
