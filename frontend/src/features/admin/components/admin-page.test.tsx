import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { setSiteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
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

const adminSession = () => {
  const details = accountDetails();
  return {
    body: { ...details, account: { ...details.account, user_type: "Admin", companies: [], company: null } },
  };
};
const partner = {
  id: "a-dnipro",
  name: "Dnipro Travel",
  channels: [],
  supervisors: [],
  supervisors_count: 1,
  companies_count: 1,
  agency_transaction_fees: [{ id: "a-dnipro", transaction_fee: null }],
  production_api_on: false,
  corporate_number_on: true,
  ghost_segments_remarks_on: false,
  markups: [],
  active: true,
};
const company = {
  id: "c-kyiv",
  agency_id: "a-dnipro",
  name: "Dnipro Travel Kyiv",
  currency: "UAH",
  balance_amount: { amount: 50_000_00, currency: "UAH" },
  credit_limit: { amount: 0, currency: "UAH" },
  shared_bookings: true,
  avia_managers: [],
  channels: [],
  markups: [],
  active: true,
};
const history = {
  body: {
    data: [
      {
        event_id: "e1",
        position: "10",
        company_id: "c-kyiv",
        company_name: "Dnipro Travel Kyiv",
        kind: "charge",
        amount: { amount: -12_345_67, currency: "UAH" },
        balance_after: { amount: 37_654_33, currency: "UAH" },
        locator: "ABC234",
        operation_id: "op123456789",
        reason: "issue",
        actor: { user_id: "u1", role: "Agent", name: "Taras Shevchuk" },
        at: "2026-11-24T08:00:00.000Z",
      },
    ],
    meta: { page: 1, per_page: 25, total: 1 },
  },
};
const routes = () => ({
  "GET /account/details": adminSession(),
  "GET /agencies": { body: { data: [partner] } },
  "GET /companies": { body: { data: [company] } },
  "GET /balance_history": history,
  "GET /agencies/a-dnipro/supervisors": {
    body: {
      data: [
        {
          id: "u-olena",
          email: "supervisor@dnipro.test",
          first_name: "Olena",
          last_name: "Kovalenko",
          user_type: "Supervisor",
          active: true,
          company_ids: ["c-kyiv"],
        },
      ],
    },
  },
  "GET /join_agency_requests": {
    body: {
      data: [
        {
          id: "r1",
          agency_id: "a-dnipro",
          agency_name: "Dnipro Travel",
          user_id: "u-new",
          company_id: "c-kyiv",
          status: "sent",
          email: "new@agent.test",
          first_name: "Nadia",
          last_name: "Nova",
        },
      ],
    },
  },
  "GET /directory_history": {
    body: {
      data: [
        {
          event_id: "e9",
          position: "9",
          stream_id: "agency-a-dnipro",
          agency_id: "a-dnipro",
          company_id: null,
          type: "AgencyFlagSet",
          data: {},
          actor: { user_id: "u-ada", role: "Admin" },
          source: "web",
          at: "2026-11-24T08:00:00.000Z",
          link: "/directory_history/e9",
        },
      ],
      meta: { page: 1, per_page: 25, total: 1 },
    },
  },
});

describe("the administration page", () => {
  it("shows an administrator partners, companies and the balance history with booking, operation and author", async () => {
    server = fakeServer(routes());
    renderApp("/admin");
    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Partners, companies and balances" },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText("Taras Shevchuk")).toBeInTheDocument();
    expect(screen.getByText("ABC234")).toBeInTheDocument();
    expect(screen.getByText("op123456")).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Corporate number for Dnipro Travel" })).toBeChecked();
    expect(screen.getAllByText("Dnipro Travel Kyiv").length).toBeGreaterThan(0);
  });

  it("when the interface is Ukrainian, then the balance history writes its amounts and times the Ukrainian way", async () => {
    server = fakeServer(routes());
    renderApp("/admin");
    const english = (await screen.findByText("ABC234", undefined, { timeout: 10_000 })).closest(
      "tr",
    ) as HTMLElement;
    // Intl separates with no-break spaces: compared with plain ones.
    const plain = (row: HTMLElement) => (row.textContent ?? "").replace(/\s/g, " ");
    expect(plain(english)).toContain("-UAH 12,345.67");
    await act(() => setSiteLanguage("ua"));
    const text = plain(screen.getByText("ABC234").closest("tr") as HTMLElement);
    expect(text).toContain("-12 345,67 ₴");
    expect(text).toContain("37 654,33 ₴");
    expect(text).not.toContain("UAH");
    expect(text).toMatch(/24 лист\. 2026 р\., \d\d:00:00/);
  });

  it("asks before deleting a company, and deletes it only when confirmed", async () => {
    server = fakeServer({
      ...routes(),
      "DELETE /companies/c-kyiv": { body: { data: null, position: null } },
    });
    renderApp("/admin");
    const companies = await screen.findByRole("region", { name: "Companies" }, { timeout: 10_000 });
    await within(companies).findByText("Dnipro Travel Kyiv");
    fireEvent.click(within(companies).getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Delete the company Dnipro Travel Kyiv?")).toBeInTheDocument();
    expect(server.calls).not.toContain("DELETE /companies/c-kyiv");
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(server?.calls).toContain("DELETE /companies/c-kyiv"));
  });

  it("switches shared bookings off at once, and puts them back when the server refuses", async () => {
    server = fakeServer({
      ...routes(),
      "PATCH /ticketing/company_shared_bookings/c-kyiv": {
        status: 422,
        body: {
          errors: [
            { status: "422", code: "not_now", title: "Not allowed now", detail: "Refused for the test" },
          ],
        },
      },
    });
    renderApp("/admin");
    const toggle = await screen.findByRole(
      "switch",
      { name: "Shared bookings for Dnipro Travel Kyiv" },
      { timeout: 10_000 },
    );
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    await waitFor(() => expect(currentNotifications().map((n) => n.text)).toContain("Refused for the test"));
    await waitFor(() => expect(toggle).toBeChecked());
    expect(server.bodies["PATCH /ticketing/company_shared_bookings/c-kyiv"]).toEqual([{ active: false }]);
  });

  it("shows supervisors and the change history, and accepts a connection request into the company chosen", async () => {
    server = fakeServer({ ...routes(), "PATCH /join_agency_requests/r1": { body: { join_agency: {} } } });
    renderApp("/admin");
    expect(await screen.findByText("Olena Kovalenko", {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByText("Partner switch changed")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open event" })).toHaveAttribute("href", "/directory_history/e9");
    const requests = screen.getByRole("region", { name: "Connection requests" });
    fireEvent.click(await within(requests).findByRole("button", { name: "Accept" }));
    await waitFor(() =>
      expect(server?.bodies["PATCH /join_agency_requests/r1"]).toEqual([
        { join_agency: { status: "accepted", company_id: "c-kyiv" } },
      ]),
    );
  });

  it("sets the zone a partner's documents write times in", async () => {
    server = fakeServer({ ...routes(), "PATCH /agencies/a-dnipro": { body: { partner, position: null } } });
    renderApp("/admin");
    const zone = await screen.findByRole(
      "combobox",
      { name: "Time zone of Dnipro Travel" },
      { timeout: 10_000 },
    );
    expect(zone).toHaveValue("UTC");
    fireEvent.click(zone);
    fireEvent.change(zone, { target: { value: "Europe/Wars" } });
    fireEvent.click(await screen.findByRole("option", { name: "Europe/Warsaw" }));
    await waitFor(() =>
      expect(server?.bodies["PATCH /agencies/a-dnipro"]).toEqual([
        { agency: { time_zone: "Europe/Warsaw" } },
      ]),
    );
  });

  it("sets the company an administrator sells for", async () => {
    server = fakeServer({
      ...routes(),
      "PUT /account/selling_company": { body: { data: { company_ids: ["c-kyiv"] }, position: null } },
    });
    renderApp("/admin");
    fireEvent.click(
      await screen.findByRole("button", { name: "Sell for it: Dnipro Travel Kyiv" }, { timeout: 10_000 }),
    );
    await waitFor(() =>
      expect(server?.bodies["PUT /account/selling_company"]).toEqual([{ company_id: "c-kyiv" }]),
    );
  });
});
