// City names and fare texts in the interface language (issue 9 item 6): the per-language city names chunk and the
// fares catalogue, with the English the server sent as the fallback.
import { afterEach, describe, expect, it } from "@jest/globals";
import type { Flight } from "@skyward/contracts/offers";
import { act, renderHook, screen } from "@testing-library/react";
import { FareOption } from "../../features/search/components/fare-option.tsx";
import { useFareText } from "../../lib/fare-text.ts";
import { type Language, setSiteLanguage } from "../../lib/i18n.ts";
import { cityNameIn, loadPlaceNames } from "../../lib/place-names.ts";
import { renderWithProviders } from "../../test-utils/render.tsx";
import { flightKbpWaw, standardFare } from "../../test-utils/travel-fixtures.ts";
import { FlightSummary } from "./flight-summary.tsx";

afterEach(async () => {
  await act(() => setSiteLanguage("en"));
});

async function inLanguage(language: Language) {
  await act(() => setSiteLanguage(language));
}

describe("city names in the interface language", () => {
  it.each([
    ["ua", "Київ", "Варшава"],
    ["pl", "Kijów", "Warszawa"],
    ["fr", "Kiev", "Varsovie"],
    ["es", "Kiev", "Varsovia"],
    ["en", "Kyiv", "Warsaw"],
  ] as const)(
    "when the language is %s, then a result shows KBP as %s and WAW as %s",
    async (language, kyiv, warsaw) => {
      await inLanguage(language);
      renderWithProviders(<FlightSummary flight={flightKbpWaw} />);
      expect(await screen.findByText(kyiv)).toBeInTheDocument();
      expect(await screen.findByText(warsaw)).toBeInTheDocument();
    },
  );

  it("when a language has no name for an airport's city, then the English one the server sent is shown", async () => {
    await loadPlaceNames("ua");
    expect(cityNameIn("ua", "KRK", "Krakow")).toBe("Краків"); // from the city table, not in CLDR
    expect(cityNameIn("ua", "QQQ", "Springfield")).toBe("Springfield");
    const flight: Flight = {
      ...flightKbpWaw,
      segments: flightKbpWaw.segments.map((s) => ({
        ...s,
        to: { ...s.to, code: "QQQ", city: "Springfield" },
      })),
    };
    await inLanguage("ua");
    renderWithProviders(<FlightSummary flight={flight} />);
    expect(await screen.findByText("Київ")).toBeInTheDocument();
    expect(screen.getByText("Springfield")).toBeInTheDocument();
  });
});

describe("fare families and rules in the interface language", () => {
  it("when the language is Ukrainian, then a known family is translated and an unknown brand is shown as sent", async () => {
    await inLanguage("ua");
    renderWithProviders(
      <FareOption fare={standardFare()} passengers={2} cheapest onSelect={() => {}} onDetails={() => {}} />,
    );
    expect(screen.getByRole("region", { name: "Економ Стандарт" })).toBeInTheDocument();
    const { result } = renderHook(() => useFareText());
    expect(result.current.brand({ brand_name: "Super Saver", family: "light", cabin: "economy" })).toBe(
      "Super Saver",
    );
    expect(result.current.brand({ brand_name: "Business Flex", family: "flex" })).toBe("Бізнес Флекс");
    // A mixed-cabin fare keeps its brand's cabin word, translated (not the brand left in English beside it).
    expect(result.current.brand({ brand_name: "Premium Flex", family: "flex", cabin: "economy" })).toBe(
      "Преміум Флекс",
    );
    // An exchange offer names its brand only: read the same way.
    expect(result.current.brandName("Economy Light")).toBe("Економ Лайт");
    expect(result.current.brandName("Super Saver")).toBe("Super Saver");
  });

  it("when rule texts are the supplier's known sentences, then they read in the language; any unknown sentence keeps the text as sent", async () => {
    await inLanguage("pl");
    const { result } = renderHook(() => useFareText());
    const text =
      "Changes before departure for 50.00 EUR per passenger. Changes after departure not permitted. Refunds before departure free of charge.";
    const read = result.current.sectionText(text);
    expect(read).toContain("Zmiany przed wylotem: ");
    expect(read).toContain("50,00");
    expect(read).toContain("Zmiany po wylocie: niedozwolone.");
    expect(read).toContain("Zwroty przed wylotem: bezpłatnie.");
    expect(read).not.toMatch(/departure|passenger/);
    const odd = "Changes before departure free of charge. Name changes need a new ticket.";
    expect(result.current.sectionText(odd)).toBe(odd);
    expect(result.current.sectionTitle({ category: 16, title: "Penalties", text })).toBe("Kary");
    expect(result.current.sectionTitle({ category: 16, title: "Strafen", text })).toBe("Strafen");
  });
});
