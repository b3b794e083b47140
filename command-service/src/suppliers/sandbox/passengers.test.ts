import { describe, expect, it } from "@jest/globals";
import type { BookingPassenger } from "@skyward/contracts/supplier";
import { InvalidInput } from "@skyward/infra/http/errors";
import { ageOn, assertPassengersFit, passengerTypeProblem } from "./passengers.ts";

const passenger = (
  type: BookingPassenger["type"],
  dateOfBirth: string,
  expires = "2030-01-01",
): BookingPassenger => ({
  type,
  gender: "F",
  first_name: "Olena",
  last_name: "Shevchenko",
  date_of_birth: dateOfBirth,
  document: {
    type: "passport",
    number: "FA123456",
    issuing_country: "UA",
    nationality: "UA",
    expires_on: expires,
  },
});

describe("passenger age bands", () => {
  it("given a birthday tomorrow, then the age is still the previous year's", () => {
    expect(ageOn("2013-06-02", "2025-06-01")).toBe(11);
    expect(ageOn("2013-06-01", "2025-06-01")).toBe(12);
  });

  it("given the travel dates, then adults are 12+, children 2-11, infants under 2 until the last flight", () => {
    expect(passengerTypeProblem("adult", "2013-06-01", "2025-06-01", "2025-06-01")).toBeNull();
    expect(passengerTypeProblem("adult", "2013-06-02", "2025-06-01", "2025-06-01")).toMatch(/not an adult/);
    expect(passengerTypeProblem("child", "2023-05-31", "2025-06-01", "2025-06-01")).toBeNull();
    expect(passengerTypeProblem("child", "2023-06-02", "2025-06-01", "2025-06-01")).toMatch(/child/);
    expect(passengerTypeProblem("infant", "2023-06-05", "2025-06-01", "2025-06-04")).toBeNull();
    expect(passengerTypeProblem("infant", "2023-06-05", "2025-06-01", "2025-06-08")).toMatch(/infant/);
    expect(passengerTypeProblem("infant", "2025-07-01", "2025-06-01", "2025-06-08")).toMatch(
      /after the flight/,
    );
  });

  it("given passengers that do not match the party searched, then every problem is reported with its pointer", () => {
    const wrong = () =>
      assertPassengersFit(
        [passenger("adult", "1990-01-01", "2025-06-05"), passenger("child", "1990-01-01")],
        { adults: 2, children: 0, infants: 0 },
        "2025-06-01",
        "2025-06-08",
      );
    expect(wrong).toThrow(InvalidInput);
    try {
      wrong();
    } catch (error) {
      const pointers = (error as InvalidInput).problems.map((p) => p.pointer);
      expect(pointers).toEqual([
        "/passengers",
        "/passengers/0/document/expires_on",
        "/passengers/1/date_of_birth",
      ]);
    }
  });

  it("given passengers that fit, then nothing is thrown", () => {
    expect(() =>
      assertPassengersFit(
        [passenger("adult", "1990-01-01"), passenger("infant", "2024-09-01")],
        { adults: 1, children: 0, infants: 1 },
        "2025-06-01",
        "2025-06-08",
      ),
    ).not.toThrow();
  });
});
