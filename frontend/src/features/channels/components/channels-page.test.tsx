import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import { sandboxChannel } from "../../../test-utils/channel-fixtures.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderApp } from "../../../test-utils/render-app.tsx";

let server: FakeServer | undefined;
beforeEach(() => {
  resetApiClient();
  window.localStorage.clear();
});
afterEach(() => {
  server?.restore();
  clearNotifications();
});

const supervisorSession = () => {
  const details = accountDetails();
  return { body: { ...details, account: { ...details.account, user_type: "Supervisor" } } };
};
const channel = sandboxChannel;
const history = {
  body: {
    data: [
      {
        event_id: "e1",
        event_type: "ChannelToggledBySupervisor",
        stream_id: "channel-ch1",
        stream_position: 2,
        at: "2026-11-24T08:00:00.000Z",
        actor: { user_id: "u1", role: "Supervisor", name: "Olena Koval" },
        source: "web",
        trace_id: "t1",
        agency_id: "a-dnipro",
        company_id: null,
        channel_id: "ch1",
        gate: null,
        field: "active_by_supervisor",
        before: true,
        after: false,
        link: "/ticketing/channel_history/e1",
      },
    ],
    meta: { page: 1, per_page: 25, total: 1 },
  },
};

describe("the channels page", () => {
  it("shows a supervisor the agency's channels and the audit of who changed what, before and after", async () => {
    server = fakeServer({
      "GET /account/details": supervisorSession(),
      "GET /ticketing/agency_channels": { body: { data: [channel] } },
      "GET /ticketing/channel_history": history,
    });
    renderApp("/channels");
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Ticketing channels and gates" },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText("NEGO1")).toBeInTheDocument();
    expect(await screen.findByText("Olena Koval")).toBeInTheDocument();
    expect(screen.getByText("On → Off")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open event" })).toHaveAttribute(
      "href",
      "/ticketing/channel_history/e1",
    );
    // Gates are administrators': a supervisor sees none, and cannot flip the administrator's switch.
    expect(screen.queryByRole("heading", { name: "Gates" })).not.toBeInTheDocument();
    expect(
      screen.getByRole("switch", { name: "Switch Sandbox NDC on or off for the platform" }),
    ).toBeDisabled();
  });

  it("switches a channel off at once, and puts it back on when the server refuses", async () => {
    server = fakeServer({
      "GET /account/details": supervisorSession(),
      "GET /ticketing/agency_channels": { body: { data: [channel] } },
      "GET /ticketing/channel_history": history,
      "PATCH /ticketing/agency_channels/ch1": {
        status: 422,
        body: {
          errors: [
            { status: "422", code: "not_now", title: "Not allowed now", detail: "Refused for the test" },
          ],
        },
      },
    });
    // The server's answer waits until the test has seen the switch flip.
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const scripted = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (new Headers(init?.headers).get("X-HTTP-Method-Override") === "PATCH") await answered;
      return scripted(input, init);
    }) as typeof fetch;
    renderApp("/channels");
    const toggle = await screen.findByRole(
      "switch",
      { name: "Switch Sandbox NDC on or off for the agency" },
      { timeout: 10_000 },
    );
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    answer();
    await waitFor(() => expect(toggle).toBeChecked());
    expect(server.bodies["PATCH /ticketing/agency_channels/ch1"]).toEqual([{ on_by_supervisor: false }]);
    await waitFor(() => expect(currentNotifications().map((n) => n.text)).toContain("Refused for the test"));
  });

  it("shows an administrator the gates; switching a partner off moves it out of the sellers' list at once", async () => {
    const details = accountDetails();
    server = fakeServer({
      "GET /account/details": { body: { ...details, account: { ...details.account, user_type: "Admin" } } },
      "GET /ticketing/agency_channels": { body: { data: [channel] } },
      "GET /ticketing/channel_history": history,
      "GET /ticketing/gates": [
        {
          body: {
            data: {
              main_gate: true,
              agency_gate: true,
              channel_gate: false,
              agencies: [{ id: "a-dnipro", name: "Dnipro Travel", active: true }],
              companies: [],
            },
          },
        },
        {
          body: {
            data: {
              main_gate: true,
              agency_gate: true,
              channel_gate: false,
              agencies: [{ id: "a-dnipro", name: "Dnipro Travel", active: false }],
              companies: [],
            },
          },
        },
      ],
      "PATCH /ticketing/agency_gates/a-dnipro": {
        body: { data: { id: "a-dnipro", active: false }, position: "9-91" },
      },
    });
    renderApp("/channels");
    const gate = await screen.findByRole(
      "switch",
      { name: "Channel gate (every channel)" },
      { timeout: 10_000 },
    );
    expect(gate).not.toBeChecked();
    expect(screen.getByRole("switch", { name: "Main gate (all selling)" })).toBeChecked();
    const partner = screen.getByRole("switch", { name: "Dnipro Travel" });
    expect(partner).toBeChecked();
    fireEvent.click(partner);
    await waitFor(() => expect(screen.getByRole("switch", { name: "Dnipro Travel" })).not.toBeChecked());
    expect(server.bodies["PATCH /ticketing/agency_gates/a-dnipro"]).toEqual([{ active: false }]);
    expect(
      screen.getByRole("switch", { name: "Switch Sandbox NDC on or off for the platform" }),
    ).toBeEnabled();
  });

  it("checks a card number before it leaves the page, and shows the credentials check's message in the spec's words", async () => {
    const details = accountDetails();
    server = fakeServer({
      "GET /account/details": { body: { ...details, account: { ...details.account, user_type: "Admin" } } },
      "GET /ticketing/agency_channels": { body: { data: [{ ...channel, credential: null }] } },
      "GET /ticketing/channel_history": history,
      "GET /ticketing/gates": {
        body: {
          data: { main_gate: true, agency_gate: true, channel_gate: true, agencies: [], companies: [] },
        },
      },
      "GET /credit_cards": { body: { data: [] } },
      "POST /ticketing/agency_channels/ch1/credential": {
        status: 201,
        body: {
          credential: { active: false, agency_id: "a-dnipro" },
          companies: [],
          messages: [{ type: "error", text: "Invalid credentials. Enter current cretentials." }],
          position: "9-92",
        },
      },
    });
    renderApp("/channels");
    fireEvent.click(await screen.findByRole("button", { name: "Settings" }, { timeout: 10_000 }));
    fireEvent.change(await screen.findByLabelText("Card number"), {
      target: { value: "4242 4242 4242 4241" },
    });
    fireEvent.change(screen.getByLabelText("Cardholder"), { target: { value: "IVAN PETRENKO" } });
    fireEvent.change(screen.getByLabelText("Expiry month"), { target: { value: "12" } });
    fireEvent.change(screen.getByLabelText("Expiry year"), { target: { value: "2030" } });
    fireEvent.click(screen.getByRole("button", { name: "Add card" }));
    expect(await screen.findByText("Enter a valid card number")).toBeInTheDocument();
    expect(server.calls).not.toContain("POST /credit_cards/");

    fireEvent.change(screen.getByLabelText("Login"), { target: { value: "agency" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "invalid" } });
    fireEvent.click(screen.getByRole("button", { name: "Save and check" }));
    expect(await screen.findByText("Invalid credentials. Enter current cretentials.")).toBeInTheDocument();
    expect(server.bodies["POST /ticketing/agency_channels/ch1/credential"]).toEqual([
      { credential: { login: "agency", password: "invalid" } },
    ]);
  });
});
