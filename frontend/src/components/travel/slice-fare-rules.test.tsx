// A multi-city fare's rules per slice, in words and in the interface language (issue 23): each slice's family and
// its change and refund rules, shown only when the slices are sold in different families.
import { afterEach, describe, expect, it } from "@jest/globals";
import type { SliceFareRule } from "@skyward/contracts/offers";
import { act, screen } from "@testing-library/react";
import { setSiteLanguage } from "../../lib/i18n.ts";
import { renderWithProviders } from "../../test-utils/render.tsx";
import { SliceFareRules } from "./slice-fare-rules.tsx";

afterEach(async () => {
  await act(() => setSiteLanguage("en"));
});

const eur = (amount: number) => ({ amount, currency: "EUR" });
const light: SliceFareRule["penalty"] = {
  change_before_departure: { allowed: false },
  change_after_departure: { allowed: false },
  refund_before_departure: { allowed: false },
  refund_after_departure: { allowed: false },
};
const standard: SliceFareRule["penalty"] = {
  change_before_departure: { allowed: true, fee: eur(7000) },
  change_after_departure: { allowed: false },
  refund_before_departure: { allowed: true, fee: eur(15000) },
  refund_after_departure: { allowed: false },
};
const slices: SliceFareRule[] = [
  {
    slice: 0,
    origin: "KBP",
    destination: "WAW",
    family: "light",
    brand_name: "Economy Light",
    penalty: light,
  },
  {
    slice: 1,
    origin: "WAW",
    destination: "CDG",
    family: "standard",
    brand_name: "Economy Standard",
    penalty: standard,
  },
  {
    slice: 2,
    origin: "CDG",
    destination: "KBP",
    family: "light",
    brand_name: "Economy Light",
    penalty: light,
  },
];

describe("fare rules per slice", () => {
  it("when the slices of a fare are sold in different families, then each slice's family and rules are shown in words", () => {
    renderWithProviders(<SliceFareRules slices={slices} />);
    const lines = screen.getAllByText(/^Flight \d/);
    expect(lines.map((l) => l.textContent)).toEqual([
      "Flight 1 KBP → WAW: Economy Light · No changes · Non-refundable",
      expect.stringMatching(/^Flight 2 WAW → CDG: Economy Standard · Change €70 · Refund €150$/),
      "Flight 3 CDG → KBP: Economy Light · No changes · Non-refundable",
    ]);
  });

  it("when the language is Ukrainian, then the slices' rules read in Ukrainian", async () => {
    await act(() => setSiteLanguage("ua"));
    renderWithProviders(<SliceFareRules slices={slices} />);
    expect(screen.getByText("Правила кожного перельоту")).toBeInTheDocument();
    expect(screen.getAllByText(/Без повернення/)).toHaveLength(2);
  });

  it("when every slice is sold in one family, then nothing is added to the fare's own rules", () => {
    const { container } = renderWithProviders(
      <SliceFareRules slices={slices.map((s) => ({ ...s, family: "light", penalty: light }))} />,
    );
    expect(container.querySelector("[data-testid=slice-fare-rules]")).toBeNull();
  });
});
