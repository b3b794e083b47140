import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { TextSearch } from "./text-search.tsx";

let server: FakeServer | undefined;
beforeEach(() => resetApiClient());
afterEach(() => server?.restore());

function renderLine() {
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <TextSearch onSearch={() => {}} resultId={null} onApplyFilters={() => {}} />
    </QueryClientProvider>,
  );
  return screen.getByRole("textbox", { name: /^Describe the trip/ });
}

/** The server's reading of a line: a one-way economy search for one adult, with what a test adds. */
function lineRead({
  search = {},
  chips = [],
  unrecognised = [],
}: {
  search?: object;
  chips?: object[];
  unrecognised?: string[];
}) {
  return {
    search: {
      trip: "one_way",
      passengers: { adults: 1, children: 0, infants: 0 },
      cabin: "economy",
      direct_only: false,
      ...search,
    },
    chips,
    unrecognised,
    source: "embedded",
  };
}

describe("the search line", () => {
  it("when read while blank, then says a line is required at the field and sends nothing", async () => {
    server = fakeServer({});
    const box = renderLine();
    fireEvent.change(box, { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Read" }));
    // The line's schema is a lazy chunk (checks.ts): its first import under Jest can outlast findBy's default 1 s.
    expect(await screen.findByText("Required", undefined, { timeout: 15_000 })).toBeInTheDocument();
    expect(box).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(box).toHaveFocus());
    expect(server.calls).toEqual([]);
  });

  it("when a line is written, then sends it trimmed to be read", async () => {
    server = fakeServer({ "POST /text_search": { body: lineRead({ unrecognised: ["tomorrow-ish"] }) } });
    const box = renderLine();
    fireEvent.change(box, { target: { value: "  Kyiv Warsaw tomorrow-ish " } });
    fireEvent.click(screen.getByRole("button", { name: "Read" }));
    await waitFor(() => expect(server?.bodies["POST /text_search"]).toHaveLength(1));
    expect(server.bodies["POST /text_search"]?.[0]).toMatchObject({
      text: "Kyiv Warsaw tomorrow-ish",
      language: "en",
    });
    expect(screen.queryByText("Required")).not.toBeInTheDocument();
  });

  it("when a chip is edited to a value its kind cannot take, then the editor says why and the chip keeps its value", async () => {
    const chip = (kind: string, value: string, text: string) => ({ kind, value, text, span: null });
    server = fakeServer({
      "POST /text_search": {
        body: lineRead({
          search: { carriers: ["LO"] },
          chips: [chip("carrier", "LO", "LOT"), chip("adults", "1", "one adult")],
        }),
      },
    });
    const box = renderLine();
    fireEvent.change(box, { target: { value: "LOT one adult" } });
    fireEvent.click(screen.getByRole("button", { name: "Read" }));
    fireEvent.click(await screen.findByRole("button", { name: "Change Airline: LO" }));
    const airline = await screen.findByRole("textbox", { name: "Airline" });
    fireEvent.change(airline, { target: { value: "l" } });
    expect(airline).toHaveValue("L");
    // Enter applies the chip's own form, never the search line's (one line read, not two).
    fireEvent.submit(airline);
    expect(await screen.findByText("A two-character airline code, e.g. LO")).toBeInTheDocument();
    expect(airline).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("button", { name: "Change Airline: LO" })).toBeInTheDocument();

    fireEvent.change(airline, { target: { value: "w6" } });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(await screen.findByRole("button", { name: "Change Airline: W6" })).toBeInTheDocument();
    expect(server.bodies["POST /text_search"]).toHaveLength(1);
  });

  it("when the line had a misspelt city or cannot be searched as it is, then the correction and the question back are said", async () => {
    server = fakeServer({
      "POST /text_search": {
        body: {
          ...lineRead({
            search: { origin: "LHR" },
            chips: [
              {
                kind: "origin",
                value: "LHR",
                label: "London",
                text: "Lodnon",
                span: { start: 0, end: 6 },
              },
            ],
          }),
          corrections: [{ from: "Lodnon", to: "London" }],
          ask_back: { code: "return_before_departure", text: "" },
        },
      },
    });
    const box = renderLine();
    fireEvent.change(box, { target: { value: "Lodnon to Porto on Jan 8, back Jan 3" } });
    fireEvent.click(screen.getByRole("button", { name: "Read" }));
    expect(await screen.findByText("Read “Lodnon” as London")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent(
      "The return is before the departure: which dates did you mean?",
    );
  });
});
