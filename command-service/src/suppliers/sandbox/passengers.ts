import type { PassengerCounts, PassengerType } from "@skyward/contracts/offers";
import { loyaltyRefusal, type PassengerServices } from "@skyward/contracts/passenger-services";
import type { BookingPassenger } from "@skyward/contracts/supplier";
import { type FieldProblem, InvalidInput } from "@skyward/infra/http/errors";

/** Whole years between a date of birth and a date, both "YYYY-MM-DD". */
export function ageOn(dateOfBirth: string, date: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number);
  const [y, m, d] = date.split("-").map(Number);
  if (
    by === undefined ||
    bm === undefined ||
    bd === undefined ||
    y === undefined ||
    m === undefined ||
    d === undefined
  ) {
    throw new RangeError(`not ISO dates: ${dateOfBirth}, ${date}`);
  }
  const hadBirthday = m > bm || (m === bm && d >= bd);
  return y - by - (hadBirthday ? 0 : 1);
}

/** IATA age bands: adults 12+ and children 2-11 on the day they fly out; infants stay under 2 until the last flight. */
export function passengerTypeProblem(
  type: PassengerType,
  dateOfBirth: string,
  firstFlightDate: string,
  lastFlightDate: string,
): string | null {
  if (dateOfBirth > firstFlightDate) return "is after the flight";
  const age = ageOn(dateOfBirth, firstFlightDate);
  if (type === "adult" && age < 12) return "makes the passenger a child or an infant, not an adult (12+)";
  if (type === "child" && (age < 2 || age > 11)) return "does not fit a child (2-11 on the day of departure)";
  if (type === "infant" && ageOn(dateOfBirth, lastFlightDate) >= 2) {
    return "does not fit an infant (under 2 until the last flight)";
  }
  return null;
}

/**
 * Checks the passengers against the party the fare was priced for, their ages and their documents; every problem is
 * reported with its pointer at once.
 */
export function assertPassengersFit(
  passengers: readonly BookingPassenger[],
  party: PassengerCounts,
  firstFlightDate: string,
  lastFlightDate: string,
): void {
  const problems: FieldProblem[] = [];
  const count = (type: PassengerType) => passengers.filter((p) => p.type === type).length;
  if (
    count("adult") !== party.adults ||
    count("child") !== party.children ||
    count("infant") !== party.infants
  ) {
    problems.push({
      pointer: "/passengers",
      detail: `must be ${party.adults} adult(s), ${party.children} child(ren) and ${party.infants} infant(s), as searched`,
      location: "body",
    });
  }
  passengers.forEach((p, i) => {
    const typeProblem = passengerTypeProblem(p.type, p.date_of_birth, firstFlightDate, lastFlightDate);
    if (typeProblem)
      problems.push({ pointer: `/passengers/${i}/date_of_birth`, detail: typeProblem, location: "body" });
    if (p.document.expires_on < lastFlightDate) {
      problems.push({
        pointer: `/passengers/${i}/document/expires_on`,
        detail: "must be valid until the last flight",
        location: "body",
      });
    }
  });
  if (problems.length > 0) throw new InvalidInput(problems);
}

/**
 * A loyalty number goes with every flight of the booking: each marketing carrier must accept it (its own programme,
 * or one of its alliance). A refused one is named on its field with the reason, as an airline's reservation system
 * refuses an FQTV it cannot credit.
 */
export function assertLoyaltyAccepted(
  services: readonly PassengerServices[],
  marketingCarriers: readonly string[],
): void {
  const problems: FieldProblem[] = services.flatMap(({ index, loyalty }) => {
    const reason = loyalty && loyaltyRefusal(marketingCarriers, loyalty.carrier);
    return reason
      ? [{ pointer: `/passengers/${index}/loyalty/carrier`, detail: reason, location: "body" as const }]
      : [];
  });
  if (problems.length > 0) throw new InvalidInput(problems);
}
