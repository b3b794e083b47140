import type { BookingPassenger } from "@skyward/contracts/supplier";

/**
 * Scripted sandbox behaviour, reachable from the screens: an airport code typed in the search form, a passenger's
 * last name typed in the booking form (any passenger, any letter case), a password typed on a channel's credentials.
 * SCENARIOS.md beside this file documents the same table for testers.
 */
export const SANDBOX_SCENARIOS = {
  searchFailure: {
    airport: "ERR",
    effect: "Search with ERR as origin or destination fails: 502 supplier_unavailable.",
  },
  searchHang: {
    airport: "HNG",
    hangSeconds: 600,
    effect:
      "Search with HNG as origin or destination gets no answer for 10 minutes: past the supplier deadline (SUPPLIER_TIMEOUT_MS) it answers 504 supplier_timeout.",
  },
  noAvailability: {
    airport: "NAV",
    effect: "Search with NAV as origin or destination finds no flights: an empty result.",
  },
  manyOffers: {
    airport: "MNY",
    standsFor: "LON",
    maxOffers: 300,
    journeysPerSlice: 20,
    effect:
      "Search with MNY as origin or destination (for the interaction bench) flies to or from London (LON, all its airports) instead, with the caps lifted: every carrier's 20 fastest journeys each way paired, up to 300 offers.",
  },
  soldOut: {
    lastName: "SOLDOUT",
    effect: "Booking fails: 409 no_availability (the seats went while the agent typed).",
  },
  bookingFailure: {
    lastName: "FAILBOOK",
    effect: "Booking fails: 502 supplier_unavailable; nothing is held.",
  },
  asyncConfirmed: {
    lastName: "ASYNCOK",
    afterSeconds: 30,
    effect: "Booking returns provider_status in_progress; retrieve 30 s or later returns confirmed.",
  },
  asyncFailed: {
    lastName: "ASYNCFAIL",
    afterSeconds: 30,
    effect:
      "Booking returns provider_status in_progress; retrieve 30 s or later returns failed, status cancelled.",
  },
  priceChange: {
    lastName: "PRICECHANGE",
    increaseBps: 800,
    effect:
      "Reprice and issue see the fare 8 % higher: issue with the old total returns price_changed; issue again with the new total to issue.",
  },
  issueFailure: {
    lastName: "FAILISSUE",
    effect: "Issue fails: 502 supplier_unavailable; the booking stays held.",
  },
  slowIssueAnswer: {
    lastName: "SLOWANSWER",
    delaySeconds: 8,
    effect:
      "Issue tickets at once, but the answer arrives 8 s later: a crash meanwhile leaves the issue to reconciliation, which completes it.",
  },
  slowIssueRequest: {
    lastName: "SLOWREQUEST",
    delaySeconds: 8,
    effect:
      "The airline acts on an issue only 8 s after it is sent: a crash meanwhile leaves the issue to reconciliation, which undoes it.",
  },
  hangingIssue: {
    lastName: "HANG",
    hangSeconds: 600,
    effect:
      "The airline answers an issue only after 10 minutes: past the supplier deadline (SUPPLIER_TIMEOUT_MS) the issue answers 503 operation_pending at once, and reconciliation undoes it (the late call is then refused).",
  },
  refundFailure: {
    lastName: "FAILREFUND",
    effect:
      "Refund confirmation fails: 502 supplier_unavailable; the tickets stay open and nothing is credited.",
  },
  exchangeFailure: {
    lastName: "FAILEXCHANGE",
    effect:
      "Exchange confirmation fails: 502 supplier_unavailable; the old tickets stand, the charge goes back and the offers are emptied.",
  },
  slowAfterSalesAnswer: {
    lastName: "SLOWAFTERSALES",
    delaySeconds: 8,
    effect:
      "Refunds, exchanges and EMDs (purchase, refund) are done at once, but the answer arrives 8 s later: a crash meanwhile leaves them to reconciliation, which completes them.",
  },
  emdFailure: {
    lastName: "FAILEMD",
    effect:
      "Ancillaries after issue are refused: 422 emd_refused; the charge goes back. Before issue they are added as usual.",
  },
  asyncEmd: {
    lastName: "ASYNCEMD",
    afterSeconds: 5,
    effect:
      "EMDs of ancillaries bought after issue are issued 5 s later: the booking shows async_emd_issue true until a job confirms them.",
  },
  scheduleMinor: {
    lastName: "SCHEDMINOR",
    effect:
      "Once issued, the airline moves the first flight 35 minutes (a minor change): the schedule-change job records it; the agent may only accept it.",
  },
  scheduleMajor: {
    lastName: "SCHEDMAJOR",
    effect:
      "Once issued, the airline moves the first flight 3 h 10 min (a major change): the agent may accept it, exchange to the same flight a day before or two days later at no cost, or refund the tickets in full, without penalty.",
  },
  scheduleCancelled: {
    lastName: "SCHEDCANCEL",
    effect:
      "Once issued, the airline cancels the first flight and moves the passengers to the next day's: the agent may accept it, exchange at no cost, or refund in full.",
  },
  invalidCredentials: {
    password: "invalid",
    effect: "Credentials check answers inactive; every other call fails: 422 invalid_credentials.",
  },
} as const;

type BookingScenario =
  | "soldOut"
  | "bookingFailure"
  | "asyncConfirmed"
  | "asyncFailed"
  | "priceChange"
  | "issueFailure"
  | "slowIssueAnswer"
  | "slowIssueRequest"
  | "hangingIssue"
  | "refundFailure"
  | "exchangeFailure"
  | "slowAfterSalesAnswer"
  | "emdFailure"
  | "asyncEmd"
  | "scheduleMinor"
  | "scheduleMajor"
  | "scheduleCancelled";

const BY_LAST_NAME: ReadonlyMap<string, BookingScenario> = new Map([
  [SANDBOX_SCENARIOS.soldOut.lastName, "soldOut"],
  [SANDBOX_SCENARIOS.bookingFailure.lastName, "bookingFailure"],
  [SANDBOX_SCENARIOS.asyncConfirmed.lastName, "asyncConfirmed"],
  [SANDBOX_SCENARIOS.asyncFailed.lastName, "asyncFailed"],
  [SANDBOX_SCENARIOS.priceChange.lastName, "priceChange"],
  [SANDBOX_SCENARIOS.issueFailure.lastName, "issueFailure"],
  [SANDBOX_SCENARIOS.slowIssueAnswer.lastName, "slowIssueAnswer"],
  [SANDBOX_SCENARIOS.slowIssueRequest.lastName, "slowIssueRequest"],
  [SANDBOX_SCENARIOS.hangingIssue.lastName, "hangingIssue"],
  [SANDBOX_SCENARIOS.refundFailure.lastName, "refundFailure"],
  [SANDBOX_SCENARIOS.exchangeFailure.lastName, "exchangeFailure"],
  [SANDBOX_SCENARIOS.slowAfterSalesAnswer.lastName, "slowAfterSalesAnswer"],
  [SANDBOX_SCENARIOS.emdFailure.lastName, "emdFailure"],
  [SANDBOX_SCENARIOS.asyncEmd.lastName, "asyncEmd"],
  [SANDBOX_SCENARIOS.scheduleMinor.lastName, "scheduleMinor"],
  [SANDBOX_SCENARIOS.scheduleMajor.lastName, "scheduleMajor"],
  [SANDBOX_SCENARIOS.scheduleCancelled.lastName, "scheduleCancelled"],
]);

/** Derived from the names every time, so a booking keeps its scenario across a restart. */
export function bookingScenario(
  passengers: readonly Pick<BookingPassenger, "last_name">[],
): BookingScenario | null {
  for (const p of passengers) {
    const scenario = BY_LAST_NAME.get(p.last_name.trim().toUpperCase());
    if (scenario) return scenario;
  }
  return null;
}

export function searchScenario(
  origin: string,
  destination: string,
): "searchFailure" | "searchHang" | "noAvailability" | "manyOffers" | null {
  const codes = [origin, destination];
  if (codes.includes(SANDBOX_SCENARIOS.searchFailure.airport)) return "searchFailure";
  if (codes.includes(SANDBOX_SCENARIOS.searchHang.airport)) return "searchHang";
  if (codes.includes(SANDBOX_SCENARIOS.noAvailability.airport)) return "noAvailability";
  if (codes.includes(SANDBOX_SCENARIOS.manyOffers.airport)) return "manyOffers";
  return null;
}

export const credentialsRejected = (password: string): boolean =>
  password.trim().toLowerCase() === SANDBOX_SCENARIOS.invalidCredentials.password;
