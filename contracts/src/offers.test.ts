import { describe, expect, it } from "@jest/globals";
import { fareLosses, PassengerCounts, SearchRequest } from "./offers.ts";
import { BookingPassenger } from "./supplier.ts";

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.path.join(".")) ?? [];

describe("search request", () => {
  it("given lower-case codes and no return date, when parsed, then it is a one-way economy search", () => {
    const parsed = SearchRequest.parse({
      origin: " kbp",
      destination: "waw",
      departure_date: "2025-06-01",
      passengers: { adults: 1 },
      carriers: ["lo"],
    });
    expect(parsed).toEqual({
      origin: "KBP",
      destination: "WAW",
      departure_date: "2025-06-01",
      passengers: { adults: 1, children: 0, infants: 0 },
      cabin: "economy",
      carriers: ["LO"],
    });
  });

  it("given the same origin and destination or a return before departure, then each field is named", () => {
    const result = SearchRequest.safeParse({
      origin: "KBP",
      destination: "KBP",
      departure_date: "2025-06-08",
      return_date: "2025-06-01",
      passengers: { adults: 1 },
    });
    expect(paths(result)).toEqual(["destination", "return_date"]);
  });

  it("given impossible dates or codes, then they are refused", () => {
    const result = SearchRequest.safeParse({
      origin: "KB",
      destination: "WAW1",
      departure_date: "2025-02-30",
      passengers: { adults: 1 },
      cabin: "luxury",
    });
    expect(paths(result)).toEqual(["origin", "destination", "departure_date", "cabin"]);
  });

  it("given a party, then 1-9 seats are sold and at most one infant per adult", () => {
    expect(PassengerCounts.safeParse({ adults: 9 }).success).toBe(true);
    expect(PassengerCounts.safeParse({ adults: 2, children: 7, infants: 2 }).success).toBe(true);
    expect(paths(PassengerCounts.safeParse({ adults: 0 }))).toEqual(["adults"]);
    expect(paths(PassengerCounts.safeParse({ adults: 5, children: 5 }))).toEqual(["children"]);
    expect(paths(PassengerCounts.safeParse({ adults: 1, infants: 2 }))).toEqual(["infants"]);
    expect(paths(PassengerCounts.safeParse({ adults: 1.5 }))).toEqual(["adults"]);
  });
});

describe("booking passenger", () => {
  const passenger = {
    type: "adult",
    gender: "F",
    first_name: "Olena",
    last_name: "Shevchenko",
    date_of_birth: "1990-03-14",
    document: {
      type: "passport",
      number: "fa123456",
      issuing_country: "ua",
      nationality: "UA",
      expires_on: "2030-01-01",
    },
  };

  it("given a passenger as typed, when parsed, then the document is upper-cased", () => {
    expect(BookingPassenger.parse(passenger).document).toMatchObject({
      number: "FA123456",
      issuing_country: "UA",
    });
  });

  it("given a name in Cyrillic, then it is refused: tickets carry Latin names as in the passport", () => {
    expect(paths(BookingPassenger.safeParse({ ...passenger, last_name: "Шевченко" }))).toEqual(["last_name"]);
  });
});

describe("fareLosses", () => {
  const uah = (amount: number) => ({ amount, currency: "UAH" });
  const rules = (refund: number | null, change: number | null) => ({
    refund_before_departure:
      refund === null ? { allowed: false as const } : { allowed: true as const, fee: uah(refund) },
    refund_after_departure: { allowed: false as const },
    change_before_departure:
      change === null ? { allowed: false as const } : { allowed: true as const, fee: uah(change) },
    change_after_departure: { allowed: false as const },
  });

  it("when a free Flex fare moves to a fare without refund or changes, then both are named as lost", () => {
    expect(fareLosses(rules(0, 0), rules(null, null))).toEqual([
      { kind: "no_refund" },
      { kind: "no_changes" },
    ]);
  });

  it("when the new fare keeps the rules at higher fees, then each higher fee is named with its amount", () => {
    expect(fareLosses(rules(0, 0), rules(1500_00, 2250_00))).toEqual([
      { kind: "refund_fee", fee: uah(1500_00) },
      { kind: "change_fee", fee: uah(2250_00) },
    ]);
  });

  it("when the new fare is as good or better, or the old one allowed nothing, then nothing is lost", () => {
    expect(fareLosses(rules(1500_00, 2250_00), rules(0, 2250_00))).toEqual([]);
    expect(fareLosses(rules(null, null), rules(null, null))).toEqual([]);
  });
});
