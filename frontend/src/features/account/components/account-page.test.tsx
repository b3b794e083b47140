import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { formatInstant } from "../../../lib/date-format.ts";
import { setSiteLanguage, siteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import { type FakeServer, fakeServer, unauthorized } from "../../../test-utils/fake-server.ts";
import { renderApp } from "../../../test-utils/render-app.tsx";

let server: FakeServer | undefined;

beforeEach(() => {
  resetApiClient();
  window.localStorage.clear();
});
afterEach(async () => {
  server?.restore();
  clearNotifications();
  await act(() => setSiteLanguage("en"));
});

const profile = (changes: Record<string, unknown> = {}) => ({
  body: {
    data: {
      skyward_id: "u-taras",
      email: "agent@dnipro.test",
      first_name: "Taras",
      last_name: "Shevchuk",
      user_type: "Agent",
      phone: "+380671112233",
      language: "en",
      onboarding: "done",
      terms_version: "2026-11",
      ...changes,
    },
    position: "9-90",
  },
});

describe("the account page", () => {
  it("sends an anonymous visitor to sign in, to come back afterwards", async () => {
    server = fakeServer({ "GET /account/details": unauthorized });
    const { router } = renderApp("/account");
    expect(await screen.findByRole("heading", { level: 1, name: "Sign in to Skyward" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign_in");
    expect(router.state.location.search).toEqual({ redirect: "/account" });
    expect(currentNotifications()).toEqual([]);
  });

  it("sends an account still in onboarding to finish it first", async () => {
    server = fakeServer({ "GET /account/details": { body: accountDetails("privacy") } });
    const { router } = renderApp("/account");
    expect(await screen.findByRole("heading", { level: 2, name: "Privacy and terms" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/onboarding");
    expect(screen.getByRole("link", { name: "communication policy" })).toHaveAttribute(
      "href",
      "/legal/communication-policy",
    );
  });

  it("shows the account's details and settings", async () => {
    server = fakeServer({ "GET /account/details": { body: accountDetails() } });
    renderApp("/account");
    expect(await screen.findByRole("heading", { level: 1, name: "Taras Shevchuk" })).toBeInTheDocument();
    expect(screen.getByLabelText(/^First name/)).toHaveValue("Taras");
    expect(screen.getByLabelText(/^Phone/)).toHaveValue("+380671112233");
    expect(screen.getByTestId("account-email")).toHaveTextContent("agent@dnipro.test");
    expect(screen.getByText("Dnipro Travel Kyiv")).toBeInTheDocument();
    expect(screen.getByText("No token")).toBeInTheDocument();
  });

  it("saves changed names with PUT /account/details", async () => {
    server = fakeServer({
      "GET /account/details": { body: accountDetails() },
      "PUT /account/details": profile({ last_name: "Shevchenko" }),
    });
    renderApp("/account");
    fireEvent.change(await screen.findByLabelText(/^Last name/), { target: { value: "Shevchenko" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(currentNotifications().map((n) => n.text)).toContain("Your details were saved."),
    );
    expect(server.bodies["PUT /account/details"]).toEqual([
      { account: { first_name: "Taras", last_name: "Shevchenko", phone: "+380671112233" } },
    ]);
  });

  it("checks the names and phone before saving, and says what is wrong beside the field", async () => {
    server = fakeServer({ "GET /account/details": { body: accountDetails() } });
    renderApp("/account");
    const phone = await screen.findByLabelText(/^Phone/);
    fireEvent.change(phone, { target: { value: "0671112233" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(
      await screen.findByText("Enter an international number such as +380441234567."),
    ).toBeInTheDocument();
    expect(phone).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(phone).toHaveFocus());
    expect(server.calls).not.toContain("PUT /account/details");
  });

  it("checks the new e-mail address before asking for a code", async () => {
    server = fakeServer({ "GET /account/details": { body: accountDetails() } });
    renderApp("/account");
    fireEvent.click(await screen.findByRole("button", { name: "Change e-mail" }));
    const address = await screen.findByLabelText(/^New e-mail/);
    fireEvent.change(address, { target: { value: "taras@" } });
    fireEvent.click(screen.getByRole("button", { name: "Send code" }));
    expect(await screen.findByText("Enter an e-mail address such as name@agency.com")).toBeInTheDocument();
    expect(address).toHaveAttribute("aria-invalid", "true");
    expect(server.calls.filter((call) => call.startsWith("PUT") || call.startsWith("POST"))).toEqual([]);
  });

  it("changes the account's language with update_locale and applies it to the site", async () => {
    server = fakeServer({
      "GET /account/details": { body: accountDetails() },
      "PUT /account/details/update_locale": profile({ language: "fr" }),
    });
    renderApp("/account");
    fireEvent.click(await screen.findByRole("combobox", { name: "Account language" }));
    fireEvent.click(await screen.findByRole("option", { name: "Français" }));
    await waitFor(() => expect(siteLanguage()).toBe("fr"));
    expect(server.bodies["PUT /account/details/update_locale"]).toEqual([{ language: "fr" }]);
    await waitFor(() =>
      expect(currentNotifications().map((n) => n.text)).toContain(
        "La langue de votre compte a été modifiée.",
      ),
    );
  });

  it("shows a new API token once, with a copy button and a warning", async () => {
    server = fakeServer({
      "GET /account/details": { body: accountDetails() },
      "PUT /account/api_token": { body: { data: { token: "sky_secret-token-123" }, position: "9-91" } },
    });
    renderApp("/account");
    fireEvent.click(await screen.findByRole("button", { name: "Generate token" }));
    expect(await screen.findByTestId("api-token")).toHaveTextContent("sky_secret-token-123");
    expect(screen.getByText("Copy your token now")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy token" })).toBeInTheDocument();
  });

  it("shows when the API token was last used, and revokes it with DELETE /account/api_token after asking", async () => {
    let revoked = false;
    const withToken = () => {
      const details = accountDetails();
      return { body: { ...details, settings: { ...details.settings, api_token: !revoked } } };
    };
    server = fakeServer({
      "GET /account/details": () => withToken(),
      "GET /account/api_token": () => ({
        body: {
          data: revoked
            ? { active: false, created_at: null, last_used_at: null }
            : {
                active: true,
                created_at: "2026-11-20T08:00:00.000Z",
                last_used_at: "2026-11-27T14:05:00.000Z",
              },
        },
      }),
      "DELETE /account/api_token": () => {
        revoked = true;
        return { body: { data: null, position: "9-92" } };
      },
    });
    renderApp("/account");
    expect(await screen.findByTestId("api-token-last-use")).toHaveTextContent(
      `Last used ${formatInstant("2026-11-27T14:05:00.000Z", "en")}`,
    );
    expect(screen.getByText("Token issued")).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Revoke token" }));
    const dialog = await screen.findByRole("dialog", { name: "Revoke the API token?" });
    expect(server.calls).not.toContain("DELETE /account/api_token");
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke token" }));
    await waitFor(() => expect(server?.calls).toContain("DELETE /account/api_token"));
    expect(await screen.findByText("No token")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Revoke token" })).not.toBeInTheDocument();
    expect(screen.queryByTestId("api-token-last-use")).not.toBeInTheDocument();
    expect(currentNotifications()).toEqual([]);
  });

  it("signs out from the header's menu", async () => {
    window.localStorage.setItem("skyward.session", "1");
    server = fakeServer({
      "GET /account/details": { body: accountDetails() },
      "DELETE /sign_out": { body: { data: null, position: "9-99" } },
    });
    const { router } = renderApp("/");
    fireEvent.click(await screen.findByRole("button", { name: "Account menu: Taras Shevchuk" }));
    fireEvent.click(await screen.findByRole("menuitem", { name: "Sign out" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Sign in to Skyward" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign_in");
    expect(window.localStorage.getItem("skyward.session")).toBeNull();
    expect(server.calls).toContain("DELETE /sign_out");
    expect(currentNotifications().map((n) => n.text)).toContain("You have signed out.");
  });

  it("shows the legal documents, and no others", async () => {
    renderApp("/legal/website-terms");
    expect(await screen.findByRole("heading", { level: 1, name: "Website terms" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "Bookings and tickets" })).toBeInTheDocument();
    renderApp("/legal/cookie-policy");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
  });
});
