import type { Principal } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { assertMayActOn } from "../access.ts";
import { bookingStream, evolveBooking, initialBooking } from "../booking.ts";

/**
 * The booking as it is now, if the caller may act on it (404 otherwise): for what a command needs before its run.
 * `trusted`: this process's fold of it may answer without a read, for a caller that needs only what never changes
 * after booking (its company, agency and agent).
 */
export async function readBooking(
  deps: CommandDeps,
  principal: Principal,
  locator: string,
  options: { trusted?: boolean } = {},
) {
  const loaded = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking, options);
  return assertMayActOn(deps.store, principal, loaded.state);
}
