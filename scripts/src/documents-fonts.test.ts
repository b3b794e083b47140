// The PDFs' fonts are parsed once per process (issue 26: pdfkit parsed both DejaVu files again for every document,
// about 30 ms of the main thread per PDF, two or more per issued booking's itinerary mail). Documents of every kind
// and language written one after another, and side by side, share the parsed fonts and each still reads right.
import { describe, expect, it } from "@jest/globals";
import { renderItineraryPdf } from "@skyward/infra/documents/itinerary";
import { fontParses, fontShapings, glyphDecodes } from "@skyward/infra/documents/pdf";
import { renderStatementPdf } from "@skyward/infra/documents/statements";
import { type Receipt, renderReceipt } from "@skyward/infra/documents/ticket-pdf";
import { pdfText } from "./testing/sales.ts";

const receipt = (passenger: string, ticket: string): Receipt => ({
  kind: "ticket",
  passenger,
  loyalty: null,
  ssrs: [],
  ticket_number: ticket,
  locator: "FNT123",
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

const flat = (text: string) => text.replace(/\s+/g, " ");

describe("PDF fonts", () => {
  it("are parsed once, however many documents are written, and every document reads right", async () => {
    expect(fontParses()).toBe(0);
    const first = await renderReceipt(receipt("SHEVCHENKO/TARAS", "5661234567890"), "ua");
    // The body and the bold face, once each.
    expect(fontParses()).toBe(2);

    const itinerary = await renderItineraryPdf(
      {
        locator: "FNT123",
        agency: { name: "Vistula Podróże", email: "biuro@vistula.test", phone: "+48 22 000 00 00" },
        note: "Bon voyage, à bientôt !",
        passengers: [{ name: "DUPONT/ÉLODIE", ticket_number: "5661234567891" }],
        flights: [],
        fare: null,
        extras: [],
      },
      "fr",
    );
    const statement = await renderStatementPdf(
      {
        company_id: "c1",
        company_name: "Łódź Żurawie",
        month: "2026-10",
        currency: "PLN",
        opening_balance: 0,
        closing_balance: -10_000,
        charged: 10_000,
        credited: 0,
        movements: [],
      },
      "Vistula Podróże",
      "pl",
    );
    // Written side by side: each document lays out and subsets its own glyphs from the shared fonts.
    const [second, third] = await Promise.all([
      renderReceipt(receipt("GARCÍA/JOSÉ", "5661234567892"), "es"),
      renderReceipt(receipt("ІВАНЕНКО/ЮЛІЯ", "5661234567893"), "ua"),
    ]);
    expect(fontParses()).toBe(2);

    expect(flat(await pdfText(first))).toContain("Маршрутна квитанція");
    expect(flat(await pdfText(first))).toContain("SHEVCHENKO/TARAS");
    expect(flat(await pdfText(itinerary))).toContain("DUPONT/ÉLODIE");
    expect(flat(await pdfText(itinerary))).toContain("Bon voyage, à bientôt !");
    expect(flat(await pdfText(statement))).toContain("Łódź Żurawie");
    expect(flat(await pdfText(second))).toContain("Recibo de itinerario");
    expect(flat(await pdfText(second))).toContain("GARCÍA/JOSÉ");
    expect(flat(await pdfText(third))).toContain("ІВАНЕНКО/ЮЛІЯ");
    expect(flat(await pdfText(third))).toContain("1 350,50 UAH");
  });
});

// Words are shaped and glyphs decoded once per face and process too (fontkit's shaping of every word of every document
// was a quarter of an itinerary mail's main-thread time, decoding the glyphs it embeds an eighth). A document written
// after others, its words all shaped before, is byte for byte the document written first, and reads right.
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
