import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { SignInResponse } from "@skyward/contracts/account";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { setSiteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications } from "../../../lib/notifications.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
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

const byCode = { body: { account: { auth_method: "otp" }, position: null } };

function signedIn(onboarding: SignInResponse["onboarding"]): { body: SignInResponse } {
  const { account } = accountDetails(onboarding);
  return { body: { account, onboarding, position: "5-10" } };
}

async function submitEmail(email: string) {
  fireEvent.change(await screen.findByLabelText(/Work e-mail/), { target: { value: email } });
  fireEvent.click(screen.getByRole("button", { name: "Continue" }));
}

async function submitCode(code: string) {
  fireEvent.change(await screen.findByLabelText(/Sign-in code/), { target: { value: code } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("the sign-in screen", () => {
  it("asks for the code by e-mail, and goes back to the e-mail step with the address kept", async () => {
    server = fakeServer({ "POST /start_sign_in": byCode });
    renderApp("/sign_in");
    expect(await screen.findByLabelText(/Work e-mail/)).toHaveAttribute("type", "email");
    await submitEmail("agent@dnipro.test");

    expect(await screen.findByRole("heading", { level: 1, name: "Check your e-mail" })).toBeInTheDocument();
    expect(screen.getByTestId("sign-in-email")).toHaveTextContent("agent@dnipro.test");
    expect(server.bodies["POST /start_sign_in"]).toEqual([
      { account: { email: "agent@dnipro.test", language: "en" } },
    ]);

    fireEvent.click(screen.getByRole("button", { name: "Change" }));
    expect(await screen.findByLabelText(/Work e-mail/)).toHaveValue("agent@dnipro.test");
  });

  it("checks the fields before asking the server, says what is wrong in the site language and moves the focus there", async () => {
    server = fakeServer({ "POST /start_sign_in": byCode });
    renderApp("/sign_in");
    await submitEmail("agent@");
    const email = await screen.findByLabelText(/Work e-mail/);
    expect(await screen.findByText("Enter an e-mail address such as name@agency.com")).toBeInTheDocument();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email.getAttribute("aria-describedby")).toContain(
      screen.getByText("Enter an e-mail address such as name@agency.com").id,
    );
    await waitFor(() => expect(email).toHaveFocus());
    expect(server.bodies["POST /start_sign_in"] ?? []).toEqual([]);

    // Typing clears the error; a valid address (blanks and capitals do not matter) goes to the code step.
    await submitEmail("  Agent@Dnipro.TEST ");
    expect(await screen.findByRole("heading", { level: 1, name: "Check your e-mail" })).toBeInTheDocument();
    expect(server.bodies["POST /start_sign_in"]).toEqual([
      { account: { email: "agent@dnipro.test", language: "en" } },
    ]);

    // A short code is refused on the spot, in Ukrainian once the site speaks it.
    await act(() => setSiteLanguage("ua"));
    fireEvent.change(await screen.findByLabelText(/Код для входу/), { target: { value: "123" } });
    fireEvent.click(screen.getByRole("button", { name: "Увійти" }));
    expect(await screen.findByText("Введіть 6 цифр коду")).toBeInTheDocument();
    expect(server.bodies["POST /sign_in"] ?? []).toEqual([]);
  });

  it("asks for a call, and shows the voice step", async () => {
    server = fakeServer({ "POST /start_sign_in": byCode, "POST /send_voice_otp": byCode });
    renderApp("/sign_in");
    await submitEmail("agent@dnipro.test");
    fireEvent.click(await screen.findByRole("button", { name: "Call me instead" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Answer the call" })).toBeInTheDocument();
    expect(await screen.findByText(/We are calling the phone number on your account/)).toBeInTheDocument();
    expect(server.bodies["POST /send_voice_otp"]).toEqual([{ account: { email: "agent@dnipro.test" } }]);
  });

  it("shows the server's refusal and keeps the visitor on the code step", async () => {
    const refusal = {
      status: 401,
      body: {
        errors: [
          {
            status: "401",
            code: "code_locked",
            title: "Sign-in failed",
            detail: "Too many wrong codes: this code no longer works. Request a new code.",
          },
        ],
      },
    };
    server = fakeServer({ "POST /start_sign_in": byCode, "POST /sign_in": refusal });
    renderApp("/sign_in");
    await submitEmail("agent@dnipro.test");
    await submitCode("123456");

    expect(await screen.findByRole("alert")).toHaveTextContent("Too many wrong codes");
    expect(screen.getByText("This code no longer works")).toBeInTheDocument();
    expect(screen.getByLabelText(/Sign-in code/)).toHaveValue("");
  });

  it("opens onboarding after signing in when the account's onboarding is not done", async () => {
    server = fakeServer({
      "POST /start_sign_in": byCode,
      "POST /sign_in": signedIn("initial"),
      "GET /account/details": { body: accountDetails("initial") },
    });
    const { router } = renderApp("/sign_in");
    await submitEmail("agent@dnipro.test");
    await submitCode("123456");

    expect(await screen.findByRole("heading", { level: 1, name: "Set up your account" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/onboarding");
    expect(window.localStorage.getItem("skyward.session")).toBe("1");
  });

  it("returns to the page the visitor was sent from once signed in", async () => {
    server = fakeServer({
      "POST /start_sign_in": { body: { account: { auth_method: "password" }, position: null } },
      "POST /sign_in": signedIn("done"),
      "GET /account/details": { body: accountDetails("done") },
    });
    const { router } = renderApp("/sign_in?redirect=%2Faccount");
    await submitEmail("agent@vistula.test");
    fireEvent.change(await screen.findByLabelText(/^Password/), { target: { value: "skyward-demo-2026" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Taras Shevchuk" })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/account"));
    expect(server.bodies["POST /sign_in"]).toEqual([
      { account: { email: "agent@vistula.test", password: "skyward-demo-2026" } },
    ]);
  });

  it("sends someone already signed in on, to onboarding if it is not done", async () => {
    window.localStorage.setItem("skyward.session", "1");
    server = fakeServer({ "GET /account/details": { body: accountDetails("done") } });
    const first = renderApp("/sign_in");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome to Skyward" })).toBeInTheDocument();
    expect(first.router.state.location.pathname).toBe("/");
  });
});
