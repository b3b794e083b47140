import { describe, expect, it } from "@jest/globals";
import { SalesQuery, salesPageSize, ticketFileName } from "./sales.ts";

describe("sales contracts", () => {
  it("when the viewport is under 500 px high, then 5 lines a page; else floor((height - 200) / 18) + 1", () => {
    expect(salesPageSize(320)).toBe(5);
    expect(salesPageSize(499)).toBe(5);
    expect(salesPageSize(500)).toBe(17);
    expect(salesPageSize(900)).toBe(39);
    expect(salesPageSize(1080)).toBe(49);
  });

  it("when a receipt is named, then from passenger and ticket number, in letters any file system takes", () => {
    expect(ticketFileName("PETRENKO/IVAN", "5661234567890")).toBe("PETRENKO_IVAN_5661234567890.pdf");
    expect(ticketFileName("O'NEIL-SMITH/ANNE MARIE", "0801234567890")).toBe(
      "O_NEIL_SMITH_ANNE_MARIE_0801234567890.pdf",
    );
    expect(ticketFileName("../", "0801234567890")).toBe("ticket_0801234567890.pdf");
  });

  it("when the sales query comes as bracketed params, then the filter parses and the first page is 1", () => {
    expect(SalesQuery.parse({ ticket: { text: " abc ", date_from: "2026-01-01" } })).toEqual({
      ticket: { text: "abc", date_from: "2026-01-01" },
      page: 1,
      per_page: 25,
    });
    expect(SalesQuery.safeParse({ ticket: { date_from: "2026-02-01", date_to: "2026-01-01" } }).success).toBe(
      false,
    );
  });
});
