import { describe, expect, it } from "@jest/globals";
import { canChangePassengers, initialSearchForm } from "./search-form.ts";
import { validateSearchForm } from "./search-form-checks.ts";

const kbp = { code: "KBP", name: "Kyiv Boryspil International Airport", city: "Kyiv", country: "UA" };
const waw = { code: "WAW", name: "Warsaw Chopin Airport", city: "Warsaw", country: "PL" };

describe("search form", () => {
  it("names every missing field", () => {
    const result = validateSearchForm({ ...initialSearchForm(), tripType: "round_trip" });
    expect(result).toEqual({
      ok: false,
      errors: {
        origin: "origin_required",
        destination: "destination_required",
        departureDate: "departure_required",
        returnDate: "return_required",
      },
    });
  });

  it("refuses the same airport twice and a return before the departure", () => {
    const result = validateSearchForm({
      ...initialSearchForm(),
      tripType: "round_trip",
      origin: kbp,
      destination: kbp,
      departureDate: "2026-12-12",
      returnDate: "2026-12-10",
    });
    expect(result).toEqual({
      ok: false,
      errors: { destination: "same_airports", returnDate: "return_before_departure" },
    });
  });

  it("builds the search request; a one-way search sends no return date", () => {
    const values = {
      ...initialSearchForm(),
      origin: kbp,
      destination: waw,
      departureDate: "2026-12-12",
      returnDate: "2026-12-19",
      passengers: { adults: 2, children: 1, infants: 1 },
    };
    expect(validateSearchForm(values)).toEqual({
      ok: true,
      request: {
        origin: "KBP",
        destination: "WAW",
        departure_date: "2026-12-12",
        passengers: { adults: 2, children: 1, infants: 1 },
        cabin: "economy",
      },
    });
    const roundTrip = validateSearchForm({ ...values, tripType: "round_trip" });
    expect(roundTrip.ok && roundTrip.request.return_date).toBe("2026-12-19");
  });

  it("keeps 1 to 9 seats and at most one infant per adult", () => {
    expect(canChangePassengers({ adults: 1, children: 0, infants: 0 }, "adults", -1)).toBe(false);
    expect(canChangePassengers({ adults: 5, children: 4, infants: 0 }, "adults", 1)).toBe(false);
    expect(canChangePassengers({ adults: 5, children: 4, infants: 0 }, "children", 1)).toBe(false);
    expect(canChangePassengers({ adults: 5, children: 4, infants: 4 }, "infants", 1)).toBe(true);
    expect(canChangePassengers({ adults: 2, children: 0, infants: 2 }, "infants", 1)).toBe(false);
    expect(canChangePassengers({ adults: 2, children: 0, infants: 2 }, "adults", -1)).toBe(false);
    expect(canChangePassengers({ adults: 2, children: 0, infants: 1 }, "adults", -1)).toBe(true);
  });
});
