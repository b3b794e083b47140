import type { BookingModified } from "@skyward/contracts/booking-events";
import type { BookingChangeResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { onBooking } from "../execute.ts";

/** Contacts, and travel documents of passengers; contacts alone may change while an operation is in flight. */
export async function modifyBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: BookingModified & { locator: string },
): Promise<BookingChangeResponse> {
  const { locator, ...change } = request;
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "ModifyBooking",
    change,
  }));
  return { locator, position };
}
