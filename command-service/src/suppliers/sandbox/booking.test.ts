import { randomUUID } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { SearchRequest, type SupplierFare, type SupplierOriginDestination } from "@skyward/contracts/offers";
import type { BookingPassenger, SupplierBooking } from "@skyward/contracts/supplier";
import { InvalidInput } from "@skyward/infra/http/errors";
import { isLocator } from "../../pricing/locator.ts";
import { NoAvailability, SupplierRejected, SupplierUnavailable } from "../errors.ts";
import type { SupplierCall } from "../supplier.ts";
import { findAirline } from "./airlines.ts";
import { SandboxSupplier } from "./sandbox-supplier.ts";
import { SANDBOX_SCENARIOS } from "./scenarios.ts";

/** Every issue, void and cancel is a new operation unless a test repeats one on purpose. */
const op = () => randomUUID();

const NOW = new Date("2025-05-20T09:00:00Z");
const SECOND = 1000;
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const call = (now = NOW): SupplierCall => ({
  now,
  currency: "UAH",
  credentials: { login: "agency", password: "secret" },
});

const adult = (lastName = "Shevchenko", firstName = "Olena"): BookingPassenger => ({
  type: "adult",
  gender: "F",
  first_name: firstName,
  last_name: lastName,
  date_of_birth: "1990-03-14",
  document: {
    type: "passport",
    number: "FA123456",
    issuing_country: "UA",
    nationality: "UA",
    expires_on: "2030-01-01",
  },
});
const infant: BookingPassenger = {
  ...adult("Shevchenko", "Maksym"),
  type: "infant",
  gender: "M",
  date_of_birth: "2024-09-01",
};
const contacts = { email: "agent@example.com", phone: "+380441234567" };

interface Pick {
  lowCost?: boolean;
  family?: SupplierFare["family"];
  returnDate?: string;
  passengers?: { adults: number; children?: number; infants?: number };
}

/** Searches KBP-WAW and picks the first offer of the kind a test needs. */
async function offer(
  supplier: SandboxSupplier,
  pick: Pick = {},
): Promise<{ od: SupplierOriginDestination; fare: SupplierFare }> {
  const result = await supplier.search(
    SearchRequest.parse({
      origin: "KBP",
      destination: "WAW",
      departure_date: "2025-06-01",
      return_date: pick.returnDate,
      passengers: pick.passengers ?? { adults: 1 },
    }),
    call(),
  );
  for (const od of result.origin_destinations) {
    const fare = od.fares.find(
      (f) =>
        (pick.family === undefined || f.family === pick.family) &&
        (pick.lowCost === undefined || findAirline(f.validating_carrier)?.lowCost === pick.lowCost),
    );
    if (fare) return { od, fare };
  }
  throw new Error("no such offer");
}

async function held(supplier: SandboxSupplier, pick: Pick = {}, passengers = [adult()]) {
  const { od, fare } = await offer(supplier, pick);
  const booking = await supplier.book({ fare_id: fare.fare_id, passengers, contacts }, call());
  return { od, fare, booking };
}

async function issued(supplier: SandboxSupplier, pick: Pick = {}, passengers = [adult()]) {
  const { booking } = await held(supplier, pick, passengers);
  const result = await supplier.issue(
    { operation_id: op(), booking, accepted_total: booking.price.total.amount },
    call(),
  );
  if (result.outcome !== "issued") throw new Error("not issued");
  return result.booking;
}

describe("sandbox booking", () => {
  it("given a network fare, when booked, then seats are held under a locator with a time limit within a day", async () => {
    const supplier = new SandboxSupplier();
    const { od, fare, booking } = await held(supplier, { lowCost: false });
    expect(isLocator(booking.supplier_locator)).toBe(true);
    expect(booking).toMatchObject({
      status: "held",
      provider_status: "confirmed",
      error: null,
      fare_id: fare.fare_id,
    });
    expect(booking.time_limit).toBe(at(24 * HOUR).toISOString());
    expect(booking.price).toEqual(fare.price);
    expect(booking.flights).toEqual(od.flights);
    expect(await supplier.retrieve({ booking }, call())).toEqual(booking);
  });

  it("given a low-cost fare, when booked, then the time limit is one hour", async () => {
    const { booking } = await held(new SandboxSupplier(), { lowCost: true });
    expect(booking.time_limit).toBe(at(HOUR).toISOString());
  });

  it("given a departure tomorrow morning, when booked, then the time limit stops two hours before departure", async () => {
    const supplier = new SandboxSupplier();
    const { fare, od } = await offer(supplier, { lowCost: false });
    const departure = Date.parse(od.flights[0]?.departure_at ?? "");
    const now = new Date(departure - 10 * HOUR);
    const booking = await supplier.book(
      { fare_id: fare.fare_id, passengers: [adult()], contacts },
      call(now),
    );
    expect(booking.time_limit).toBe(new Date(departure - 2 * HOUR).toISOString());
  });

  it("given the same booking call retried at the same moment, then the same booking comes back", async () => {
    const supplier = new SandboxSupplier();
    const { fare, booking } = await held(supplier);
    const again = await supplier.book({ fare_id: fare.fare_id, passengers: [adult()], contacts }, call());
    expect(again.supplier_locator).toBe(booking.supplier_locator);
    const later = await supplier.book(
      { fare_id: fare.fare_id, passengers: [adult()], contacts },
      call(at(SECOND)),
    );
    expect(later.supplier_locator).not.toBe(booking.supplier_locator);
  });

  it("given passengers other than the party searched, when booked, then nothing is held", async () => {
    const supplier = new SandboxSupplier();
    const { fare } = await offer(supplier);
    await expect(
      supplier.book({ fare_id: fare.fare_id, passengers: [adult(), adult("Koval")], contacts }, call()),
    ).rejects.toThrow(InvalidInput);
  });

  it("given the last name SOLDOUT or FAILBOOK, when booked, then no availability or a supplier failure", async () => {
    const supplier = new SandboxSupplier();
    const { fare } = await offer(supplier);
    const book = (lastName: string) =>
      supplier.book({ fare_id: fare.fare_id, passengers: [adult(lastName)], contacts }, call());
    await expect(book(SANDBOX_SCENARIOS.soldOut.lastName.toLowerCase())).rejects.toThrow(NoAvailability);
    await expect(book(SANDBOX_SCENARIOS.bookingFailure.lastName)).rejects.toThrow(SupplierUnavailable);
  });

  it("given the last name ASYNCOK, when booked, then it is in progress until 30 s later it is confirmed", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, {}, [adult(SANDBOX_SCENARIOS.asyncConfirmed.lastName)]);
    expect(booking.provider_status).toBe("in_progress");
    await expect(
      supplier.issue({ operation_id: op(), booking, accepted_total: booking.price.total.amount }, call()),
    ).rejects.toMatchObject({
      code: "booking_in_progress",
    });
    expect((await supplier.retrieve({ booking }, call(at(29 * SECOND)))).provider_status).toBe("in_progress");
    const confirmed = await supplier.retrieve({ booking }, call(at(30 * SECOND)));
    expect(confirmed).toMatchObject({ provider_status: "confirmed", status: "held" });
  });

  it("given the last name ASYNCFAIL, when retrieved 30 s later, then the booking failed and holds nothing", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, {}, [adult(SANDBOX_SCENARIOS.asyncFailed.lastName)]);
    const failed = await supplier.retrieve({ booking }, call(at(31 * SECOND)));
    expect(failed).toMatchObject({ provider_status: "failed", status: "cancelled" });
    expect(failed.error).toMatch(/rejected/);
  });

  it("given a held booking, when issued, then each passenger gets a 13-digit ticket with the carrier's prefix", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, passengers: { adults: 1, infants: 1 } }, [
      adult(),
      infant,
    ]);
    const carrier = findAirline(booking.fare.validating_carrier);
    expect(booking.status).toBe("issued");
    expect(booking.issued_at).toBe(NOW.toISOString());
    expect(booking.tickets).toHaveLength(2);
    for (const ticket of booking.tickets) {
      expect(ticket.ticket_number).toMatch(/^\d{13}$/);
      expect(ticket.ticket_number.slice(0, 3)).toBe(carrier?.accountingCode);
    }
    expect(new Set(booking.tickets.map((t) => t.ticket_number)).size).toBe(2);
    expect(booking.tickets.map((t) => t.passenger_name)).toEqual(["SHEVCHENKO/OLENA", "SHEVCHENKO/MAKSYM"]);
    const [adultTicket, infantTicket] = booking.tickets;
    expect(infantTicket?.total.amount).toBeLessThan(adultTicket?.total.amount ?? 0);
  });

  it("given an issued network ticket, then it voids until the end of the issue day in the carrier's home zone", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false });
    const home =
      booking.fare.validating_carrier === "PS" ? "2025-05-20T20:59:59.000Z" : "2025-05-20T21:59:59.000Z";
    expect(booking.void_until).toBe(home);
    await expect(supplier.void({ operation_id: op(), booking }, call(at(14 * HOUR)))).rejects.toMatchObject({
      code: "void_window_closed",
    });
    const voided = await supplier.void({ operation_id: op(), booking }, call(at(HOUR)));
    expect(voided.booking.status).toBe("voided");
    await expect(supplier.void({ operation_id: op(), booking }, call(at(HOUR)))).rejects.toMatchObject({
      code: "illegal_state",
    });
  });

  it("given an issued low-cost ticket, when voided, then the carrier allows no void", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: true });
    expect(booking.void_until).toBeNull();
    await expect(supplier.void({ operation_id: op(), booking }, call())).rejects.toMatchObject({
      code: "void_not_allowed",
    });
  });

  it("given a held booking, when cancelled, then it is released; an issued one cannot be cancelled", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier);
    expect((await supplier.cancel({ operation_id: op(), booking }, call())).booking.status).toBe("cancelled");
    const ticketed = await issued(supplier, { lowCost: false });
    await expect(supplier.cancel({ operation_id: op(), booking: ticketed }, call())).rejects.toThrow(
      SupplierRejected,
    );
  });

  it("given the time limit passed, when issued, then the airline has cancelled the booking", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, { lowCost: true });
    const late = call(at(HOUR + SECOND));
    expect((await supplier.retrieve({ booking }, late)).status).toBe("cancelled");
    await expect(
      supplier.issue({ operation_id: op(), booking, accepted_total: booking.price.total.amount }, late),
    ).rejects.toMatchObject({
      code: "illegal_state",
    });
  });

  it("given the last name PRICECHANGE, when issued at the booked price, then the new price comes back to accept", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, { lowCost: false }, [
      adult(SANDBOX_SCENARIOS.priceChange.lastName),
    ]);
    const old = booking.price.total.amount;
    const repriced = await supplier.reprice({ booking }, call());
    expect(repriced.changed).toBe(true);
    expect(repriced.price.total.amount / old).toBeCloseTo(1.08, 2);

    const first = await supplier.issue({ operation_id: op(), booking, accepted_total: old }, call());
    expect(first).toMatchObject({
      outcome: "price_changed",
      previous_total: booking.price.total,
      price: repriced.price,
    });
    expect((await supplier.retrieve({ booking }, call())).status).toBe("held");

    const second = await supplier.issue(
      { operation_id: op(), booking, accepted_total: repriced.price.total.amount },
      call(),
    );
    if (second.outcome !== "issued") throw new Error("expected the accepted price to issue");
    expect(second.booking.price).toEqual(repriced.price);
    expect(second.booking.tickets[0]?.total).toEqual(repriced.price.passengers[0]?.total);
  });

  it("given no scenario, when repriced, then the price has not changed", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier);
    expect(await supplier.reprice({ booking }, call())).toMatchObject({
      changed: false,
      price: booking.price,
    });
  });

  it("given the last name FAILISSUE, when issued, then ticketing fails and the booking stays held", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, {}, [adult(SANDBOX_SCENARIOS.issueFailure.lastName)]);
    await expect(
      supplier.issue({ operation_id: op(), booking, accepted_total: booking.price.total.amount }, call()),
    ).rejects.toThrow(SupplierUnavailable);
    expect((await supplier.retrieve({ booking }, call())).status).toBe("held");
  });

  it("given a restart, when the snapshot is passed to a new instance, then it issues the same ticket numbers", async () => {
    const first = new SandboxSupplier();
    const { booking } = await held(first, { lowCost: false });
    const issuedBefore = await first.issue(
      { operation_id: op(), booking, accepted_total: booking.price.total.amount },
      call(),
    );
    const afterRestart = await new SandboxSupplier().issue(
      { operation_id: op(), booking: structuredClone(booking), accepted_total: booking.price.total.amount },
      call(),
    );
    if (issuedBefore.outcome !== "issued" || afterRestart.outcome !== "issued") throw new Error("not issued");
    expect(afterRestart.booking.tickets).toEqual(issuedBefore.booking.tickets);
  });

  it("given the sandbox already issued, when a stale held snapshot asks to issue again, then its own state wins", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, { lowCost: false });
    await supplier.issue({ operation_id: op(), booking, accepted_total: booking.price.total.amount }, call());
    await expect(
      supplier.issue({ operation_id: op(), booking, accepted_total: booking.price.total.amount }, call()),
    ).rejects.toMatchObject({
      code: "illegal_state",
    });
  });

  it("given bags ordered on a held booking, then they wait for tickets and get EMDs with the carrier's prefix at issue", async () => {
    const supplier = new SandboxSupplier();
    const { booking } = await held(supplier, { lowCost: false, passengers: { adults: 1, infants: 1 } }, [
      adult(),
      infant,
    ]);
    const catalogue = await supplier.ancillaryCatalogue({ booking }, call());
    const bag = catalogue.find((item) => item.type === "checked_bag");
    if (!bag) throw new Error("no bag on sale");
    const order = await supplier.orderAncillaries(
      {
        operation_id: op(),
        booking,
        items: [{ ancillary_id: bag.ancillary_id, passenger_index: 0, seat: null }],
      },
      call(),
    );
    expect(order.total).toEqual(bag.price);
    expect(order.added[0]?.emd_number).toBeNull();
    await expect(
      supplier.orderAncillaries(
        {
          operation_id: op(),
          booking,
          items: [{ ancillary_id: bag.ancillary_id, passenger_index: 0, seat: null }],
        },
        call(),
      ),
    ).rejects.toMatchObject({ code: "ancillary_already_booked" });
    await expect(
      supplier.orderAncillaries(
        {
          operation_id: op(),
          booking,
          items: [{ ancillary_id: bag.ancillary_id, passenger_index: 1, seat: null }],
        },
        call(),
      ),
    ).rejects.toThrow(InvalidInput);

    const result = await supplier.issue(
      { operation_id: op(), booking: order.booking, accepted_total: booking.price.total.amount },
      call(),
    );
    if (result.outcome !== "issued") throw new Error("not issued");
    const [emd] = result.booking.emds;
    expect(emd?.emd_number).toMatch(/^\d{13}$/);
    expect(emd?.emd_number.slice(0, 3)).toBe(findAirline(booking.fare.validating_carrier)?.accountingCode);
    expect(emd).toMatchObject({ passenger_index: 0, segment_id: bag.segment_id, price: bag.price });
  });

  it("given a flex ticket before departure, when a refund is quoted and confirmed, then everything comes back", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, family: "flex" });
    const quote = await supplier.refundQuote({ booking, passenger_indexes: [0] }, call());
    expect(quote.penalty.amount).toBe(0);
    expect(quote.refundable).toEqual(booking.price.total);
    expect(quote.expires_at).toBe(at(30 * 60 * SECOND).toISOString());
    await expect(
      supplier.refundConfirm({ operation_id: op(), booking, quote }, call(at(31 * 60 * SECOND))),
    ).rejects.toMatchObject({
      code: "refund_quote_expired",
    });
    const refunded = await supplier.refundConfirm({ operation_id: op(), booking, quote }, call(at(HOUR / 2)));
    expect(refunded).toMatchObject({ refunded: booking.price.total, booking: { status: "refunded" } });
  });

  it("given a standard ticket, when a refund is quoted, then the fee is kept, never more than the fare", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, family: "standard" });
    const rule = booking.fare.penalty.refund_before_departure;
    const [ticket] = booking.tickets;
    if (!rule.allowed || !ticket) throw new Error("standard fares are refundable for a fee");
    const quote = await supplier.refundQuote({ booking, passenger_indexes: [0] }, call());
    const penalty = Math.min(rule.fee.amount, ticket.base_fare.amount);
    expect(quote.penalty.amount).toBe(penalty);
    expect(quote.refundable.amount).toBe(booking.price.total.amount - penalty);
    expect(quote.lines[0]?.taxes_refund).toEqual(ticket.taxes);
  });

  it("given a non-refundable light ticket, when a refund is quoted, then only the unused taxes come back", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, family: "light" });
    const quote = await supplier.refundQuote({ booking, passenger_indexes: [0] }, call());
    expect(quote.lines[0]?.fare_refund.amount).toBe(0);
    expect(quote.refundable).toEqual(booking.price.taxes);
  });

  it("given a round trip with the outbound flown, when a refund is quoted, then the unflown share is prorated", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, family: "flex", returnDate: "2025-06-08" });
    const returnDeparture = Date.parse(booking.flights[1]?.departure_at ?? "");
    const quote = await supplier.refundQuote(
      { booking, passenger_indexes: [0] },
      call(new Date(returnDeparture - HOUR)),
    );
    const [line] = quote.lines;
    const [ticket] = booking.tickets;
    if (!line || !ticket) throw new Error("no ticket");
    const share = (amount: number) => amount / 2;
    expect(line.fare_refund.amount).toBeGreaterThan(share(ticket.base_fare.amount) * 0.9);
    expect(line.fare_refund.amount).toBeLessThan(share(ticket.base_fare.amount) * 1.1);
    const fee = booking.fare.penalty.refund_after_departure;
    expect(line.penalty).toEqual(fee.allowed ? fee.fee : { amount: 0, currency: "UAH" });
  });

  it("given a standard ticket, when reshopped for a later date and reissued, then the difference and fee are charged", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, family: "standard" });
    const rule = booking.fare.penalty.change_before_departure;
    if (!rule.allowed) throw new Error("standard fares change for a fee");
    const reshop = await supplier.reshop({ booking, request: { departure_date: "2025-06-05" } }, call());
    expect(reshop.offers.length).toBeGreaterThan(0);
    for (const o of reshop.offers) {
      expect(o.change_fee).toEqual(rule.fee);
      expect(o.fare_difference.amount).toBe(
        Math.max(0, o.fare.price.total.amount - booking.price.total.amount),
      );
      expect(o.total_due.amount).toBe(o.fare_difference.amount + o.change_fee.amount);
      expect(o.fare.validating_carrier).toBe(booking.fare.validating_carrier);
      expect(o.flights[0]?.departure_at.slice(0, 10)).toBe("2025-06-05");
    }
    const chosen = reshop.offers[0];
    if (!chosen) throw new Error("no offer");
    await expect(
      supplier.reissue(
        {
          operation_id: op(),
          booking,
          reshop_offer_id: chosen.reshop_offer_id,
          accepted_total_due: chosen.total_due.amount + 1,
        },
        call(),
      ),
    ).rejects.toMatchObject({ code: "reshop_price_changed" });
    const reissued = await supplier.reissue(
      {
        operation_id: op(),
        booking,
        reshop_offer_id: chosen.reshop_offer_id,
        accepted_total_due: chosen.total_due.amount,
      },
      call(),
    );
    expect(reissued.charged).toEqual(chosen.total_due);
    expect(reissued.booking).toMatchObject({
      status: "exchanged",
      fare_id: chosen.reshop_offer_id,
      flights: chosen.flights,
    });
    expect(reissued.booking.tickets[0]?.ticket_number).not.toBe(booking.tickets[0]?.ticket_number);
  });

  it("given a light network ticket, when reshopped, then changes are not permitted", async () => {
    const supplier = new SandboxSupplier();
    const booking: SupplierBooking = await issued(supplier, { lowCost: false, family: "light" });
    await expect(
      supplier.reshop({ booking, request: { departure_date: "2025-06-05" } }, call()),
    ).rejects.toMatchObject({
      code: "changes_not_permitted",
    });
  });

  it("given two passengers, when one is refunded, then the other's ticket stays open and a repeat answers the first refund", async () => {
    const supplier = new SandboxSupplier();
    const booking = await issued(supplier, { lowCost: false, family: "flex", passengers: { adults: 2 } }, [
      adult(),
      adult("Bondar", "Oksana"),
    ]);
    const quote = await supplier.refundQuote({ booking, passenger_indexes: [1] }, call());
    expect(quote.lines.map((l) => l.passenger_index)).toEqual([1]);
    const operation_id = op();
    const first = await supplier.refundConfirm({ operation_id, booking, quote }, call());
    expect(first.booking.status).toBe("issued");
    expect(first.booking.tickets.map((t) => t.passenger_index)).toEqual([0]);
    expect(await supplier.refundConfirm({ operation_id, booking, quote }, call())).toEqual(first);
    await expect(
      supplier.refundConfirm({ operation_id: op(), booking: first.booking, quote }, call()),
    ).rejects.toMatchObject({ code: "refund_quote_changed" });
    const rest = await supplier.refundQuote({ booking: first.booking, passenger_indexes: [0, 1] }, call());
    expect(rest.lines.map((l) => l.passenger_index)).toEqual([0]);
    const last = await supplier.refundConfirm(
      { operation_id: op(), booking: first.booking, quote: rest },
      call(),
    );
    expect(last.booking.status).toBe("refunded");
  });
});
