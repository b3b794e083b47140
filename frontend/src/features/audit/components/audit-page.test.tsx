import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import type { AuditView } from "../audit-view.ts";
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

/** The views the page put in its address, in order. */
let views: AuditView[] = [];

/** The page with its address kept as the route keeps it (a view in, the next view out). */
function Addressed({ initial }: { initial: AuditView }) {
  const [view, setView] = useState(initial);
  return (
    <AuditPage
      canVerify={false}
      canSwitch={false}
      view={view}
      onView={(next) => {
        views.push(next);
        setView(next);
      }}
    />
  );
}

function renderAudit(initial: AuditView = {}) {
  views = [];
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <Addressed initial={initial} />
    </QueryClientProvider>,
  );
}

/** A picker's text field (its list of names is labelled by the same words). */
const picker = (label: string) =>
  screen.getAllByLabelText(label).find((element) => element.tagName === "INPUT") as HTMLInputElement;

/** A local time as the form holds it. */
const local = (day: number, hour: number) => `2026-11-${day}T${String(hour).padStart(2, "0")}:00`;

/** Types a moment as the site writes it: the date DD.MM.YYYY, the time on a 24-hour clock. */
function typeMoment(label: string, day: number, hour: number) {
  fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value: `${day}.11.2026` } });
  fireEvent.change(screen.getByRole("textbox", { name: `${label}: time` }), {
    target: { value: `${String(hour).padStart(2, "0")}:00` },
  });
}

describe("the audit screen's history filters", () => {
  it("when the range ends before it starts, then says so at the end's field and asks nothing", async () => {
    serve({});
    renderAudit();
    typeMoment("From", 24, 10);
    typeMoment("To", 23, 10);
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
    typeMoment("From", 23, 10);
    fireEvent.click(screen.getByRole("button", { name: "Show events" }));
    expect(await screen.findByText("No events match.")).toBeInTheDocument();
    const query = new URLSearchParams(urls.find((url) => url.startsWith("/audit/events?"))?.split("?")[1]);
    expect(Object.fromEntries(query)).toEqual({
      locator: "E426RA",
      from: new Date(local(23, 10)).toISOString(),
      limit: "50",
    });
    expect(views.at(-1)).toEqual({
      shown: true,
      locator: "E426RA",
      from: new Date(local(23, 10)).toISOString(),
    });
  });

  it("when the address names filters (a reload), then shows those events at once, the actor by name, the event's name whole", async () => {
    const from = new Date(local(23, 10)).toISOString();
    serve({
      "GET /audit/names": {
        body: {
          data: { people: [{ id: "u-olena", name: "Olena Kovalenko", role: "Supervisor" }], companies: [] },
        },
      },
      "GET /audit/events": {
        body: {
          data: {
            events: [
              {
                seq: 7,
                global_position: "7",
                stream_id: "channel-c1",
                stream_position: 2,
                event_id: "e-7",
                type: "AgencyChannelSwitchedOffBySupervisor",
                recorded_at: "2026-11-23T10:00:05.000Z",
                data: {},
                metadata: {
                  actor: { user_id: "u-olena", role: "Supervisor" },
                  source: "web",
                  trace_id: "t-1",
                },
                actor_name: "Olena Kovalenko",
                hash: "a".repeat(64),
              },
            ],
            next_after_seq: null,
          },
        },
      },
    });
    renderAudit({ shown: true, stream_id: "channel-c1", actor_id: "u-olena", from });
    const history = await screen.findByRole("table", { name: "Event history" });
    expect(history).toHaveTextContent("AgencyChannelSwitchedOffBySupervisor");
    expect(history).toHaveTextContent("Olena Kovalenko (Supervisor)");
    const query = new URLSearchParams(urls.find((url) => url.startsWith("/audit/events?"))?.split("?")[1]);
    expect(Object.fromEntries(query)).toEqual({
      stream_id: "channel-c1",
      actor_id: "u-olena",
      from,
      limit: "50",
    });
    // The form shows the same filters: the actor by name, the moment in the site's order.
    expect(screen.getByRole("textbox", { name: "Stream" })).toHaveValue("channel-c1");
    await waitFor(() => expect(picker("Actor")).toHaveValue("Olena Kovalenko (Supervisor)"));
    expect(screen.getByRole("textbox", { name: "From" })).toHaveValue("23.11.2026");
    expect(screen.getByRole("textbox", { name: "From: time" })).toHaveValue("10:00:00");
  });

  it("when a name is typed in the actor's picker, then the person found is the filter, by id", async () => {
    serve({
      "GET /audit/names": {
        body: { data: { people: [{ id: "u-taras", name: "Taras Shevchuk", role: "Agent" }], companies: [] } },
      },
      "GET /audit/events": { body: { data: { events: [], next_after_seq: null } } },
    });
    renderAudit();
    // Typed, as a person types: the field has the focus (Mantine takes a change without it for autofill).
    act(() => picker("Actor").focus());
    fireEvent.change(picker("Actor"), { target: { value: "Shev" } });
    fireEvent.click(await screen.findByRole("option", { name: "Taras Shevchuk (Agent)" }, { timeout: 3000 }));
    fireEvent.click(screen.getByRole("button", { name: "Show events" }));
    expect(await screen.findByText("No events match.")).toBeInTheDocument();
    expect(urls).toContain("/audit/names?q=Shev");
    expect(views.at(-1)).toEqual({ shown: true, actor_id: "u-taras" });
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
    typeMoment("As of", 23, 10);
    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    expect(await screen.findByText("Nothing had happened yet at that moment.")).toBeInTheDocument();
    expect(urls).toContain(
      `/audit/as_of/booking/E426RA?at=${encodeURIComponent(new Date(local(23, 10)).toISOString())}`,
    );
  });
});
