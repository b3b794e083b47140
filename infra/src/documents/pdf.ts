import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create as parseFont } from "fontkit";
import PDFDocument from "pdfkit";

/**
 * Every PDF the app writes (receipts, itineraries, statements, invoices) starts here: an A4 page with the two faces
 * of DejaVu Sans registered as "body" and "bold". The npm package `dejavu-fonts-ttf` gives them; their glyphs cover
 * the Latin of Polish, French and Spanish and the Cyrillic of Ukrainian.
 *
 * Each font file is read and parsed once per process and its tables are shared by every document (issue 26: pdfkit
 * parsed both 700 KB files again for every document, about 30 ms of the main thread per PDF, and an issued booking's
 * itinerary mail writes two or more). Each document gets a view of the parsed font with a glyph cache of its own:
 * fontkit keeps on a glyph the characters it was first asked for, and pdfkit writes those as the text a reader
 * copies out, so a glyph first met as a part of another (the Latin "a" inside the Cyrillic "а") must not carry its
 * empty list into the next document. Documents render from start to end without yielding, so none sees another's
 * reads of the shared font half-way.
 */

const require = createRequire(import.meta.url);
const FILES = {
  body: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
} as const;
type Face = keyof typeof FILES;

/** What of a parsed fontkit font this module touches: its glyph cache and the lookups it keeps once asked. */
interface ParsedFont {
  _glyphs: Record<number, unknown>;
  _cmapProcessor: unknown;
  bbox: unknown;
}

let parsed: Record<Face, ParsedFont> | null = null;
let parses = 0;

function parse(file: string): ParsedFont {
  parses++;
  const font = parseFont(readFileSync(file)) as ParsedFont;
  // Kept on the shared font once asked, so no document's view computes them again.
  void font._cmapProcessor;
  void font.bbox;
  return font;
}

/** This document's view of a shared font: every parsed table shared, a glyph cache of its own. */
function viewOf(font: ParsedFont): PDFKit.Mixins.PDFFontSource {
  const view = Object.create(font) as ParsedFont;
  view._glyphs = {};
  // pdfkit takes a font fontkit parsed (anything with a layout method) where its types name only paths and bytes.
  return view as unknown as PDFKit.Mixins.PDFFontSource;
}

function fonts(): Record<Face, PDFKit.Mixins.PDFFontSource> {
  parsed ??= { body: parse(FILES.body), bold: parse(FILES.bold) };
  return { body: viewOf(parsed.body), bold: viewOf(parsed.bold) };
}

/** How many font files this process has parsed: two, however many documents it wrote (tests). */
export const fontParses = (): number => parses;

/**
 * A new PDF document (A4, fonts "body" and "bold", starting in "body") and its bytes, which `done` resolves with
 * once the caller has drawn it and called `doc.end()`.
 */
export function openPdf(info: { title: string; author: string }): {
  doc: PDFKit.PDFDocument;
  done: Promise<Buffer>;
} {
  const { body, bold } = fonts();
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: { Title: info.title, Author: info.author },
    // The starting font: without one pdfkit parses Helvetica's metrics again for every document.
    font: body as unknown as string,
  });
  doc.registerFont("body", body);
  doc.registerFont("bold", bold);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, done };
}

/** Writes one PDF: `draw` sets its content; resolves with the file's bytes. */
export function renderPdf(
  info: { title: string; author: string },
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  const { doc, done } = openPdf(info);
  draw(doc);
  doc.end();
  return done;
}
