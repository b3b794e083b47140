import { describe, expect, it, jest } from "@jest/globals";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderWithProviders } from "../test-utils/render.tsx";
import { type HistoryColumn, HistoryPanel, type HistoryQuery } from "./history-panel.tsx";

interface Row {
  event_id: string;
  at: string;
  who: string;
}

const columns: HistoryColumn<Row>[] = [
  { key: "at", header: "When", cell: (row) => row.at, td: { style: { whiteSpace: "nowrap" } } },
  { key: "who", header: "Who", cell: (row) => <strong>{row.who}</strong> },
];
const labels = { loading: "Loading", empty: "Nothing yet", previous: "Previous page", next: "Next page" };

function panel(
  history: HistoryQuery<Row>,
  extra: { unavailable?: string; onPage?: (page: number) => void } = {},
) {
  renderWithProviders(
    <HistoryPanel
      id="changes-heading"
      heading="Changes"
      history={history}
      columns={columns}
      page={1}
      pageSize={2}
      onPage={extra.onPage ?? (() => {})}
      labels={{ ...labels, ...(extra.unavailable ? { unavailable: extra.unavailable } : {}) }}
      minWidth={600}
    >
      <button type="button">Filter</button>
    </HistoryPanel>,
  );
}

describe("HistoryPanel (the history of channels, directory changes and balance movements)", () => {
  it("when a page has events, then the section named by its heading shows the caller's filters, one row per event keyed by its id, and the pages", () => {
    const onPage = jest.fn<(page: number) => void>();
    panel(
      {
        isPending: false,
        isError: false,
        data: {
          data: [
            { event_id: "e-1", at: "10:00", who: "Olena" },
            { event_id: "e-2", at: "11:00", who: "Marek" },
          ],
          meta: { total: 5 },
        },
      },
      { onPage },
    );
    const section = screen.getByRole("region", { name: "Changes" });
    expect(within(section).getByRole("button", { name: "Filter" })).toBeInTheDocument();
    expect(
      within(section)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["When", "Who"]);
    const rows = within(section).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.getAttribute("data-event-id"))).toEqual(["e-1", "e-2"]);
    expect(within(rows[1] as HTMLElement).getByText("Marek").tagName).toBe("STRONG");
    expect(within(rows[0] as HTMLElement).getByText("10:00")).toHaveStyle({ whiteSpace: "nowrap" });
    // Five events two a page: three pages.
    expect(within(section).getByRole("button", { name: "3" })).toBeInTheDocument();
    fireEvent.click(within(section).getByRole("button", { name: "Next page" }));
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it("when the history is loading, failed or empty, then it says so, a failure as empty unless told how to say it", () => {
    panel({ isPending: true, isError: false });
    expect(screen.getByLabelText("Loading")).toBeInTheDocument();
    document.body.innerHTML = "";
    panel({ isPending: false, isError: true }, { unavailable: "History unavailable" });
    expect(screen.getByText("History unavailable")).toBeInTheDocument();
    document.body.innerHTML = "";
    panel({ isPending: false, isError: true });
    expect(screen.getByText("Nothing yet")).toBeInTheDocument();
    document.body.innerHTML = "";
    panel({ isPending: false, isError: false, data: { data: [], meta: { total: 0 } } });
    expect(screen.getByText("Nothing yet")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Next page" })).not.toBeInTheDocument();
  });
});
