import type { BookingChangeResponse, ModifyRequest } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { onBooking } from "../execute.ts";

/**
 * Contacts, and travel documents, loyalty numbers and SSRs of passengers; contacts alone may change while an
 * operation is in flight.
 */
export async function modifyBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: ModifyRequest,
): Promise<BookingChangeResponse> {
  const { locator, contacts, passengers } = request;
  // Documents go in BookingModified; loyalty numbers and SSRs in their own event (in the request's order).
  const documents = (passengers ?? []).flatMap(({ index, document }) =>
    document ? [{ index, document }] : [],
  );
  const change = {
    ...(contacts ? { contacts } : {}),
    ...(passengers ? { passengers: documents } : {}),
  };
  const services = (passengers ?? []).map(({ index, loyalty, ssrs }) => ({
    index,
    ...(loyalty !== undefined ? { loyalty } : {}),
    ...(ssrs !== undefined ? { ssrs } : {}),
  }));
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "ModifyBooking",
    change,
    services,
  }));
  return { locator, position };
}
