import { describe, expect, it, jest } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { TERMS_VERSION } from "@skyward/contracts/account";
import type { Browser, Page } from "playwright-core";
import { browserAppSuite, checkScreen, openSession } from "./harness.ts";

// Issue 11's story end to end: an administrator sets up a partner on the screens, its supervisor runs its channel,
// the agent's issue follows the supervisor's switch, and both histories tell what happened.

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(600_000);

const PARTNER = "Carpathian Sky";
const COMPANY = "Carpathian Sky Lviv";
const CHANNEL = "Carpathian NDC";
const SUPERVISOR = "olha@carpathian-sky.test";
const AGENT = "agent.lviv@dnipro.test";

type Headers = Record<string, string>;

/** Signs a user in through the page's cookie jar (by password, or by the e-mailed code) and finishes onboarding. */
async function signIn(
  page: Page,
  email: string,
  name: [string, string],
  by: "password" | "code" = "password",
): Promise<Headers> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  let account: Record<string, string> = { email, password: DEMO_PASSWORD };
  if (by === "code") {
    const mailbox = async () =>
      (
        (await (await page.request.get("/dev/mailbox", { params: { to: email } })).json()) as {
          data: { id: number; text: string }[];
        }
      ).data;
    const before = (await mailbox())[0]?.id ?? 0;
    await page.request.post("/start_sign_in", { headers, data: { account: { email, language: "en" } } });
    let code: string | undefined;
    for (let i = 0; i < 100 && !code; i++) {
      const mail = (await mailbox())[0];
      if (mail && mail.id > before) code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      else await page.waitForTimeout(50);
    }
    account = { email, otp_attempt: code ?? "" };
  }
  const res = await page.request.post("/sign_in", { headers, data: { account } });
  expect(res.status()).toBe(200);
  const { onboarding } = (await res.json()) as { onboarding: string };
  if (onboarding !== "done") {
    const put = { ...headers, "X-HTTP-Method-Override": "PUT" };
    await page.request.post("/onboarding", {
      headers: put,
      data: { account: { first_name: name[0], last_name: name[1] } },
    });
    await page.request.post("/account/terms", { headers: put, data: { terms: { version: TERMS_VERSION } } });
  }
  return headers;
}

/** A Mantine select: opened by its label, an option chosen by its text. */
async function choose(page: Page, scope: ReturnType<Page["locator"]>, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).first().click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function openPage(page: Page, path: string, heading: string) {
  await page.goto(path);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

/**
 * Flips a channel's switch and waits for the server to take it. The switch follows the query cache, which moves
 * one task after the click, so Playwright's check()/uncheck() (which read the state right after clicking) can
 * see it unmoved; and the next step must not race the write.
 */
async function switchChannel(page: Page, toggle: ReturnType<Page["locator"]>) {
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() !== "GET" && response.url().includes("/ticketing/agency_channels/"),
  );
  await toggle.click();
  expect((await saved).ok()).toBe(true);
}

/** Holds one seat over the API as the agent (the booking screens have their own E2E test); returns the locator. */
async function holdBooking(page: Page, headers: Headers): Promise<string> {
  const search = await page.request.post("/offers", {
    headers,
    data: {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO"],
    },
  });
  expect(search.status()).toBe(200);
  const { result } = (await search.json()) as {
    result: { id: string; origin_destinations: { fares: { fare_id: string; instant_payment: boolean }[] }[] };
  };
  const fare = result.origin_destinations[0]?.fares.find((f) => !f.instant_payment);
  const booked = await page.request.post("/bookings", {
    headers,
    data: {
      search_result_id: result.id,
      fare_id: fare?.fare_id,
      passengers: [
        {
          type: "adult",
          gender: "M",
          first_name: "Bohdan",
          last_name: "Lysenko",
          date_of_birth: "1985-04-05",
          document: {
            type: "passport",
            number: "FB654321",
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2033-01-01",
          },
        },
      ],
      contacts: { email: "bohdan@example.com", phone: "+380501112244" },
    },
  });
  expect(booked.status()).toBe(201);
  return ((await booked.json()) as { locator: string }).locator;
}

async function session(browser: Browser) {
  return openSession(browser, suite.app.url);
}

describe("administration", () => {
  it("when an admin sets up a partner and its supervisor switches its channel off, then the agent cannot issue and both histories show it", async () => {
    const { page: admin } = suite.session;
    await signIn(admin, "admin@skyward.test", ["Anna", "Koval"]);

    // The administrator: a partner, a company, a supervisor and a top-up, each from its form.
    await openPage(admin, "/admin", "Partners, companies and balances");
    const partnerForm = admin.getByRole("form", { name: "Create partner" });
    await partnerForm.getByRole("textbox", { name: "Name" }).fill(PARTNER);
    await partnerForm.getByRole("button", { name: "Create partner" }).click();
    const partners = admin.locator("section", { has: admin.getByRole("heading", { name: "Partners" }) });
    await partners.getByRole("cell", { name: PARTNER, exact: true }).waitFor();

    const companyForm = admin.getByRole("form", { name: "Create company" });
    await choose(admin, companyForm, "Partner", PARTNER);
    await companyForm.getByRole("textbox", { name: "Name" }).fill(COMPANY);
    await companyForm.getByRole("textbox", { name: "Currency" }).fill("UAH");
    await companyForm.getByRole("button", { name: "Create company" }).click();
    await admin.getByRole("cell", { name: COMPANY, exact: true }).first().waitFor();

    const supervisors = admin.locator("section", {
      has: admin.getByRole("heading", { name: "Supervisors" }),
    });
    await choose(admin, supervisors, "Partner", PARTNER);
    const invite = admin.getByRole("form", { name: "Invite supervisor" });
    await invite.getByRole("textbox", { name: "E-mail" }).fill(SUPERVISOR);
    await invite.getByRole("textbox", { name: "First name" }).fill("Olha");
    await invite.getByRole("textbox", { name: "Last name" }).fill("Hutsul");
    await invite.getByRole("button", { name: "Invite supervisor" }).click();
    await supervisors.getByRole("cell", { name: SUPERVISOR }).waitFor();

    const topUp = admin.getByRole("form", { name: "Record transaction" });
    await choose(admin, topUp, "Company", COMPANY);
    await topUp.getByRole("textbox", { name: "Amount" }).fill("20000");
    await topUp.getByRole("textbox", { name: "Reason" }).fill("Opening deposit");
    await topUp.getByRole("button", { name: "Record transaction" }).click();
    const history = admin.locator("section", {
      has: admin.getByRole("heading", { name: "Balance history" }),
    });
    await history.getByRole("cell", { name: "Opening deposit" }).waitFor();
    await checkScreen(admin, "administration");

    // A channel with credentials and a card, switched on for the platform.
    await openPage(admin, "/channels", "Ticketing channels and gates");
    const channelForm = admin.getByRole("form", { name: "Open channel" });
    await choose(admin, channelForm, "Partner", PARTNER);
    await channelForm.getByRole("textbox", { name: "Channel name" }).fill(CHANNEL);
    await channelForm.getByRole("button", { name: "Open channel" }).click();
    const channels = admin.locator("section", {
      has: admin.getByRole("heading", { name: "Channels", exact: true }),
    });
    const row = channels.getByRole("row", { name: new RegExp(CHANNEL) });
    await row.waitFor();
    await row.getByRole("button", { name: "Settings" }).click();
    const settings = admin.getByRole("dialog");
    await settings.getByRole("textbox", { name: "Login" }).fill("carpathian-office");
    await settings.getByLabel("Password", { exact: true }).fill("carpathian-secret-2026");
    await settings.getByRole("button", { name: "Save and check" }).click();
    await admin.getByText("The credentials are correct.").first().waitFor();
    await settings.getByRole("textbox", { name: "Card number" }).fill("4242 4242 4242 4242");
    await settings.getByRole("textbox", { name: "Cardholder" }).fill("OLHA HUTSUL");
    await settings.getByRole("textbox", { name: "Expiry month" }).fill("12");
    await settings.getByRole("textbox", { name: "Expiry year" }).fill("2031");
    await settings.getByRole("button", { name: "Add card" }).click();
    await admin.getByText("Card ending in 4242 added").first().waitFor();
    await checkScreen(admin, "channel-settings");
    await admin.keyboard.press("Escape");
    await switchChannel(
      admin,
      row.getByRole("switch", { name: `Switch ${CHANNEL} on or off for the platform` }),
    );
    await row.getByText("Active", { exact: true }).waitFor();

    // The agent leaves Dnipro Travel and asks to join the partner; its new supervisor accepts into the company.
    const dnipro = await session(suite.browser);
    const dniproHeaders = await signIn(dnipro.page, "supervisor@dnipro.test", ["Dmytro", "Savchenko"]);
    const relationships = (await (
      await dnipro.page.request.get("/agent_company_relationships", {
        params: { company_id: demoId("company", "dnipro-lviv") },
      })
    ).json()) as { data: { id: string; user_id: string }[] };
    const relationship = relationships.data.find((r) => r.user_id === demoId("user", "dnipro-agent-lviv"));
    expect(
      (
        await dnipro.page.request.post(`/agent_company_relationships/${relationship?.id}`, {
          headers: { ...dniproHeaders, "X-HTTP-Method-Override": "DELETE" },
        })
      ).status(),
    ).toBe(200);
    await dnipro.close();

    const agent = await session(suite.browser);
    const agentHeaders = await signIn(agent.page, AGENT, ["Bohdan", "Lysenko"]);
    const partnerId = (
      (await (await admin.request.get("/agencies")).json()) as { data: { id: string; name: string }[] }
    ).data.find((p) => p.name === PARTNER)?.id;
    expect(
      (
        await agent.page.request.post("/join_agency_requests", {
          headers: agentHeaders,
          data: { join_agency_request: { agency_id: partnerId } },
        })
      ).status(),
    ).toBe(201);

    const supervisor = await session(suite.browser);
    await signIn(supervisor.page, SUPERVISOR, ["Olha", "Hutsul"], "code");
    await openPage(supervisor.page, "/admin", "Partners, companies and balances");
    const requests = supervisor.page.locator("section", {
      has: supervisor.page.getByRole("heading", { name: "Connection requests" }),
    });
    await requests.getByLabel("Company", { exact: true }).first().click();
    await supervisor.page.getByRole("option", { name: COMPANY, exact: true }).click();
    const [decided] = await Promise.all([
      supervisor.page.waitForResponse((r) => r.url().includes("/join_agency_requests/")),
      requests.getByRole("button", { name: "Accept" }).click(),
    ]);
    expect(decided.status()).toBe(200);

    // The agent sells through the partner's channel: one ticket issued (a charge), one booking held.
    await agent.page.waitForTimeout(1100); // the agent's session learns its new company within a second
    const issued = await holdBooking(agent.page, agentHeaders);
    const held = await holdBooking(agent.page, agentHeaders);
    expect(
      (
        await agent.page.request.post("/bookings/issue", { headers: agentHeaders, data: { locator: issued } })
      ).status(),
    ).toBe(201);

    // The supervisor switches the channel off at once; the agent's next issue is refused naming the channel.
    await openPage(supervisor.page, "/channels", "Ticketing channels and gates");
    const supervisorRow = supervisor.page
      .locator("section", { has: supervisor.page.getByRole("heading", { name: "Channels", exact: true }) })
      .getByRole("row", { name: new RegExp(CHANNEL) });
    await switchChannel(
      supervisor.page,
      supervisorRow.getByRole("switch", { name: `Switch ${CHANNEL} on or off for the agency` }),
    );
    await supervisorRow.getByText("Inactive", { exact: true }).waitFor();
    const refused = await agent.page.request.post("/bookings/issue", {
      headers: agentHeaders,
      data: { locator: held },
    });
    expect(refused.status()).toBe(422);
    expect(
      ((await refused.json()) as { errors: { code: string; detail: string }[] }).errors[0],
    ).toMatchObject({
      code: "channel_off",
      detail: expect.stringContaining(CHANNEL),
    });
    await agent.close();

    // The supervisor reads the change in the channel audit: who, which setting, before → after.
    const audit = supervisor.page.locator("section", {
      has: supervisor.page.getByRole("heading", { name: "Change history" }),
    });
    const change = audit.getByRole("row", { name: /On \(supervisor\)/ }).first();
    await change.waitFor();
    await expect(change.textContent()).resolves.toMatch(/Olha Hutsul.*Carpathian NDC.*On → Off/);
    await checkScreen(supervisor.page, "channel-audit");
    await supervisor.close();

    // The administrator reads the top-up and the charge in the balance history.
    await openPage(admin, "/admin", "Partners, companies and balances");
    await history.getByRole("cell", { name: "Top-up" }).first().waitFor();
    await history.getByRole("cell", { name: "Charge" }).first().waitFor();
    await expect(history.getByRole("cell", { name: issued }).count()).resolves.toBeGreaterThan(0);
  });
});
