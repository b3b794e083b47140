import { describe, expect, it } from "@jest/globals";
import { TicketDownloadQuery, TicketFilter } from "./sales.ts";
import { receiptPricesForm, SalesFiltersForm } from "./sales-forms.ts";

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

describe("the sales filters form", () => {
  it("given filters, then the form accepts exactly what the ticket filter accepts", () => {
    const samples = [
      { text: "", date_from: null, date_to: null },
      { text: " kovalchuk ", date_from: "2026-01-01", date_to: "2026-01-01" },
      { text: "k".repeat(101), date_from: null, date_to: null },
      { text: "", date_from: "2026-01-02", date_to: "2026-01-01" },
      { text: "", date_from: "2000-01-01", date_to: "2026-01-01" },
    ];
    for (const sample of samples)
      expect([sample, SalesFiltersForm.safeParse(sample).success]).toEqual([
        sample,
        TicketFilter.safeParse({
          text: sample.text,
          date_from: sample.date_from ?? undefined,
          date_to: sample.date_to ?? undefined,
        }).success,
      ]);
  });

  it("given a refused range, then the end's field names why", () => {
    expect(
      messages(SalesFiltersForm.safeParse({ text: "", date_from: "2026-01-02", date_to: "2026-01-01" })),
    ).toEqual(["date_to: before_start"]);
    expect(
      messages(SalesFiltersForm.safeParse({ text: "", date_from: "2000-01-01", date_to: "2026-01-01" })),
    ).toEqual(["date_to: range_too_long"]);
  });
});

describe("the receipt's own prices form", () => {
  it("given prices in major units, then parses to custom prices in minor units the download query accepts", () => {
    const prices = receiptPricesForm(100).parse({ fare: 1000.5, taxes: "", fees: "25" });
    expect(prices).toEqual({ fare: 100050, taxes: 0, fees: 2500 });
    expect(TicketDownloadQuery.safeParse({ custom_prices: prices }).success).toBe(true);
  });

  it("given no fare or a negative amount, then each field names its key", () => {
    expect(messages(receiptPricesForm(100).safeParse({ fare: "", taxes: -1, fees: "" }))).toEqual([
      "fare: required",
      "taxes: amount",
    ]);
  });
});
