import { describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import type { Page } from "playwright-core";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });

interface Outgoing {
  id: number;
  text: string;
}

/** The dev outbox, newest first (`/dev/mailbox` for e-mail, `/dev/voice` for calls). */
async function outbox(kind: "mailbox" | "voice", to?: string): Promise<Outgoing[]> {
  const query = to ? `?to=${encodeURIComponent(to)}` : "";
  const response = await fetch(`${suite.app.url}/dev/${kind}${query}`, {
    headers: { accept: "application/json" },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Outgoing[] }).data;
}

/** Waits for a message newer than `after` (mail is sent after the answer) and reads the 6-digit code in it. */
async function codeFrom(read: () => Promise<Outgoing[]>, after = 0): Promise<{ id: number; code: string }> {
  for (let tries = 0; tries < 100; tries++) {
    const newest = (await read())[0];
    if (newest && newest.id > after) {
      // Voice calls read the digits out one by one: "0, 8, 2, 5, 3, 8".
      const digits =
        newest.text
          .split(/[.:]/)
          .find((part) => /\d/.test(part))
          ?.replace(/\D/g, "") ?? "";
      const code = /\b\d{6}\b/.exec(newest.text)?.[0] ?? digits.slice(0, 6);
      return { id: newest.id, code };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("no message arrived");
}

const mailedCode = (email: string, after = 0) => codeFrom(() => outbox("mailbox", email), after);

/** Browser noise a refused request causes on purpose (Chromium logs every 4xx response). */
const unexpected = (problems: string[], ...statuses: number[]) =>
  problems.filter((problem) => !statuses.some((status) => problem.includes(`status of ${status}`)));

async function startSignIn(page: Page, email: string, options: { open?: boolean } = {}) {
  if (options.open ?? true) await page.goto("/sign_in");
  await page.getByRole("heading", { level: 1, name: "Sign in to Skyward" }).waitFor();
  const field = page.getByLabel("Work e-mail");
  expect(await field.getAttribute("type")).toBe("email");
  await field.fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Sign-in code").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

const signInButtonIdle = (page: Page) =>
  page.locator('button[type="submit"]:not([data-loading])', { hasText: "Sign in" }).waitFor();

describe("signing in", () => {
  it("signs a demo agent in by e-mail code, through onboarding to the search, and out again", async () => {
    const { page } = suite.session;
    await startSignIn(page, "agent@dnipro.test");
    await page.getByRole("heading", { level: 1, name: "Check your e-mail" }).waitFor();
    expect(await page.getByTestId("sign-in-email").textContent()).toBe("agent@dnipro.test");
    const { code } = await mailedCode("agent@dnipro.test");
    await checkScreen(page, "identity-otp");
    await enterCode(page, code);

    // Onboarding: account info, then the privacy terms.
    await page.getByRole("heading", { level: 1, name: "Set up your account" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/onboarding");
    expect(await page.getByLabel(/^First name/).inputValue()).toBe("Taras");
    expect(await page.getByLabel(/^Last name/).inputValue()).toBe("Shevchuk");
    await checkScreen(page, "identity-onboarding-info");
    await page.getByRole("button", { name: "Continue" }).click();

    await page.getByRole("heading", { level: 2, name: "Privacy and terms" }).waitFor();
    for (const document of ["privacy policy", "website terms", "extension terms", "communication policy"])
      await page.getByRole("link", { name: document }).waitFor();
    expect(await page.getByRole("link", { name: "privacy policy" }).getAttribute("href")).toBe(
      "/legal/privacy-policy",
    );
    await checkScreen(page, "identity-onboarding-privacy");
    await page.getByRole("button", { name: "Accept and continue" }).click();

    // Onboarding done, the agent lands on the search, ready to work (issue 27 item 6).
    await page.waitForURL(`${suite.app.url}/search`);
    await page.getByRole("heading", { level: 1, name: "Flight search" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Welcome to Skyward, Taras!" }).waitFor();
    await checkScreen(page, "identity-signed-in-search");

    // A reload keeps the suite.session; the header knows who is signed in.
    await page.reload();
    const menu = page.getByRole("button", { name: "Account menu: Taras Shevchuk" });
    await menu.click();
    await page.getByRole("menuitem", { name: "Sign out" }).waitFor();
    await checkScreen(page, "account-menu");
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(`${suite.app.url}/sign_in`);
    await page.getByRole("status").filter({ hasText: "You have signed out." }).waitFor();
    await page.getByRole("heading", { level: 1, name: "Sign in to Skyward" }).waitFor();
    expect(await menu.count()).toBe(0);
    expect(suite.session.problems).toEqual([]);

    // Signed out for real: the account page sends the visitor to sign in (and back afterwards).
    await page.goto("/account");
    await page.waitForURL(`${suite.app.url}/sign_in?redirect=%2Faccount`);
    expect(unexpected(suite.session.problems, 401)).toEqual([]);
  });

  it("signs a password user in, in the account's language", async () => {
    const { page } = suite.session;
    await startSignIn(page, "agent@vistula.test");
    await page.getByRole("heading", { level: 1, name: "Enter your password" }).waitFor();
    expect(await page.getByRole("button", { name: "Sign in with an e-mail code" }).count()).toBe(0);

    await page.getByLabel(/^Password/).fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "The e-mail or the password is not correct." }).waitFor();
    await checkScreen(page, "identity-password-refused");

    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // Piotr's account speaks Polish: the site follows it once he is in.
    await page.getByRole("heading", { level: 1, name: "Skonfiguruj konto" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("pl");
    await page.getByRole("button", { name: "Dalej" }).click();
    await page.getByRole("button", { name: "Akceptuję i przechodzę dalej" }).click();
    await page.waitForURL(`${suite.app.url}/search`);
    await page.getByRole("button", { name: "Menu konta: Piotr Zielinski" }).waitFor();
    expect(unexpected(suite.session.problems, 401)).toEqual([]);
  });

  it("locks a code after five wrong attempts, and a new code signs in", async () => {
    const { page } = suite.session;
    const email = "agent.lviv@dnipro.test";
    await startSignIn(page, email);
    await page.getByRole("heading", { level: 1, name: "Check your e-mail" }).waitFor();
    const first = await mailedCode(email);
    const wrong = first.code === "000000" ? "111111" : "000000";

    for (const left of [4, 3, 2, 1]) {
      await enterCode(page, wrong);
      await signInButtonIdle(page);
      await page
        .getByRole("alert")
        .filter({ hasText: `The code is not correct. ${left} attempt${left === 1 ? "" : "s"} left.` })
        .waitFor();
    }
    await enterCode(page, wrong);
    await page.getByRole("alert").filter({ hasText: "Too many wrong codes" }).first().waitFor();
    await page.getByText("This code no longer works", { exact: true }).waitFor();
    await checkScreen(page, "identity-code-locked");

    // Even the right code cannot open a locked one.
    const [refusal] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === "/sign_in"),
      enterCode(page, first.code),
    ]);
    expect(refusal.status()).toBe(401);
    expect(await refusal.json()).toMatchObject({ errors: [{ code: "code_locked" }] });
    await signInButtonIdle(page);

    await page.getByRole("button", { name: "Send a new code" }).click();
    const fresh = await mailedCode(email, first.id);
    await page.getByText("We sent a new code.").waitFor();
    expect(await page.getByText("This code no longer works", { exact: true }).count()).toBe(0);
    await enterCode(page, fresh.code);
    await page.getByRole("heading", { level: 1, name: "Set up your account" }).waitFor();
    expect(unexpected(suite.session.problems, 401)).toEqual([]);
  });

  it("goes back to the e-mail step when the e-mail is changed, and signs in by a voice call", async () => {
    const { page } = suite.session;
    await page.goto("/account");
    await page.waitForURL(`${suite.app.url}/sign_in?redirect=%2Faccount`);

    // A known code user: an unknown e-mail may be answered with the password step (no enumeration).
    await startSignIn(page, "supervisor@vistula.test", { open: false });
    await page.getByRole("heading", { level: 1, name: "Check your e-mail" }).waitFor();
    await page.getByRole("button", { name: "Change" }).click();
    const field = page.getByLabel("Work e-mail");
    expect(await field.inputValue()).toBe("supervisor@vistula.test");
    await field.fill("supervisor@dnipro.test");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { level: 1, name: "Check your e-mail" }).waitFor();

    await page.getByRole("button", { name: "Call me instead" }).click();
    await page.getByRole("heading", { level: 1, name: "Answer the call" }).waitFor();
    const called = await codeFrom(() => outbox("voice"));
    await checkScreen(page, "identity-voice-otp");
    await enterCode(page, called.code);

    // Olena's account is in Ukrainian; after onboarding she lands on the page she asked for.
    await page.getByRole("heading", { level: 1, name: "Налаштуйте обліковий запис" }).waitFor();
    await page.getByRole("button", { name: "Продовжити" }).click();
    await page.getByRole("button", { name: "Прийняти та продовжити" }).click();
    await page.waitForURL(`${suite.app.url}/account`);
    await page.getByRole("heading", { level: 1, name: "Olena Kovalenko" }).waitFor();
    expect(unexpected(suite.session.problems, 401)).toEqual([]);
  });
});

describe("the sign-in steps' own script", () => {
  /** The script of the steps after the e-mail (the code, the password): a chunk apart from the first load's. */
  const LATER_STEPS = /\/later-steps-[\w-]+\.js$/;

  it("is fetched once the visitor types, and while it is on its way the e-mail step stays on screen, busy, until the code step shows", async () => {
    const { page } = suite.session;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(LATER_STEPS, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/sign_in");
    const asked = page.waitForRequest(LATER_STEPS);
    await page.getByLabel("Work e-mail").fill("agent.lviv@dnipro.test");
    await asked;
    const before = (await outbox("mailbox", "agent.lviv@dnipro.test"))[0]?.id ?? 0;
    await page.getByRole("button", { name: "Continue" }).click();
    // The server has answered (the code is mailed) while the script is held.
    const { code } = await mailedCode("agent.lviv@dnipro.test", before);
    const email = page.getByRole("textbox", { name: "Work e-mail" });
    expect(await email.count()).toBe(1);
    expect(await email.isDisabled()).toBe(true);
    expect(await page.locator('[aria-busy="true"]').count()).toBeGreaterThan(0);
    expect(await page.getByLabel("Sign-in code").count()).toBe(0);
    release();
    await enterCode(page, code);
    await page.waitForURL((url) => !url.pathname.startsWith("/sign_in"));
    expect(unexpected(suite.session.problems)).toEqual([]);
  });

  it("when it cannot be loaded, then the page says so and offers to try again", async () => {
    const { page } = suite.session;
    await page.route(LATER_STEPS, (route) => route.abort());
    await startSignIn(page, "agent.lviv@dnipro.test");
    await page.getByText("Something went wrong").waitFor();
    await page.getByRole("button", { name: "Try again" }).waitFor();
  });
});

describe("the account page", () => {
  it("edits the details, the language and the e-mail, issues an API token shown once, shows its last use and revokes it", async () => {
    const { page } = suite.session;
    await startSignIn(page, "admin@skyward.test");
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByLabel(/^Phone/).fill("12");
    await page.getByRole("button", { name: "Continue" }).click();
    // The form checks the contract's rule before sending, and says so beside the field in the user's language.
    await page.getByText("Enter an international number such as +380441234567.", { exact: true }).waitFor();
    await page.getByLabel(/^Phone/).fill("+48 22 555 01 02");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Accept and continue" }).click();
    await page.waitForURL(`${suite.app.url}/search`);

    await page.getByRole("button", { name: "Account menu: Ada Admin" }).click();
    await page.getByRole("menuitem", { name: "Account" }).click();
    await page.getByRole("heading", { level: 1, name: "Ada Admin" }).waitFor();
    expect(await page.getByLabel(/^Phone/).inputValue()).toBe("+48225550102");
    await checkScreen(page, "identity-account");

    await page.getByLabel(/^Last name/).fill("Lovelace");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Your details were saved." }).waitFor();

    await page.getByRole("combobox", { name: "Account language" }).click();
    await page.getByRole("option", { name: "Español" }).click();
    await page.getByRole("heading", { level: 2, name: "Datos personales" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Se ha cambiado el idioma de tu cuenta." }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    await page.getByRole("combobox", { name: "Idioma de la cuenta" }).click();
    await page.getByRole("option", { name: "English" }).click();
    await page.getByRole("heading", { level: 2, name: "Personal details" }).waitFor();

    await page.getByRole("button", { name: "Change e-mail" }).click();
    await page.getByLabel(/^New e-mail/).fill("ada@skyward.test");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText("We sent a confirmation code to ada@skyward.test.", { exact: false }).waitFor();
    const { code } = await mailedCode("ada@skyward.test");
    await page.getByLabel(/^Confirmation code/).fill(code);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByTestId("account-email").filter({ hasText: "ada@skyward.test" }).waitFor();

    await page.getByRole("button", { name: "Generate token" }).click();
    const token = page.getByTestId("api-token");
    await token.waitFor();
    const issued = (await token.textContent()) ?? "";
    expect(issued).toMatch(/^sky_[\w-]{20,}$/);
    await page.getByText("Copy your token now").waitFor();
    await page.getByRole("button", { name: "Copy token" }).waitFor();
    await checkScreen(page, "identity-api-token");

    // The token works as a bearer for the API, and only this once is it shown.
    const api = await fetch(`${suite.app.url}/account/details`, {
      headers: { accept: "application/json", authorization: `Bearer ${issued}` },
    });
    expect(((await api.json()) as { account: { email: string } }).account.email).toBe("ada@skyward.test");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();
    expect(await token.count()).toBe(0);
    await page.getByText("Token issued").waitFor();
    // The call above shows as the token's last use.
    await page
      .getByTestId("api-token-last-use")
      .filter({ hasText: /^Last used / })
      .waitFor();
    await page.getByRole("button", { name: "Replace token" }).click();
    await page.getByRole("dialog", { name: "Replace the API token?" }).waitFor();
    await checkScreen(page, "replace-token-dialog");
    await page.getByRole("button", { name: "Cancel" }).click();

    // Revoked from the page (a signed-in session), the token stops working at once.
    await page.getByRole("button", { name: "Revoke token" }).click();
    const revoke = page.getByRole("dialog", { name: "Revoke the API token?" });
    await revoke.waitFor();
    await checkScreen(page, "revoke-token-dialog");
    await revoke.getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("No token").waitFor();
    const refused = await fetch(`${suite.app.url}/account/details`, {
      headers: { accept: "application/json", authorization: `Bearer ${issued}` },
    });
    expect(refused.status).toBe(401);
    expect(unexpected(suite.session.problems, 401, 422)).toEqual([]);
  });
});

describe("legal documents", () => {
  it("serves the four documents in the site language, and nothing else", async () => {
    const { page } = suite.session;
    await page.goto("/legal/communication-policy");
    await page.getByRole("heading", { level: 1, name: "Communication policy" }).waitFor();
    await checkScreen(page, "legal-communication-policy");
    await page.getByRole("link", { name: "Extension terms" }).click();
    await page.getByRole("heading", { level: 1, name: "Extension terms" }).waitFor();
    await page.getByRole("button", { name: "Language: English" }).click();
    await page.getByRole("menuitem", { name: "Polski" }).click();
    await page.getByRole("heading", { level: 1, name: "Warunki korzystania z rozszerzenia" }).waitFor();
    await page.goto("/legal/cookie-policy");
    await page.getByRole("heading", { name: "Nie znaleziono strony" }).waitFor();
    await checkScreen(page, "not-found-pl");
    expect(suite.session.problems).toEqual([]);
  });
});
