import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { BookingComments } from "./booking-comments.tsx";

const LOCATOR = "E426RA";
let server: FakeServer | undefined;

beforeEach(() => resetApiClient());
afterEach(() => server?.restore());

function renderComments() {
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <BookingComments locator={LOCATOR} comments={[]} />
    </QueryClientProvider>,
  );
}

describe("a booking's comment box", () => {
  it("when only blanks are written, then says the comment is required and sends nothing", async () => {
    server = fakeServer({});
    renderComments();
    fireEvent.change(screen.getByRole("textbox", { name: "New comment" }), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    expect(await screen.findByText("Required")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("textbox", { name: "New comment" })).toHaveFocus());
    expect(server.calls).toEqual([]);
  });

  it("when written, then sends the trimmed comment and empties the box", async () => {
    server = fakeServer({ "POST /bookings/comment": { body: { locator: LOCATOR, position: "9-9" } } });
    renderComments();
    const box = screen.getByRole("textbox", { name: "New comment" });
    fireEvent.change(box, { target: { value: "  Window seats, please " } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await waitFor(() => expect(box).toHaveValue(""));
    expect(server.bodies["POST /bookings/comment"]).toEqual([
      { locator: LOCATOR, comment: "Window seats, please" },
    ]);
  });
});
