import { randomUUID } from "node:crypto";
import type {
  AddAncillariesRequest,
  AddAncillariesResponse,
  AncillaryLine,
} from "@skyward/contracts/ancillaries";
import { money } from "@skyward/contracts/money";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { InvalidInput } from "@skyward/infra/http/errors";
import type { z } from "zod";
import { balanceStream } from "../balances/balance.ts";
import { assertSucceeded, issuingClaim, runSupplierOperation } from "../bookings/supplier-operation.ts";
import type { CommandDeps } from "../deps.ts";
import { assertDemoSeat, bookingContext, catalogueOf } from "./catalogue.ts";

/**
 * POST /bookings/{locator}/ancillaries: priced from the catalogue as the agent sees it, then one supplier operation.
 * On a held booking the lines are added and paid with the issue; on issued tickets the claim charges their total to
 * the balance in the same append, the airline issues the EMDs idempotently on the operation id, and a failure gives
 * the charge back. Asynchronous EMDs are confirmed later by the `confirm-emds` job.
 */
export async function addAncillaries(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  request: AddAncillariesRequest,
): Promise<z.input<typeof AddAncillariesResponse>> {
  const { booking, ctx } = await bookingContext(deps, principal, locator);
  const catalogue = new Map((await catalogueOf(deps, booking, ctx)).map((item) => [item.ancillary_id, item]));
  const lines = request.items.map((wanted, i): AncillaryLine => {
    const item = catalogue.get(wanted.ancillary_id);
    if (!item)
      throw new InvalidInput([
        { pointer: `/items/${i}/ancillary_id`, detail: "is not sold on this booking" },
      ]);
    if (item.type === "seat" && !wanted.seat)
      throw new InvalidInput([{ pointer: `/items/${i}/seat`, detail: "is required for a seat" }]);
    if (item.type !== "seat" && wanted.seat)
      throw new InvalidInput([{ pointer: `/items/${i}/seat`, detail: "is only for seats" }]);
    return {
      line_id: randomUUID(),
      ancillary_id: item.ancillary_id,
      type: item.type,
      title: item.title,
      segment_id: item.segment_id,
      passenger_index: wanted.passenger_index,
      seat: wanted.seat ?? null,
      weight_kg: item.weight_kg,
      seat_zone: item.seat_zone,
      price: item.price,
      supplier_price: item.supplier_price,
      emd_number: null,
      status: "pending",
    };
  });
  // No airline checks a demo booking's seats: the fare's seat map does.
  if (!booking.supplier_booking)
    for (const [i, line] of lines.entries())
      if (line.type === "seat" && line.seat)
        await assertDemoSeat(deps, booking, ctx, { ...line, seat: line.seat }, `/items/${i}/seat`);
  const { claimed, recorded, outcome } = await runSupplierOperation(deps, { principal, context }, locator, {
    // Companies take turns at their balance: EMDs after issue are charged to it.
    turnAt: balanceStream(booking.company_id),
    start: issuingClaim(deps, principal, context.source, ({ operationId, payment }) => ({
      type: "StartAncillaries",
      operation_id: operationId,
      now: deps.now(),
      lines,
      payment,
    })),
  });
  assertSucceeded({ recorded, outcome });
  const awaiting = recorded.booking.ancillaries.some((l) => l.status === "pending");
  // The airline issues these EMDs a moment later: the job asks for them (the sweep catches one lost with us).
  if (awaiting)
    await deps.jobs.send(
      "confirm-emds",
      { locator },
      { delayMs: 2_000, jobKey: `confirm-emds:${locator}`, jobKeyMode: "preserve_run_at" },
    );
  const started = claimed.events.find((e) => e.type === "AncillariesStarted");
  const added = recorded.events.find((e) => e.type === "AncillariesAdded");
  const addedLines = added?.type === "AncillariesAdded" ? added.data.lines : [];
  return {
    locator,
    status: recorded.booking.status,
    lines: addedLines,
    total: money(
      lines.reduce((sum, l) => sum + l.price.amount, 0),
      booking.price.currency,
    ),
    /** What the company balance was charged now; null before issue (paid with the tickets) or when nothing moves. */
    charged: started?.type === "AncillariesStarted" ? started.data.charged : null,
    async_emd_issue: awaiting,
    position: recorded.position,
  };
}
