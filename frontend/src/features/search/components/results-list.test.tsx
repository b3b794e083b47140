import { describe, expect, it } from "@jest/globals";
import type { OriginDestination } from "@skyward/contracts/offers";
import { fireEvent, screen } from "@testing-library/react";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { optionKbpWaw } from "../../../test-utils/travel-fixtures.ts";
import { RESULTS_WINDOW, ResultsList } from "./results-list.tsx";

/** `count` itineraries, each its own id and fare ids, as a search of issue 27's scale answers them. */
function options(count: number): OriginDestination[] {
  return Array.from({ length: count }, (_, index) => {
    const option = optionKbpWaw();
    option.id = `option-${index}`;
    option.fares = option.fares.map((fare) => ({ ...fare, fare_id: `${fare.fare_id}-${index}` }));
    return option;
  });
}

const list = (items: OriginDestination[]) => (
  <ResultsList
    resultId="result-1"
    options={items}
    passengers={1}
    cheapest={null}
    families={["light", "standard", "flex"]}
    onSelect={() => {}}
    onDetails={() => {}}
  />
);

describe("results list", () => {
  it("renders a window of a 300-itinerary result, and the next window when asked", () => {
    renderWithProviders(list(options(300)));
    expect(screen.getAllByRole("article")).toHaveLength(RESULTS_WINDOW);
    fireEvent.click(
      screen.getByRole("button", { name: `Show ${RESULTS_WINDOW} more (of ${300 - RESULTS_WINDOW} left)` }),
    );
    expect(screen.getAllByRole("article")).toHaveLength(2 * RESULTS_WINDOW);
  });

  it("shows a small result whole, with nothing more to ask for", () => {
    renderWithProviders(list(options(12)));
    expect(screen.getAllByRole("article")).toHaveLength(12);
    expect(screen.queryByRole("button", { name: /^Show \d+ more/ })).toBeNull();
  });

  it("keeps the same card elements when a filtered answer (sent afresh) lists fewer of the same itineraries", () => {
    const all = options(RESULTS_WINDOW);
    const { rerender } = renderWithProviders(list(all));
    const before = screen.getAllByRole("article");
    // A filtered answer: new objects from the server, every other itinerary.
    const filtered = (JSON.parse(JSON.stringify(all)) as OriginDestination[]).filter(
      (_, index) => index % 2 === 0,
    );
    rerender(list(filtered));
    const after = screen.getAllByRole("article");
    expect(after).toHaveLength(RESULTS_WINDOW / 2);
    expect(after.every((card, index) => card === before[index * 2])).toBe(true);
  });
});
