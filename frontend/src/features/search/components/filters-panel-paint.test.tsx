import { describe, expect, it, jest } from "@jest/globals";
import type { SearchFilters } from "@skyward/contracts/search";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import type { FilterOptions } from "./filter-options.ts";
import { FiltersPanel } from "./filters-panel.tsx";

const options: FilterOptions = {
  stops: [0, 1],
  carriers: [
    { code: "PS", name: "Ukraine International Airlines", from: 1_000_00 },
    { code: "LO", name: "LOT Polish Airlines", from: 1_200_00 },
  ],
  price: { min: 1_000_00, max: 3_000_00 },
  hasBaggageChoice: true,
  slices: [],
};

/**
 * Issue 27's interaction budget: with 300 offers on the page, an input paints its own answer before the page (and
 * the server) follow it, so the click's next paint is the box's, not the page's.
 */
describe("filters panel", () => {
  it("ticks an airline at once and applies the filter only after that paint; unticks it the same way", async () => {
    const onApply = jest.fn<(filters: SearchFilters) => void>();
    const onRemove = jest.fn();
    const { rerender } = renderWithProviders(
      <FiltersPanel
        options={options}
        filters={{}}
        currency="UAH"
        busy={false}
        onApply={onApply}
        onRemove={onRemove}
      />,
    );
    const box = screen.getByRole("checkbox", { name: "Ukraine International Airlines PS" });
    fireEvent.click(box);
    expect(box).toBeChecked();
    expect(onApply).not.toHaveBeenCalled();
    await waitFor(() => expect(onApply).toHaveBeenCalledWith({ carriers: ["PS"] }));

    // The server's answer keeps it ticked; unticking removes the filter, again after the box's own paint.
    rerender(
      <FiltersPanel
        options={options}
        filters={{ carriers: ["PS"] }}
        currency="UAH"
        busy={false}
        onApply={onApply}
        onRemove={onRemove}
      />,
    );
    expect(box).toBeChecked();
    fireEvent.click(box);
    expect(box).not.toBeChecked();
    expect(onRemove).not.toHaveBeenCalled();
    await waitFor(() => expect(onRemove).toHaveBeenCalledWith(["carriers"]));
  });
});
