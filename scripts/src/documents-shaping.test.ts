// Words are shaped and glyphs decoded once per face and process (issue 26: fontkit's shaping of every word of every
// document was a quarter of an itinerary mail's main-thread time, decoding the glyphs it embeds an eighth). A
// document written after others, its words all shaped before, is byte for byte the document written first, and
// reads right.
import { describe, expect, it } from "@jest/globals";
import { fontShapings, glyphDecodes } from "@skyward/infra/documents/pdf";
import { type Receipt, renderReceipt } from "@skyward/infra/documents/ticket-pdf";
import { pdfText } from "./testing/sales.ts";

const receipt = (passenger: string, ticket: string): Receipt => ({
  kind: "ticket",
  passenger,
  loyalty: null,
  ssrs: [],
  ticket_number: ticket,
  locator: "SHP123",
  status: "issued",
  issued_at: "2026-11-29T08:00:00.000Z",
  time_zone: "Europe/Kyiv",
  emd: null,
  carrier: "PS",
  route: "KBP-WAW",
  flights: [],
  fare: null,
  paid_by: null,
  price: {
    fare: { amount: 120_000, currency: "UAH" },
    taxes: { amount: 15_050, currency: "UAH" },
    fees: { amount: 0, currency: "UAH" },
    total: { amount: 135_050, currency: "UAH" },
    custom: false,
  },
  agency: {
    name: "Dnipro Travel",
    company: "Acme",
    agent: "Olena K",
    email: "olena@dnipro.test",
    phone: null,
  },
});

/** The file without its moment of creation, and its /ID (made from it): the one thing two writings of one document differ in. */
const undated = (pdf: Buffer) =>
  pdf
    .toString("latin1")
    .replace(/\(D:\d{14}Z\)/g, "")
    .replace(/\/ID \[[^\]]*\]/g, "");

describe("PDF shaping and glyph outlines", () => {
  it("when a document's words were all shaped before, then none is shaped or decoded again and the file is the same", async () => {
    const first = await renderReceipt(receipt("ІВАНЕНКО/ЮЛІЯ", "5661234567893"), "ua");
    // Other documents in between: their glyphs must not leak into the next one's subset or copyable text.
    await renderReceipt(receipt("GARCÍA/JOSÉ", "5661234567892"), "es");
    await renderReceipt(receipt("SHEVCHENKO/TARAS", "5661234567890"), "en");
    const [shaped, decoded] = [fontShapings(), glyphDecodes()];
    const again = await renderReceipt(receipt("ІВАНЕНКО/ЮЛІЯ", "5661234567893"), "ua");
    // No word shaped again, no glyph of its subset decoded again.
    expect([fontShapings(), glyphDecodes()]).toEqual([shaped, decoded]);
    expect(undated(again)).toBe(undated(first));
    const text = (await pdfText(again)).replace(/\s+/g, " ");
    expect(text).toContain("ІВАНЕНКО/ЮЛІЯ");
    expect(text).toContain("1 350,50 UAH");
  });
});
