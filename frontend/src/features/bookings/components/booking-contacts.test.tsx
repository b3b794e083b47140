import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { setSiteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer, fieldRefusal } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { BookingContacts } from "./booking-contacts.tsx";

const LOCATOR = "E426RA";
const contacts = { email: "petrenko@example.com", phone: "+380501112233" };
let server: FakeServer | undefined;

beforeEach(() => resetApiClient());
afterEach(async () => {
  server?.restore();
  clearNotifications();
  await act(() => setSiteLanguage("en"));
});

function editContacts(edit = "Edit contacts") {
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <BookingContacts locator={LOCATOR} contacts={contacts} editable />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: edit }));
}

describe("a booking's contacts form", () => {
  it("when the phone is not an international number, then says so at the field and sends nothing", async () => {
    server = fakeServer({});
    editContacts();
    fireEvent.change(screen.getByLabelText("Phone"), { target: { value: "050 111 22 33" } });
    fireEvent.change(screen.getByLabelText("E-mail"), { target: { value: " " } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("International format: + and 7 to 15 digits")).toBeInTheDocument();
    expect(screen.getByLabelText("Phone")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Required")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("E-mail")).toHaveFocus());
    expect(server.calls).toEqual([]);
  });

  it("words the field's problem in the interface language", async () => {
    server = fakeServer({});
    await act(() => setSiteLanguage("pl"));
    editContacts("Zmień kontakt");
    fireEvent.change(screen.getByLabelText("Telefon"), { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Zapisz" }));
    expect(await screen.findByText("Format międzynarodowy: + i od 7 do 15 cyfr")).toBeInTheDocument();
  });

  it("when valid, then sends only what changed, tidied as the contract wants it, and closes the form", async () => {
    server = fakeServer({ "POST /bookings/modify": { body: { locator: LOCATOR, position: "9-9" } } });
    editContacts();
    fireEvent.change(screen.getByLabelText("Phone"), { target: { value: "+38 (050) 111-22-44" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByLabelText("Phone")).not.toBeInTheDocument());
    expect(server.bodies["POST /bookings/modify"]).toEqual([
      { locator: LOCATOR, contacts: { phone: "+380501112244" } },
    ]);
    expect(currentNotifications().map((n) => n.text)).toContain(`Contacts of booking ${LOCATOR} are updated`);
  });

  it("shows the server's refusal beside its field", async () => {
    server = fakeServer({
      "POST /bookings/modify": fieldRefusal(
        "/contacts/email",
        "contacts.email is not accepted by the airline",
      ),
    });
    editContacts();
    fireEvent.change(screen.getByLabelText("E-mail"), { target: { value: "olena@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("is not accepted by the airline")).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toHaveAttribute("aria-invalid", "true");
  });
});
