import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { clearNotifications } from "../../../lib/notifications.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderApp } from "../../../test-utils/render-app.tsx";

let server: FakeServer | undefined;
beforeEach(() => {
  resetApiClient();
  window.localStorage.clear();
});
afterEach(() => {
  server?.restore();
  clearNotifications();
});

const adminSession = () => {
  const details = accountDetails();
  return { body: { ...details, account: { ...details.account, user_type: "Admin" } } };
};

const plan = {
  kind: "plan",
  plan: {
    id: "11111111-1111-4111-8111-111111111111",
    expires_at: "2030-01-01T10:00:00.000Z",
    needs_money_confirmation: true,
    provider: "embedded",
    steps: [
      {
        index: 0,
        command: "balance_transaction",
        args: {},
        preview: {
          code: "top_up",
          params: { company: "Vistula Warszawa", amount: 500000, currency: "PLN", reason: "invoice 1182" },
          text: "",
        },
        changes: [
          {
            field: "balance",
            before: { amount: 0, currency: "PLN" },
            after: { amount: 500000, currency: "PLN" },
          },
        ],
        moves_money: true,
      },
    ],
  },
};

async function ask(text: string) {
  const input = await screen.findByRole("textbox", { name: "Your request" }, { timeout: 10_000 });
  fireEvent.change(input, { target: { value: text } });
  fireEvent.click(screen.getByRole("button", { name: "Ask" }));
}

describe("the AI admin panel", () => {
  it("runs a money step only after the step and the money are both confirmed, then links to what changed", async () => {
    server = fakeServer({
      "GET /account/details": adminSession(),
      "POST /admin_panel/ask": { body: plan },
      "POST /admin_panel/execute": {
        body: {
          plan_id: plan.plan.id,
          status: "executed",
          results: [
            {
              index: 0,
              command: "balance_transaction",
              status: "done",
              links: [{ kind: "balance", id: "c1", href: "/admin?company_id=c1" }],
              position: null,
              error: null,
            },
          ],
        },
      },
    });
    renderApp("/assistant");
    await ask("top up Vistula Warszawa by 5,000 PLN, reason invoice 1182");
    expect(
      await screen.findByText(/Top up Vistula Warszawa by .*5,000\.00 \(reason: invoice 1182\)/),
    ).toBeInTheDocument();
    const run = screen.getByRole("button", { name: /Run confirmed steps/ });
    expect(run).toBeDisabled();
    fireEvent.click(screen.getByRole("checkbox", { name: "Confirm step 1" }));
    expect(run).toBeDisabled();
    fireEvent.click(screen.getByRole("checkbox", { name: "I confirm the money movement" }));
    expect(run).toBeEnabled();
    fireEvent.click(run);
    expect(await screen.findByText("Done.")).toBeInTheDocument();
    expect(server.bodies["POST /admin_panel/execute"]).toEqual([
      { plan_id: plan.plan.id, steps: [0], confirm_money: true },
    ]);
    expect(screen.getByRole("link", { name: "Balance history" })).toHaveAttribute(
      "href",
      "/admin?company_id=c1",
    );
  });

  it("asks back when two companies match, and asks again with the one chosen", async () => {
    server = fakeServer({
      "GET /account/details": adminSession(),
      "POST /admin_panel/ask": [
        {
          body: {
            kind: "clarify",
            clarify: {
              code: "ambiguous",
              preview: { code: "ambiguous_company", params: { ref: "Dnipro Travel", count: 2 }, text: "" },
              candidates: [
                { kind: "company", id: "k", name: "Dnipro Travel Kyiv", detail: "Dnipro Travel" },
                { kind: "company", id: "l", name: "Dnipro Travel Lviv", detail: "Dnipro Travel" },
              ],
              unused: [],
            },
          },
        },
        { body: plan },
      ],
    });
    renderApp("/assistant");
    await ask("top up Dnipro Travel by 100 UAH reason x");
    expect(
      await screen.findByText("“Dnipro Travel” matches several companies. Which one?"),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Dnipro Travel Lviv (Dnipro Travel)" }));
    await waitFor(() =>
      expect(server?.bodies["POST /admin_panel/ask"]?.[1]).toEqual({
        text: "top up Dnipro Travel Lviv by 100 UAH reason x",
        locale: "en",
      }),
    );
  });

  it("shows a refusal with its reason, and a question back with the nearest names and the words it did not use", async () => {
    server = fakeServer({
      "GET /account/details": adminSession(),
      "POST /admin_panel/ask": [
        {
          body: {
            kind: "refuse",
            refusal: {
              code: "outside_scope",
              preview: { code: "outside_scope", params: { ref: "Vistula Warszawa" }, text: "" },
            },
          },
        },
        {
          body: {
            kind: "clarify",
            clarify: {
              code: "not_found",
              preview: { code: "not_found", params: { ref: "Vistla Warsawa" }, text: "" },
              candidates: [{ kind: "company", id: "w", name: "Vistula Warszawa", detail: "Vistula Tours" }],
              unused: ["Vistla", "Warsawa"],
            },
          },
        },
      ],
    });
    renderApp("/assistant");
    await ask("turn off the channel for Vistula Warszawa");
    expect(await screen.findByText("Refused")).toBeInTheDocument();
    expect(screen.getByText(/“Vistula Warszawa” is outside your partner/)).toBeInTheDocument();
    await ask("balance of Vistla Warsawa");
    expect(
      await screen.findByText("Nothing named “Vistla Warsawa” found. Did you mean one of these?"),
    ).toBeInTheDocument();
    expect(screen.getByText("Words I did not use: Vistla Warsawa")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Vistula Warszawa (Vistula Tours)" }));
    await waitFor(() =>
      expect(server?.bodies["POST /admin_panel/ask"]?.[2]).toEqual({
        text: "balance of Vistula Warszawa",
        locale: "en",
      }),
    );
  });

  it("runs a step above the limit only once its amount is typed again, and sends what was typed", async () => {
    const large = { ...plan, plan: { ...plan.plan, retype_amounts: [{ step: 0, currency: "PLN" }] } };
    server = fakeServer({
      "GET /account/details": adminSession(),
      "POST /admin_panel/ask": { body: large },
      "POST /admin_panel/execute": {
        body: { plan_id: plan.plan.id, status: "executed", results: [] },
      },
    });
    renderApp("/assistant");
    await ask("top up Vistula Warszawa by 5,000 PLN, reason invoice 1182");
    const run = await screen.findByRole("button", { name: /Run confirmed steps/ });
    fireEvent.click(screen.getByRole("checkbox", { name: "Confirm step 1" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "I confirm the money movement" }));
    expect(run).toBeDisabled();
    fireEvent.change(screen.getByRole("textbox", { name: "Type the amount of step 1 again (PLN)" }), {
      target: { value: "5 000" },
    });
    expect(run).toBeEnabled();
    fireEvent.click(run);
    await waitFor(() =>
      expect(server?.bodies["POST /admin_panel/execute"]).toEqual([
        {
          plan_id: plan.plan.id,
          steps: [0],
          confirm_money: true,
          confirm_amounts: [{ step: 0, amount: 500000 }],
        },
      ]),
    );
  });
});
