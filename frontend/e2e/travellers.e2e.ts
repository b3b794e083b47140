import { describe, expect, it, jest } from "@jest/globals";
import { isoInDays, keepTraveller, searchFlights, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(240_000);

const passport = (number: string, expires_on: string) => ({
  type: "passport",
  number,
  issuing_country: "UA",
  nationality: "UA",
  expires_on,
});

describe("the traveller picker in the booking form", () => {
  it("finds a kept traveller by name or document as the agent types, refuses an expired document at its field, fills the passenger and books", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await keepTraveller(page, {
      first_name: "Nadiya",
      last_name: "Pickerova",
      date_of_birth: "1984-07-19",
      gender: "F",
      // One passport expires before the trip ends (the search flies in 21 days), the other is valid.
      documents: [passport("FP100001", isoInDays(10)), passport("FP100002", "2033-01-01")],
      contacts: { email: "nadiya@example.com" },
      ssrs: ["VGML", "WCHR"],
    });
    await page.goto("/bookings");
    await page.getByRole("heading", { level: 1, name: "Bookings" }).waitFor();
    await searchFlights(page, 1);
    await page
      .getByRole("article")
      .first()
      .getByRole("button", { name: /^Select / })
      .first()
      .click();
    await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
    const block = page.getByRole("group", { name: "Passenger 1 · Adult" });
    const picker = block.getByRole("textbox", { name: "Kept traveller for passenger 1" });

    await picker.fill("pickerova nad");
    const options = page.getByRole("listbox", { name: "Kept traveller for passenger 1" }).getByRole("option");
    await options.nth(1).waitFor();
    expect(await options.count()).toBe(2);
    await checkScreen(page, "booking-form-traveller-picker");
    // The expired passport: the passenger is filled, and its expiry is refused at the field.
    await options.filter({ hasText: "FP100001" }).click();
    await expect(block.getByRole("textbox", { name: "Last name" }).inputValue()).resolves.toBe("PICKEROVA");
    await block.getByText("Expires before the trip ends").waitFor();

    // By document number: the traveller holding it (each of their passports a choice); the valid one passes.
    await picker.fill("FP100002");
    await options.filter({ hasText: "FP100002" }).waitFor();
    expect(await options.count()).toBe(2);
    await options.filter({ hasText: "FP100002" }).click();
    await block.getByText("Expires before the trip ends").waitFor({ state: "detached" });
    expect(await block.getByRole("textbox", { name: "First name" }).inputValue()).toBe("NADIYA");
    expect(await block.getByRole("textbox", { name: "Document number" }).inputValue()).toBe("FP100002");
    expect(await block.getByRole("textbox", { name: "Date of birth" }).inputValue()).toMatch(
      /19.*07.*1984|1984/,
    );
    // The traveller's standing requests go with the booking.
    await block.getByTestId("passenger-services").filter({ hasText: "Requests: VGML, WCHR" }).waitFor();

    await page.getByRole("textbox", { name: "E-mail" }).fill("nadiya@example.com");
    await page.getByRole("textbox", { name: "Phone" }).fill("+380 50 111 22 33");
    await page.getByRole("button", { name: /^Book (and issue )?for / }).click();
    await page.waitForURL(/\/bookings\?locator=[2-9A-HJKMNP-Z]{6}$/);
    const locator = new URL(page.url()).searchParams.get("locator") ?? "";
    const booking = await page.request.get(`/bookings/${locator}`);
    expect(await booking.json()).toMatchObject({
      data: {
        passengers: [
          {
            first_name: "NADIYA",
            last_name: "PICKEROVA",
            document: { number: "FP100002" },
            ssrs: ["VGML", "WCHR"],
          },
        ],
      },
    });
    // The booking page shows them on the passenger.
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.getByTestId("passenger-ssrs").filter({ hasText: "Requests: VGML, WCHR" }).waitFor();
    // Saving the booked passenger as a traveller offers the one kept instead of a second record.
    await drawer.getByRole("button", { name: "Save as traveller: PICKEROVA/NADIYA" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "PICKEROVA/NADIYA is already kept as a traveller" })
      .first()
      .waitFor();
    const kept = await page.request.get("/travellers", { params: { q: "pickerova" } });
    expect(((await kept.json()) as { data: unknown[] }).data).toHaveLength(1);
    // The only failed request is the duplicate's 409 the page answers with its notice.
    expect(suite.session.problems.filter((problem) => !problem.includes("status of 409"))).toEqual([]);
  });
});
