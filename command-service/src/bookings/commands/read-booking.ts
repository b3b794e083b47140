import type { Principal } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { assertMayActOn } from "../access.ts";
import { bookingStream, evolveBooking, initialBooking } from "../booking.ts";

/** The booking as it is now, if the caller may act on it (404 otherwise): for what a command needs before its run. */
export async function readBooking(deps: CommandDeps, principal: Principal, locator: string) {
  const loaded = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
  return assertMayActOn(deps.pool, principal, loaded.state);
}
