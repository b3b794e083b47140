import { describe, expect, it, jest } from "@jest/globals";
import { csrfHeaders, holdStandardFare, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

/**
 * The booking page's schedule-change panel (issue 24.3): the sandbox airline moves an issued booking's flight
 * (SCHEDMAJOR: 3 h 10 later); the panel shows old → new, the choices and the deadline, and accepting answers it.
 */
describe("schedule change panel", () => {
  it("shows the airline's change old → new with its choices and deadline, and accepting it answers the change", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Schedmajor");
    const headers = await csrfHeaders(page);
    const issued = await page.request.post("/bookings/issue", { headers, data: { locator } });
    expect(issued.status()).toBe(201);
    // The polling job asks the airline every few minutes; the agent's "check now" asks at once.
    const checked = await page.request.post(`/orders/${locator}/schedule_change/check`, {
      headers,
      data: {},
    });
    expect(((await checked.json()) as { outcome: string }).outcome).toBe("recorded");

    await page.goto(`/bookings?locator=${locator}`);
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    const panel = drawer.getByRole("region", { name: "Schedule change" });
    await panel.waitFor();
    await panel.getByText("The airline changed the schedule").waitFor();
    const oldLine = (await panel.getByTestId("schedule-change-old").textContent()) ?? "";
    const newLine = (await panel.getByTestId("schedule-change-new").textContent()) ?? "";
    // The same flight, 3 h 10 later: e.g. "PS701 KBP 2026-12-20 07:15 → WAW 08:05" → "… 10:25 → WAW 11:15".
    const flight = /^(\w{2}\d+) KBP (\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}) → WAW/;
    const [, number, , hh, mm] = oldLine.match(flight) ?? [];
    const moved = newLine.replace(/^→\s*/, "").match(flight);
    expect(moved?.[1]).toBe(number);
    const minutes = (h?: string, m?: string) => Number(h) * 60 + Number(m);
    expect((minutes(moved?.[3], moved?.[4]) - minutes(hh, mm) + 1440) % 1440).toBe(190);
    await panel.getByText(/^Answer by /).waitFor();
    await panel.getByRole("button", { name: "Accept the new times" }).waitFor();
    await panel.getByRole("button", { name: "Refund in full" }).waitFor();
    expect(await panel.getByRole("button", { name: /^Exchange to / }).count()).toBeGreaterThan(0);
    await checkScreen(page, "schedule-change-panel");

    await panel.getByRole("button", { name: "Accept the new times" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Booking ${locator}: the new times are accepted.` })
      .first()
      .waitFor();
    await panel.getByTestId("schedule-change-answer").filter({ hasText: "Accepted" }).waitFor();
    expect(await panel.getByRole("button", { name: "Refund in full" }).count()).toBe(0);
  });
});
