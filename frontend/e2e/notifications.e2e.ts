import { describe, expect, it, jest } from "@jest/globals";
import { csrfHeaders, holdStandardFare, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

describe("the agent's notifications", () => {
  it("counts an issue's notification on the header's bell, lists it, marks it read and then all read, and switches a kind off on the account page", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    // Start from nothing unread, so the count on the bell is this test's.
    const cleared = await page.request.post("/notifications/read", {
      headers: await csrfHeaders(page),
      data: { all: true },
    });
    expect(cleared.status()).toBe(200);
    const issue = async (name: string) => {
      const locator = await holdStandardFare(page, name);
      const issued = await page.request.post("/bookings/issue", {
        headers: await csrfHeaders(page),
        data: { locator },
      });
      expect(issued.status()).toBe(201);
      return locator;
    };
    const first = await issue("Belled");
    const second = await issue("Rung");

    await page.goto("/search");
    const bell = (count: number) =>
      page.getByRole("link", { name: `Notifications: ${count} unread`, exact: true });
    // The notifications come from the projection a moment after each issue: the bell follows on a reload.
    for (let i = 0; i < 40 && (await bell(2).count()) === 0; i++) {
      await page.waitForTimeout(500);
      await page.reload();
    }
    await bell(2).waitFor();

    await bell(2).click();
    await page.waitForURL("**/notifications");
    await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
    const row = (locator: string) =>
      page.getByRole("listitem", { name: "Tickets issued" }).filter({ hasText: locator });
    await row(first).waitFor();
    await row(second).waitFor();
    await page.getByTestId("unread-count").filter({ hasText: "2 unread" }).waitFor();
    await checkScreen(page, "notifications");

    await row(first).getByRole("button", { name: "Mark read" }).click();
    await page.getByTestId("unread-count").filter({ hasText: "1 unread" }).waitFor();
    await bell(1).waitFor();
    expect(await row(first).getByRole("button", { name: "Mark read" }).count()).toBe(0);
    expect(await row(second).getByRole("button", { name: "Mark read" }).count()).toBe(1);

    await page.getByRole("button", { name: "Mark all read" }).click();
    await page.getByTestId("unread-count").filter({ hasText: "0 unread" }).waitFor();
    await bell(0).waitFor();

    // The row opens its booking.
    await row(second).getByRole("link", { name: second }).click();
    await page.getByRole("dialog", { name: `Booking ${second}`, exact: true }).waitFor();

    // The account page switches a kind's e-mail off; the server keeps it.
    await page.goto("/account");
    const mailSwitch = page.getByRole("switch", { name: "Tickets issued: by e-mail" });
    await mailSwitch.waitFor();
    expect(await mailSwitch.isChecked()).toBe(true);
    await mailSwitch.click({ force: true });
    for (let i = 0; i < 20; i++) {
      const settings = (await (await page.request.get("/notification_settings")).json()) as {
        data: { kind: string; mail: boolean }[];
      };
      if (settings.data.find((s) => s.kind === "issued")?.mail === false) break;
      await page.waitForTimeout(250);
    }
    const saved = (await (await page.request.get("/notification_settings")).json()) as {
      data: { kind: string; in_app: boolean; mail: boolean }[];
    };
    expect(saved.data.find((s) => s.kind === "issued")).toEqual({
      kind: "issued",
      in_app: true,
      mail: false,
    });
    expect(await mailSwitch.isChecked()).toBe(false);
    await checkScreen(page, "account-notification-settings");
    expect(suite.session.problems).toEqual([]);
  });
});
