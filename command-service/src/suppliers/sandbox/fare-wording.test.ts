// Every brand and rule text the sandbox supplier files is wording the interface can translate
// (contracts/src/fare-wording.ts): a change of wording here fails this test rather than showing English.
import { describe, expect, it } from "@jest/globals";
import { RULE_SECTION_TITLES, readRuleText, standardBrandCabin } from "@skyward/contracts/fare-wording";
import { SearchRequest } from "@skyward/contracts/offers";
import type { SupplierCall } from "../supplier.ts";
import { SandboxSupplier } from "./sandbox-supplier.ts";

const call: SupplierCall = {
  now: new Date("2025-05-20T09:00:00Z"),
  currency: "EUR",
  credentials: { login: "agency", password: "secret" },
};

describe("sandbox fare wording", () => {
  it("when fares of network and low-cost carriers in every cabin are filed, then each brand and rule sentence is known wording", async () => {
    const supplier = new SandboxSupplier();
    const seen = new Set<string>();
    let rulesRead = 0;
    for (const [origin, destination] of [
      ["KBP", "WAW"],
      ["WAW", "BCN"],
      ["LWO", "LHR"],
    ])
      for (const cabin of ["economy", "premium_economy", "business", "first"] as const) {
        const result = await supplier.search(
          SearchRequest.parse({
            origin,
            destination,
            departure_date: "2025-06-01",
            passengers: { adults: 1 },
            cabin,
          }),
          call,
        );
        for (const od of result.origin_destinations.slice(0, 6))
          for (const fare of od.fares) {
            expect([fare.brand_name, standardBrandCabin(fare)]).toEqual([fare.brand_name, fare.cabin]);
            const rules = await supplier.fareRules({ fare_id: fare.fare_id }, call);
            for (const section of rules.sections) {
              expect(RULE_SECTION_TITLES[section.category as keyof typeof RULE_SECTION_TITLES]).toBe(
                section.title,
              );
              expect([section.text, readRuleText(section.text) !== null]).toEqual([section.text, true]);
              seen.add(section.text);
              rulesRead++;
            }
          }
      }
    // Not vacuous: many fares, and both the free, fee and not-permitted forms among them.
    expect(rulesRead).toBeGreaterThan(100);
    const kinds = new Set([...seen].flatMap((text) => (readRuleText(text) ?? []).map((p) => p.kind)));
    expect([...kinds].sort()).toEqual(["fee", "free", "not_permitted", "sentence"]);
  });

  it("when a text has a sentence not in the wording, then it is not read at all", () => {
    expect(
      readRuleText("Changes before departure free of charge. Name changes need a new ticket."),
    ).toBeNull();
    expect(readRuleText("Changes after departure for 50.00 EUR per passenger.")).toEqual([
      { kind: "fee", action: "change_after", amount: 5000, currency: "EUR" },
    ]);
  });
});
