import { randomInt } from "node:crypto";
import type { AncillaryTaken } from "@skyward/contracts/ancillaries";
import type { AncillariesOutcome } from "@skyward/contracts/booking-commands";
import type { AncillaryOrderResult } from "@skyward/contracts/supplier";
import type { ActiveBooking, OpenOperation } from "../bookings/booking.ts";
import { randomSerial, ticketNumber } from "../pricing/ticket-number.ts";
import { findAirline } from "../suppliers/sandbox/airlines.ts";

/** The airline's answer to an ancillaries order as our booking records it: each line taken, with its EMD or why none. */
export function ancillariesOutcome(result: AncillaryOrderResult): AncillariesOutcome {
  const taken = result.added.map(
    (a): AncillaryTaken => ({
      ancillary_id: a.ancillary_id,
      passenger_index: a.passenger_index,
      seat: a.seat ?? null,
      emd_number: a.emd_number,
      status: a.emd_number
        ? "issued"
        : a.emd_pending
          ? "pending"
          : result.booking.status === "held"
            ? "held"
            : "assigned",
    }),
  );
  return { taken, supplier_booking: result.booking };
}

/** A demo booking's ancillaries never reach an airline: held ones wait for the issue, others get demo EMD numbers. */
export function fakeAncillariesOutcome(booking: ActiveBooking, open: OpenOperation): AncillariesOutcome {
  const accounting = findAirline(booking.fare.carrier)?.accountingCode ?? "999";
  const held = booking.status === "held";
  const taken = (open.lines ?? []).map(
    (l): AncillaryTaken => ({
      ancillary_id: l.ancillary_id,
      passenger_index: l.passenger_index,
      seat: l.seat,
      emd_number: held || l.price.amount === 0 ? null : ticketNumber(accounting, randomSerial(randomInt)),
      status: held ? "held" : l.price.amount === 0 ? "assigned" : "issued",
    }),
  );
  return { taken, supplier_booking: null };
}
