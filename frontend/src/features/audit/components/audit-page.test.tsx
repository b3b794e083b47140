import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { AuditPage } from "./audit-page.tsx";

let server: FakeServer | undefined;
/** The URLs asked, with their queries (the fake server records paths only). */
let urls: string[] = [];

function serve(routes: Parameters<typeof fakeServer>[0]) {
  server = fakeServer(routes);
  const answer = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input));
    return answer(input, init);
  }) as typeof fetch;
}

beforeEach(() => {
  resetApiClient();
  urls = [];
});
afterEach(() => server?.restore());

function renderAudit() {
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <AuditPage canVerify={false} canSwitch={false} />
    </QueryClientProvider>,
  );
}

/** A datetime-local field's value for a local time. */
const local = (day: number, hour: number) => `2026-11-${day}T${String(hour).padStart(2, "0")}:00`;

describe("the audit screen's history filters", () => {
  it("when the range ends before it starts, then says so at the end's field and asks nothing", async () => {
    serve({});
    renderAudit();
    fireEvent.change(screen.getByLabelText("From"), { target: { value: local(24, 10) } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: local(23, 10) } });
    fireEvent.change(screen.getByLabelText("Trace id"), { target: { value: "t".repeat(201) } });
    fireEvent.click(screen.getByRole("button", { name: "Show events" }));
    expect(await screen.findByText("Cannot be before the start")).toBeInTheDocument();
    expect(screen.getByText("At most 200 characters")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Trace id")).toHaveFocus());
    expect(urls).toEqual([]);
  });

  it("when valid, then asks for the events with the filters given, trimmed, and the times as instants", async () => {
    serve({ "GET /audit/events": { body: { data: { events: [], next_after_seq: null } } } });
    renderAudit();
    fireEvent.change(screen.getByLabelText("Booking locator"), { target: { value: " E426RA " } });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: local(23, 10) } });
    fireEvent.click(screen.getByRole("button", { name: "Show events" }));
    expect(await screen.findByText("No events match.")).toBeInTheDocument();
    const query = new URLSearchParams(urls.find((url) => url.startsWith("/audit/events?"))?.split("?")[1]);
    expect(Object.fromEntries(query)).toEqual({
      locator: "E426RA",
      from: new Date(local(23, 10)).toISOString(),
      limit: "50",
    });
  });
});

describe("the audit screen's time travel", () => {
  it("when the id or the moment is missing, then says they are required and asks nothing", async () => {
    serve({});
    renderAudit();
    fireEvent.click(screen.getByRole("tab", { name: "Time travel" }));
    fireEvent.click(await screen.findByRole("button", { name: "Show" }));
    expect(await screen.findAllByText("Required")).toHaveLength(2);
    expect(screen.getByLabelText("Locator or id")).toHaveAttribute("aria-invalid", "true");
    expect(urls).toEqual([]);
  });

  it("when valid, then asks for the stream's state as of that instant", async () => {
    serve({
      "GET /audit/as_of/booking/E426RA": {
        body: {
          data: {
            kind: "booking",
            id: "E426RA",
            stream_id: "booking-E426RA",
            as_of: { at: new Date(local(23, 10)).toISOString(), version: 0, state: null, last_event: null },
            compared: null,
            changes: [],
          },
        },
      },
    });
    renderAudit();
    fireEvent.click(screen.getByRole("tab", { name: "Time travel" }));
    fireEvent.change(await screen.findByLabelText("Locator or id"), { target: { value: "E426RA " } });
    fireEvent.change(screen.getByLabelText("As of"), { target: { value: local(23, 10) } });
    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    expect(await screen.findByText("Nothing had happened yet at that moment.")).toBeInTheDocument();
    expect(urls).toContain(
      `/audit/as_of/booking/E426RA?at=${encodeURIComponent(new Date(local(23, 10)).toISOString())}`,
    );
  });
});
