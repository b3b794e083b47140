import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { sandboxChannel } from "../../../test-utils/channel-fixtures.ts";
import {
  type FakeReply,
  type FakeServer,
  fakeServer,
  fieldRefusal,
} from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import type { Channel } from "../api/channels.ts";
import { ChannelSettings } from "./channel-settings.tsx";

const channel: Channel = { ...sandboxChannel, credential: null };
let server: FakeServer | undefined;
let closed = 0;

beforeEach(() => {
  resetApiClient();
  closed = 0;
});
afterEach(() => server?.restore());

function renderSettings(routes: Record<string, FakeReply>) {
  server = fakeServer({ "GET /credit_cards": { body: { data: [] } }, ...routes });
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <ChannelSettings channel={channel} administrator onClose={() => closed++} />
    </QueryClientProvider>,
  );
}

describe("a channel's settings forms", () => {
  it("when the credentials are left empty, then each field says what to enter and nothing is sent", async () => {
    renderSettings({});
    fireEvent.click(await screen.findByRole("button", { name: "Save and check" }));
    expect(await screen.findByText("Enter the login")).toBeInTheDocument();
    expect(screen.getByText("Enter the password")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Login" })).toHaveFocus());
    expect(server?.calls.filter((call) => call.startsWith("POST"))).toEqual([]);
  });

  it("when a card is valid, then sends it as the contract reads it and empties the fields", async () => {
    renderSettings({
      "POST /credit_cards/": {
        status: 201,
        body: {
          data: {
            id: "card1",
            brand: "visa",
            last4: "4242",
            exp_month: 12,
            exp_year: 2031,
            holder: "OLHA HUTSUL",
          },
        },
      },
    });
    fireEvent.change(await screen.findByLabelText("Card number"), {
      target: { value: "4242 4242 4242 4242" },
    });
    fireEvent.change(screen.getByLabelText("Cardholder"), { target: { value: "OLHA HUTSUL" } });
    fireEvent.change(screen.getByLabelText("Expiry month"), { target: { value: "12" } });
    fireEvent.change(screen.getByLabelText("Expiry year"), { target: { value: "2031" } });
    fireEvent.click(screen.getByRole("button", { name: "Add card" }));
    expect(await screen.findByText("Card ending in 4242 added")).toBeInTheDocument();
    expect(server?.bodies["POST /credit_cards/"]).toEqual([
      {
        credit_card: {
          number: "4242424242424242",
          exp_month: 12,
          exp_year: 2031,
          holder: "OLHA HUTSUL",
          agency_id: "a-dnipro",
        },
      },
    ]);
    expect(screen.getByLabelText("Card number")).toHaveValue("");
  });

  it("saves the settings, and shows the server's refusal beside its field", async () => {
    renderSettings({
      "PATCH /ticketing/agency_channels/ch1": fieldRefusal(
        "/nego_code",
        "nego_code must be at most 20 characters",
      ),
    });
    fireEvent.change(await screen.findByLabelText("Nego code"), { target: { value: "N".repeat(21) } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("must be at most 20 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Nego code")).toHaveAttribute("aria-invalid", "true");
    expect(server?.bodies["PATCH /ticketing/agency_channels/ch1"]).toEqual([
      {
        form_of_payment: "balance",
        ticketing_credit_card_id: null,
        nego_code: "N".repeat(21),
        // An empty code is sent as the contract reads it: cleared.
        resident_fares_code: null,
      },
    ]);
    expect(closed).toBe(0);
  });

  it("when a code holds what the contract refuses, then the field says what it may hold and nothing is sent", async () => {
    renderSettings({});
    const code = await screen.findByLabelText("Resident fares code");
    fireEvent.change(code, { target: { value: "RES;1" } });
    fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("Up to 50 letters, digits, spaces and _ . / -")).toBeInTheDocument();
    expect(code).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(code).toHaveFocus());
    expect(server?.bodies["PATCH /ticketing/agency_channels/ch1"]).toBeUndefined();
    expect(closed).toBe(0);
  });
});
