import { readFile } from "node:fs/promises";
import { describe, expect, it, jest } from "@jest/globals";
import { csrfHeaders, holdStandardFare, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

describe("the traveller's itinerary e-mail on the booking page", () => {
  it("lists the send on issue, refuses an address that is not one, and sends the itinerary to another address with a note in French", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Itinerary");
    const issued = await page.request.post("/bookings/issue", {
      headers: await csrfHeaders(page),
      data: { locator },
    });
    expect(issued.status()).toBe(201);

    await page.goto(`/bookings?locator=${locator}`);
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    const panel = drawer.getByTestId("itinerary-mails");
    await panel.waitFor();
    // The company's setting mails it on issue (the mail sweep); the list follows once it has.
    for (let i = 0; i < 40; i++) {
      if ((await panel.getByRole("cell", { name: "On issue" }).count()) > 0) break;
      await page.waitForTimeout(500);
      await page.reload();
      await panel.waitFor();
    }
    await panel.getByRole("cell", { name: "traveller@example.com" }).waitFor();

    await panel.getByRole("button", { name: "Send itinerary" }).click();
    const form = panel.getByRole("form", { name: "Send the itinerary" });
    await form.waitFor();
    await checkScreen(page, "itinerary-send-form");
    const to = form.getByRole("textbox", { name: "To", exact: true });
    await to.fill("not-an-address");
    await form.getByRole("button", { name: "Send", exact: true }).click();
    await form.getByText("Enter a valid e-mail address").waitFor();

    await to.fill("friend@example.org");
    await form.getByRole("combobox", { name: "Language" }).selectOption("fr");
    await form.getByRole("textbox", { name: "Note to the traveller" }).fill("Bon voyage !");
    await form.getByRole("button", { name: "Send", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Itinerary sent to friend@example.org" })
      .first()
      .waitFor();
    await panel.getByRole("cell", { name: "friend@example.org" }).waitFor();
    await panel.getByRole("cell", { name: "agent@dnipro.test" }).waitFor();
    await checkScreen(page, "itinerary-sent");

    // The mail itself, from the dev outbox: in French, with the note, the itinerary PDF and the ticket's receipt.
    let mails: { subject: string; text: string; attachments?: { filename: string }[] }[] = [];
    for (let i = 0; i < 40 && mails.length === 0; i++) {
      const res = await page.request.get("/dev/mailbox?to=friend@example.org");
      mails = ((await res.json()) as { data: typeof mails }).data;
      if (mails.length === 0) await page.waitForTimeout(250);
    }
    expect(mails[0]?.subject).toBe(`Votre itinéraire, réservation ${locator}`);
    expect(mails[0]?.text).toContain("Bon voyage !");
    expect(mails[0]?.attachments?.map((a) => a.filename)).toEqual([
      `itinerary-${locator}.pdf`,
      expect.stringMatching(/^ITINERARY_IVAN_\d{13}\.pdf$|^Itinerary_Ivan_\d{13}\.pdf$/i),
    ]);
    expect(suite.session.problems).toEqual([]);
  });

  it("downloads the month's statement and an invoice from the sales screen", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Invoiced");
    const issued = await page.request.post("/bookings/issue", {
      headers: await csrfHeaders(page),
      data: { locator },
    });
    expect(issued.status()).toBe(201);
    await page.goto("/sales");
    const section = page.getByRole("region", { name: "Statements and invoices" });
    await section.waitFor();
    // The booking sweep numbers the sale's invoice; the list shows it once it has.
    const documents = section.getByRole("table", { name: "Invoices and credit notes" });
    for (let i = 0; i < 40 && (await documents.getByRole("cell", { name: locator }).count()) === 0; i++) {
      await page.waitForTimeout(500);
      await page.reload();
      await section.waitFor();
    }
    await documents.getByRole("cell", { name: locator }).waitFor();
    await checkScreen(page, "sales-statements");

    const [statement] = await Promise.all([
      page.waitForEvent("download"),
      section.getByRole("button", { name: "Statement (PDF)" }).click(),
    ]);
    expect(statement.suggestedFilename()).toMatch(/^statement-\d{4}-\d\d-.+\.pdf$/);
    expect((await readFile((await statement.path()) as string)).subarray(0, 5).toString()).toBe("%PDF-");
    const [sheet] = await Promise.all([
      page.waitForEvent("download"),
      section.getByRole("button", { name: "Statement (Excel)" }).click(),
    ]);
    expect(sheet.suggestedFilename()).toMatch(/\.xlsx$/);
    const row = documents.getByRole("row").filter({ hasText: locator });
    const [invoice] = await Promise.all([page.waitForEvent("download"), row.getByRole("button").click()]);
    expect(invoice.suggestedFilename()).toMatch(/^INV-\d{6}\.pdf$/);
    expect(suite.session.problems).toEqual([]);
  });
});
