import type { BookingChangeResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { onBooking } from "../execute.ts";

export async function commentBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  comment: string,
): Promise<BookingChangeResponse> {
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "CommentBooking",
    comment,
    now: deps.now(),
    by: principal.userId,
  }));
  return { locator, position };
}
