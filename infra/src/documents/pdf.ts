import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create as parseFont } from "fontkit";
import PDFDocument from "pdfkit";
import { encodeSubset, type TtfSubset } from "./font-subset.ts";

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
  layout(text: unknown, ...rest: unknown[]): GlyphRun;
  createSubset(): TtfSubset;
  glyphsForString(text: string): unknown[];
  getGlyph(id: number, codePoints?: number[]): Glyph;
}
interface Glyph {
  id: number;
  codePoints: number[];
  _decode(): unknown;
  _metrics?: GlyphMetrics;
  _getMetrics(cbox?: unknown): GlyphMetrics;
}
interface GlyphMetrics {
  advanceWidth: number;
  advanceHeight: number;
  leftBearing: number;
  topBearing: number;
}
interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
/** What pdfkit reads of a layout: its glyphs, their positions (which it scales in place) and the advance. */
interface GlyphRun {
  glyphs: Glyph[];
  positions: GlyphPosition[];
  readonly advanceWidth: number;
}

/**
 * A word shaped once per face and process (issue 26: fontkit's OpenType shaping of every word of every document was
 * a quarter of a document's main-thread time; pdfkit keeps a word's layout for one document only). What is kept is
 * the shaping's outcome: glyph ids, the characters each stands for, and unscaled positions. A document that meets
 * the word again gets its own glyphs for it from its own view, asked as fontkit's layout asks for them (first the
 * characters' glyphs, then the shaped ones with their characters), so its glyph cache, its subset and its copyable
 * text are what shaping the word itself would have made.
 */
interface Shaped {
  ids: number[];
  codePoints: number[][];
  positions: GlyphPosition[];
}
const SHAPED_WORDS = 20_000;
const shapedOf = new WeakMap<ParsedFont, Map<string, Shaped>>();
let shapings = 0;

function layoutOnce(font: ParsedFont, view: ParsedFont, text: unknown, rest: unknown[]): GlyphRun {
  // pdfkit asks with a string and, at most, its features; anything else is laid out as fontkit would.
  if (typeof text !== "string" || rest.length > 1 || typeof rest[0] === "string")
    return font.layout.call(view, text, ...rest);
  const key = `${JSON.stringify(rest[0] ?? null)}\u0000${text}`;
  let words = shapedOf.get(font);
  if (!words) {
    words = new Map();
    shapedOf.set(font, words);
  }
  const known = words.get(key);
  if (!known) {
    shapings++;
    const run = font.layout.call(view, text, ...rest);
    if (words.size >= SHAPED_WORDS) words.clear();
    words.set(key, {
      ids: run.glyphs.map((g) => g.id),
      codePoints: run.glyphs.map((g) => [...g.codePoints]),
      positions: run.positions.map(({ xAdvance, yAdvance, xOffset, yOffset }) => ({
        xAdvance,
        yAdvance,
        xOffset,
        yOffset,
      })),
    });
    return run;
  }
  view.glyphsForString(text);
  const positions = known.positions.map((p) => ({ ...p }));
  return {
    glyphs: known.ids.map((id, i) => view.getGlyph(id, known.codePoints[i])),
    positions,
    get advanceWidth() {
      let width = 0;
      for (const p of positions) width += p.xAdvance;
      return width;
    },
  };
}

/**
 * Each glyph's outline decoded once per face and process: a document's subset decodes every glyph it embeds to find
 * a composite's parts (issue 26: an eighth of an itinerary mail's main-thread time went on decoding the same
 * glyphs for every document). The decoded outline depends on the font and the glyph id alone, and nothing changes
 * it (these faces have no variations).
 */
const decodedOf = new WeakMap<ParsedFont, Map<number, unknown>>();
let decodes = 0;

/**
 * Each glyph's metrics (advance, bearings) likewise, once per face and process: pdfkit asks every glyph of every word
 * of every document for its advance, and fontkit reads it, with the glyph's box, anew for each document's glyph
 * (issue 26: 4 % of the jobs process's CPU). They depend on the font and the glyph id alone (no variations).
 */
const metricsOf = new WeakMap<ParsedFont, Map<number, GlyphMetrics>>();
let metricReads = 0;

function withSharedMetrics(font: ParsedFont, glyph: Glyph): void {
  const read = glyph._getMetrics;
  glyph._getMetrics = function (this: Glyph, cbox?: unknown) {
    if (this._metrics) return this._metrics;
    let metrics = metricsOf.get(font);
    if (!metrics) {
      metrics = new Map();
      metricsOf.set(font, metrics);
    }
    const known = metrics.get(this.id);
    if (known) {
      this._metrics = { ...known };
      return this._metrics;
    }
    metricReads++;
    const own = read.call(this, cbox);
    metrics.set(this.id, { ...own });
    return own;
  };
}

/** How many glyphs' metrics this process has read from the font (tests: a glyph met again is not read again). */
export const glyphMetricReads = (): number => metricReads;

function withSharedOutline(font: ParsedFont, glyph: Glyph | null): Glyph | null {
  if (!glyph || Object.hasOwn(glyph, "_decode")) return glyph;
  withSharedMetrics(font, glyph);
  const decode = glyph._decode;
  glyph._decode = () => {
    let outlines = decodedOf.get(font);
    if (!outlines) {
      outlines = new Map();
      decodedOf.set(font, outlines);
    }
    if (outlines.has(glyph.id)) return outlines.get(glyph.id);
    decodes++;
    const decoded = decode.call(glyph);
    outlines.set(glyph.id, decoded);
    return decoded;
  };
  return glyph;
}

/** How many glyph outlines this process has decoded (tests: a glyph embedded again is not decoded again). */
export const glyphDecodes = (): number => decodes;

/** How many words this process has shaped (tests: a word met again in another document is not shaped again). */
export const fontShapings = (): number => shapings;

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
function viewOf(font: ParsedFont): ParsedFont {
  const view = Object.create(font) as ParsedFont;
  view._glyphs = {};
  view.layout = (text, ...rest) => layoutOnce(font, view, text, rest);
  view.getGlyph = (id, codePoints) =>
    withSharedOutline(font, font.getGlyph.call(view, id, codePoints)) as Glyph;
  // The document's subset is written without fontkit's table encoder, to the same bytes (font-subset.ts).
  view.createSubset = () => {
    faceOpens++;
    const subset = font.createSubset.call(view);
    const fontkits = subset.encode.bind(subset);
    subset.encode = () => encodeSubset(subset, font, fontkits, () => font.createSubset.call(viewOf(font)));
    return subset;
  };
  return view;
}

/** pdfkit takes a font fontkit parsed (anything with a layout method) where its types name only paths and bytes. */
const forPdfkit = (font: ParsedFont) => font as unknown as PDFKit.Mixins.PDFFontSource;

function fonts(): Record<Face, PDFKit.Mixins.PDFFontSource> {
  parsed ??= { body: parse(FILES.body), bold: parse(FILES.bold) };
  return { body: forPdfkit(viewOf(parsed.body)), bold: forPdfkit(viewOf(parsed.bold)) };
}

/** How many times a document has opened a face (each with a subset of its own): once per face used (tests). */
export const faceOpenings = (): number => faceOpens;
let faceOpens = 0;

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
    // No starting font: without "body" as the first font opened below, pdfkit parsed Helvetica's metrics again for
    // every document; with the body face given here, every later switch back to "body" opened the face again (a
    // subset, and its name table compared with the first's through JSON) only to keep the first (issue 26).
    font: "",
  });
  doc.registerFont("body", body);
  doc.registerFont("bold", bold);
  doc.font("body");
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
