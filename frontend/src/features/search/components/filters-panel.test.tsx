// The airline filter of one slice of a multi-city result (issue 23): each slice offers the airlines its flights
// have, and a choice filters that slice only, in the API's per-slice filter shape.
import { describe, expect, it, jest } from "@jest/globals";
import type { Flight, OriginDestination, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { flightKbpWaw, optionKbpWaw } from "../../../test-utils/travel-fixtures.ts";
import { filterOptions } from "./filter-options.ts";
import { FiltersPanel } from "./filters-panel.tsx";

const NAMES: Record<string, string> = { PS: "Ukraine International Airlines", LO: "LOT Polish Airlines" };

/** A flight of one slice on one carrier. */
function flight(direction: Flight["direction"], carrier: string, from: string, to: string): Flight {
  const [segment] = flightKbpWaw.segments;
  if (!segment) throw new Error("the fixture flight has a segment");
  return {
    ...flightKbpWaw,
    id: `${carrier}-${from}${to}`,
    direction,
    segments: [
      {
        ...segment,
        id: `${carrier}-${from}${to}`,
        carrier,
        carrier_name: NAMES[carrier] ?? carrier,
        from: { ...segment.from, code: from },
        to: { ...segment.to, code: to },
      },
    ],
  };
}

/** KBP → WAW → CDG, one itinerary on PS and one on LO. */
const option = (carrier: string): OriginDestination => ({
  ...optionKbpWaw(1),
  id: `od-${carrier}`,
  flights: [flight("outbound", carrier, "KBP", "WAW"), flight("onward", carrier, "WAW", "CDG")],
});
const result: SearchResult = {
  id: "SBX1-M",
  currency: "UAH",
  origin_destinations: [option("PS"), option("LO")],
};

function renderPanel(filters: SearchFilters = {}) {
  const onApply = jest.fn<(filters: SearchFilters) => void>();
  const onRemove = jest.fn<(keys: string[]) => void>();
  renderWithProviders(
    <FiltersPanel
      options={filterOptions(result)}
      filters={filters}
      currency="UAH"
      busy={false}
      onApply={onApply}
      onRemove={onRemove}
    />,
  );
  return { onApply, onRemove };
}

const sliceSection = (slice: number) =>
  screen.getAllByTestId("slice-filters").find((el) => el.dataset.slice === String(slice)) as HTMLElement;

describe("airline filter per slice", () => {
  it("when a multi-city result is filtered, then each slice lists the airlines of its flights", () => {
    renderPanel();
    for (const slice of [0, 1]) {
      const boxes = within(sliceSection(slice)).getAllByRole("checkbox", { name: /Airlines/ });
      expect(boxes.map((b) => b.getAttribute("aria-label"))).toEqual([
        expect.stringMatching(/LOT Polish Airlines LO$/),
        expect.stringMatching(/Ukraine International Airlines PS$/),
      ]);
    }
  });

  it("when the agent ticks LOT on flight 2, then only flight 2 is filtered on LOT, beside its other filters", () => {
    const { onApply } = renderPanel({ slices: [{ slice: 1, stops: [0] }] });
    fireEvent.click(within(sliceSection(1)).getByRole("checkbox", { name: /LOT Polish Airlines LO$/ }));
    expect(onApply).toHaveBeenCalledWith({ slices: [{ slice: 1, stops: [0], carriers: ["LO"] }] });
  });

  it("when the agent unticks the only airline of flight 1's filter, then that slice's filter goes", () => {
    const { onRemove, onApply } = renderPanel({ slices: [{ slice: 0, carriers: ["PS"] }] });
    const box = within(sliceSection(0)).getByRole("checkbox", { name: /Ukraine International Airlines PS$/ });
    expect(box).toBeChecked();
    fireEvent.click(box);
    expect(onRemove).toHaveBeenCalledWith(["slices"]);
    expect(onApply).not.toHaveBeenCalled();
  });
});
