// The PDFs' fonts are parsed once per process (issue 26: pdfkit parsed both DejaVu files again for every document,
// about 30 ms of the main thread per PDF, two or more per issued booking's itinerary mail). Documents of every kind
// and language written one after another, and side by side, share the parsed fonts and each still reads right.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "@jest/globals";
import {
  encodeSubset,
  glyphOutlineReads,
  subsetEncodes,
  type TtfSubset,
} from "@skyward/infra/documents/font-subset";
import { renderItineraryPdf } from "@skyward/infra/documents/itinerary";
import { fontGlyphLookups, fontParses } from "@skyward/infra/documents/pdf";
import { renderStatementPdf } from "@skyward/infra/documents/statements";
import { renderReceipt } from "@skyward/infra/documents/ticket-pdf";
import { companyStatement, ticketReceipt } from "./testing/receipt-fixture.ts";
import { pdfText } from "./testing/sales.ts";

/** What of a fontkit font the subset tests use. */
interface FontkitFont {
  createSubset(): TtfSubset & { includeGlyph(id: number): number };
  glyphsForString(text: string): { id: number }[];
}

const flat = (text: string) => text.replace(/\s+/g, " ");

describe("PDF fonts", () => {
  it("are parsed once, however many documents are written, and every document reads right", async () => {
    expect(fontParses()).toBe(0);
    const first = await renderReceipt(ticketReceipt("SHEVCHENKO/TARAS", "5661234567890"), "ua");
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
    const statement = await renderStatementPdf(companyStatement(), "Vistula Podróże", "pl");
    // Written side by side: each document lays out and subsets its own glyphs from the shared fonts.
    const [second, third] = await Promise.all([
      renderReceipt(ticketReceipt("GARCÍA/JOSÉ", "5661234567892"), "es"),
      renderReceipt(ticketReceipt("ІВАНЕНКО/ЮЛІЯ", "5661234567893"), "ua"),
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

// Characters' glyphs are looked up, and glyph outlines read, once per face and process too (pdfkit shaped every word
// of every document, and fontkit decoded every glyph of every document's subset again: most of an itinerary mail's
// CPU). A document written after others, its glyphs all met before, is byte for byte the document written first,
// and reads right.
/** The file without its moment of creation: the one thing two writings of one document differ in. */
const undated = (pdf: Buffer) => pdf.toString("latin1").replace(/\(D:\d{14}Z\)/g, "");

describe("PDF glyphs and outlines", () => {
  it("when a document's glyphs were all met before, then none is looked up or read again and the file is the same", async () => {
    const first = await renderReceipt(ticketReceipt("ІВАНЕНКО/ЮЛІЯ", "5661234567893"), "ua");
    // Other documents in between: their glyphs must not leak into the next one's subset or copyable text.
    await renderReceipt(ticketReceipt("GARCÍA/JOSÉ", "5661234567892"), "es");
    await renderReceipt(ticketReceipt("SHEVCHENKO/TARAS", "5661234567890"), "en");
    const [looked, read] = [fontGlyphLookups(), glyphOutlineReads()];
    // The documents before looked their glyphs up and read their outlines from the font (once per glyph and face).
    expect(looked).toBeGreaterThan(0);
    expect(read).toBeGreaterThan(0);
    const again = await renderReceipt(ticketReceipt("ІВАНЕНКО/ЮЛІЯ", "5661234567893"), "ua");
    expect([fontGlyphLookups(), glyphOutlineReads()]).toEqual([looked, read]);
    expect(undated(again)).toBe(undated(first));
    const text = (await pdfText(again)).replace(/\s+/g, " ");
    expect(text).toContain("ІВАНЕНКО/ЮЛІЯ");
    expect(text).toContain("1 350,50 UAH");
    // A new character is looked up once, in the face it is drawn in.
    await renderReceipt(ticketReceipt("ЄВГЕНІЯ/ҐЕРДАН", "5661234567895"), "ua");
    expect(fontGlyphLookups()).toBeGreaterThan(looked);
  });
});

// A document's font subsets are written without fontkit's table encoder (issue 26: a ninth of the jobs process's CPU),
// byte for byte as fontkit writes them: for subsets of both faces holding the letters of every language, accented
// letters drawn from parts (composite glyphs, whose parts join the subset), and the missing glyph alone.
describe("PDF font subsets", () => {
  const require = createRequire(import.meta.url);
  // fontkit itself (the font parser, which ships no types), to compare with.
  const { create: createFont } = require("fontkit") as { create(bytes: Buffer): unknown };
  const faces = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map(
    (file) => createFont(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as FontkitFont,
  );
  const texts = [
    "",
    "SHEVCHENKO/TARAS 5661234567890 1 350,50 UAH",
    "Маршрутна квитанція ІВАНЕНКО/ЮЛІЯ Їжак ґанок",
    "Łódź Żurawie — Vistula Podróże, Wrocław",
    "DUPONT/ÉLODIE Bon voyage, à bientôt ! œuvre Ÿ",
    "GARCÍA/JOSÉ Recibo de itinerario ¿Añadir? ñ ü",
  ];

  it.each(
    faces.flatMap((face, f) => texts.map((text, t) => [f === 0 ? "body" : "bold", t, face, text] as const)),
  )("the %s face's subset of text %i is the bytes fontkit writes", (_name, _index, face, text) => {
    const [ours, theirs] = [face.createSubset(), face.createSubset()];
    for (const subset of [ours, theirs])
      for (const glyph of face.glyphsForString(text)) subset.includeGlyph(glyph.id);
    const before = subsetEncodes();
    const fast = Buffer.from(
      encodeSubset(
        ours,
        face,
        () => ours.encode(),
        () => face.createSubset(),
      ),
    );
    expect(subsetEncodes()).toBe(before + 1);
    expect(fast.equals(Buffer.from(theirs.encode()))).toBe(true);
  });

  it("every document's subsets are written the fast way, and the document reads right", async () => {
    const before = subsetEncodes();
    const pdf = await renderReceipt(ticketReceipt("ŁUKASIEWICZ/ŻANETA", "5661234567894"), "pl");
    // The body face and the bold one, each embedded once however often the receipt switches between them.
    expect(subsetEncodes()).toBe(before + 2);
    expect(pdf.toString("latin1").match(/\/FontFile2 /g)).toHaveLength(2);
    const text = flat(await pdfText(pdf));
    expect(text).toContain("ŁUKASIEWICZ/ŻANETA");
    expect(text).toContain("5661234567894");
  });
});
