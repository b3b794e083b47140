import { describe, expect, it } from "@jest/globals";
import { CreateCompanyRequest } from "./administration.ts";
import {
  ASSISTANT_CATALOGUE,
  catalogueEntry,
  catalogueFor,
  catalogueTools,
  toolSchema,
} from "./assistant-catalogue.ts";
import { TransactionRequest } from "./balances.ts";

describe("the assistant's command catalogue", () => {
  it("names each entry once, gives it roles and a description, and a route to every command", () => {
    const names = ASSISTANT_CATALOGUE.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const e of ASSISTANT_CATALOGUE) {
      expect(e.roles.length).toBeGreaterThan(0);
      expect(e.description.length).toBeGreaterThan(10);
      expect(e.kind === "command" ? typeof e.route : "question").toBe(
        e.kind === "command" ? "function" : "question",
      );
    }
  });

  it("exports every entry's arguments as JSON Schema, built from the routes' own request schemas", () => {
    for (const e of ASSISTANT_CATALOGUE) expect(toolSchema(e as never)).toMatchObject({ type: "object" });
    // The very schema objects the HTTP routes validate with, not copies.
    const bodyOf = (name: string) =>
      (catalogueEntry(name)?.args as unknown as { shape?: { body?: unknown } } | undefined)?.shape?.body;
    expect(bodyOf("balance_transaction")).toBe(TransactionRequest);
    expect(bodyOf("create_company")).toBe(CreateCompanyRequest);
  });

  it("flags money and keeps it to administrators; secrets are never offered to a model", () => {
    expect(ASSISTANT_CATALOGUE.filter((e) => e.movesMoney).map((e) => e.name)).toEqual([
      "balance_transaction",
      "set_credit_limit",
    ]);
    expect(catalogueFor("Supervisor").some((e) => e.movesMoney)).toBe(false);
    expect(catalogueFor("Agent")).toEqual([]);
    const offered = catalogueTools("Admin").map((t) => t.name);
    expect(offered).not.toContain("create_card");
    expect(offered).not.toContain("set_channel_credentials");
  });

  it("turns resolved arguments into the ordinary route call", () => {
    const e = catalogueEntry("toggle_company_channel");
    expect(e?.route?.({ channel_id: "ch 1", company_id: "co", body: { active: false } })).toEqual({
      method: "PATCH",
      path: "/ticketing/company_channels/ch%201_co",
      body: { active: false },
    });
  });
});
