import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderApp } from "../../../test-utils/render-app.tsx";

let server: FakeServer | undefined;
beforeEach(() => {
  resetApiClient();
  window.localStorage.clear();
});
afterEach(() => server?.restore());

const adminSession = () => {
  const details = accountDetails();
  return { body: { ...details, account: { ...details.account, user_type: "Admin" } } };
};

const requestBox = () => screen.findByRole("textbox", { name: "Your request" }, { timeout: 10_000 });

describe("the assistant's request box", () => {
  it("when Enter is pressed on blanks, then says a request is required and asks nothing", async () => {
    server = fakeServer({ "GET /account/details": adminSession() });
    renderApp("/assistant");
    const box = await requestBox();
    fireEvent.change(box, { target: { value: "   " } });
    expect(screen.getByRole("button", { name: "Ask" })).toBeDisabled();
    fireEvent.keyDown(box, { key: "Enter" });
    expect(await screen.findByText("Required")).toBeInTheDocument();
    expect(box).toHaveAttribute("aria-invalid", "true");
    expect(server.calls).not.toContain("POST /admin_panel/ask");
  });

  it("when a request is written, then sends it trimmed and empties the box", async () => {
    server = fakeServer({
      "GET /account/details": adminSession(),
      "POST /admin_panel/ask": {
        body: { kind: "not_understood", preview: { code: "not_understood", params: {}, text: "" } },
      },
    });
    renderApp("/assistant");
    const box = await requestBox();
    fireEvent.change(box, { target: { value: "  switch off Sandbox NDC " } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(box).toHaveValue(""));
    expect(server.bodies["POST /admin_panel/ask"]).toEqual([
      { text: "switch off Sandbox NDC", locale: "en" },
    ]);
  });
});
