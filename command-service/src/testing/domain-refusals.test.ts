// Deciders decide in domain terms: they refuse with a Refusal (kind, code, reason; infra refusal.ts) and import
// nothing of HTTP; the HTTP edge maps each kind to a status in one place (infra http/refusals.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";

/** Every decider of the command service, and the decisions it delegates to. */
const DECIDERS = [
  "bookings/booking.ts",
  "bookings/booking-held.ts",
  "bookings/booking-ticketing.ts",
  "bookings/booking-issued.ts",
  "bookings/booking-after-sales.ts",
  "bookings/booking-details.ts",
  "bookings/booking-schedule-change.ts",
  "ancillaries/decider.ts",
  "balances/balance.ts",
  "directory/agency.ts",
  "directory/company.ts",
  "directory/join-request.ts",
  "identity/decide.ts",
  "identity/user.ts",
  "ticketing/card.ts",
  "ticketing/channel.ts",
  "ticketing/gates.ts",
  "watchdog/deadline.ts",
  "travellers/traveller.ts",
];

const source = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("deciders refuse in domain terms", () => {
  it.each(DECIDERS)("%s imports nothing of HTTP and throws no HTTP error", (path) => {
    const text = source(path);
    expect(text).not.toMatch(/from "@skyward\/infra\/http\//);
    expect(text).not.toMatch(/new (Conflict|IllegalState|NotFound|InvalidInput|Forbidden|DomainError)\(/);
  });
});
