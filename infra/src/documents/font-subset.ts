/**
 * A TrueType subset's bytes, written as fontkit writes them, without fontkit's table encoder (issue 26: fontkit
 * writes a subset through restructure, field by field and pointer by pointer, and that was a ninth of the jobs
 * process's CPU: every itinerary mail embeds two subsets per PDF, two PDFs or more per mail).
 *
 * A subset of these fonts holds nine tables (head, hhea, loca, maxp, cvt, prep, glyf, hmtx, fpgm). Six of them are
 * the font's and never change but for one count each (maxp's glyph count, hhea's count of metrics); they are taken
 * once per face from fontkit's own subset of the missing glyph alone, so they are byte for byte what fontkit writes.
 * The other three (loca, glyf, hmtx) are what fontkit's subset gathers for the document's glyphs, written here as
 * the plain arrays they are. The directory, its table order (fontkit's), its zero checksums and its offsets (each
 * table right after the one before) are fontkit's too. `subsetEncodes` counts the subsets written the fast way;
 * any font this does not know how to write (CFF outlines, a table it does not expect) is left to fontkit.
 */

/** What of fontkit's TrueType subset this module reads and drives (its fields are fontkit's own names). */
export interface TtfSubset {
  glyphs: number[];
  glyf: Uint8Array[];
  offset: number;
  loca: { offsets: number[]; version: number };
  hmtx: { metrics: { advance: number; bearing: number }[]; bearings: number[] };
  cff?: unknown;
  font: { loca: { version: number } };
  includeGlyph(gid: number): number;
  encode(): Uint8Array;
}

/** The font's tables as fontkit writes them in a subset, in its order; the three per-document ones left empty. */
interface Template {
  header: Buffer;
  tags: string[];
  fixed: Map<string, Buffer>;
}

const PER_DOCUMENT = new Set(["loca", "glyf", "hmtx"]);
const EXPECTED = new Set(["head", "hhea", "loca", "maxp", "cvt ", "prep", "glyf", "hmtx", "fpgm"]);
const templates = new WeakMap<object, Template | null>();
let encodes = 0;

/** How many subsets this process has written without fontkit's encoder (tests). */
export const subsetEncodes = (): number => encodes;

/** The font's fixed tables, read out of fontkit's own subset of glyph 0; null when its layout is not the expected one. */
function templateOf(font: object, fresh: () => TtfSubset): Template | null {
  if (templates.has(font)) return templates.get(font) ?? null;
  const bytes = Buffer.from(fresh().encode());
  const numTables = bytes.readUInt16BE(4);
  const tags: string[] = [];
  const fixed = new Map<string, Buffer>();
  let ok = true;
  for (let i = 0; i < numTables; i++) {
    const entry = 12 + i * 16;
    const tag = bytes.toString("latin1", entry, entry + 4);
    const offset = bytes.readUInt32BE(entry + 8);
    const length = bytes.readUInt32BE(entry + 12);
    if (!EXPECTED.has(tag) || bytes.readUInt32BE(entry + 4) !== 0) ok = false;
    tags.push(tag);
    if (!PER_DOCUMENT.has(tag)) fixed.set(tag, Buffer.from(bytes.subarray(offset, offset + length)));
  }
  for (const tag of ["head", "hhea", "maxp"]) if (!fixed.has(tag)) ok = false;
  const template = ok ? { header: Buffer.from(bytes.subarray(0, 12)), tags, fixed } : null;
  templates.set(font, template);
  return template;
}

/** A glyph as a subset takes it: its bytes in the font's glyf table, the parts of a composite one, its metrics. */
interface Outline {
  bytes: Buffer;
  components: { glyphID: number; pos: number }[];
  advance: number;
  bearing: number;
}

/** What of fontkit's font and glyph this module reads to take a glyph's outline (fontkit's own names). */
interface FontkitInternals {
  loca: { offsets: number[] };
  _getTableStream(tag: string): { pos: number; readBuffer(length: number): Buffer };
  getGlyph(id: number): {
    advanceWidth: number;
    _decode(): { numberOfContours: number; components?: { glyphID: number; pos: number }[] } | null;
    _getMetrics(): { leftBearing: number };
  };
}

const outlinesOf = new WeakMap<object, Map<number, Outline>>();
let outlineReads = 0;

/** How many glyphs' outlines this process has read from a font: once per glyph and face (tests). */
export const glyphOutlineReads = (): number => outlineReads;

/**
 * A glyph's outline, read (and decoded, to find a composite's parts) once per face and process (issue 26: decoding
 * every glyph of every document's subset again was half of a document's CPU). It depends on the font and the
 * glyph id alone (these faces have no variations).
 */
function outlineOf(font: object, gid: number): Outline {
  let outlines = outlinesOf.get(font);
  if (!outlines) {
    outlines = new Map();
    outlinesOf.set(font, outlines);
  }
  const known = outlines.get(gid);
  if (known) return known;
  outlineReads++;
  const f = font as FontkitInternals;
  const glyph = f.getGlyph(gid);
  const glyf = glyph._decode();
  const stream = f._getTableStream("glyf");
  const [start, end] = [f.loca.offsets[gid] as number, f.loca.offsets[gid + 1] as number];
  stream.pos += start;
  const outline: Outline = {
    bytes: Buffer.from(stream.readBuffer(end - start)),
    components:
      glyf && glyf.numberOfContours < 0
        ? (glyf.components ?? []).map(({ glyphID, pos }) => ({ glyphID, pos }))
        : [],
    advance: glyph.advanceWidth,
    bearing: glyph._getMetrics().leftBearing,
  };
  outlines.set(gid, outline);
  return outline;
}

/** As fontkit's TTFSubset._addGlyph adds a glyph, from its outline read once: a composite's parts join the subset. */
function addGlyph(subset: TtfSubset, font: object, gid: number): void {
  const outline = outlineOf(font, gid);
  let bytes = outline.bytes;
  if (outline.components.length > 0) {
    bytes = Buffer.from(bytes);
    for (const { glyphID, pos } of outline.components) bytes.writeUInt16BE(subset.includeGlyph(glyphID), pos);
  }
  subset.glyf.push(bytes);
  subset.loca.offsets.push(subset.offset);
  subset.hmtx.metrics.push({ advance: outline.advance, bearing: outline.bearing });
  subset.offset += bytes.length;
}

/**
 * The subset's bytes: the same as `fontkits()` (fontkit's own encoding of it), written directly. `fresh` makes a new,
 * empty subset of the same font (fontkit's, whose own encoding gives the font's fixed tables, once per face).
 */
export function encodeSubset(
  subset: TtfSubset,
  font: object,
  fontkits: () => Uint8Array,
  fresh: () => TtfSubset,
): Uint8Array {
  const template = subset.cff == null ? templateOf(font, fresh) : null;
  if (!template) return fontkits();
  encodes++;
  // As fontkit's TTFSubset.encode gathers them: every glyph, the components of a composite one appended on the way.
  subset.glyf = [];
  subset.offset = 0;
  subset.loca = { offsets: [], version: subset.font.loca.version };
  subset.hmtx = { metrics: [], bearings: [] };
  for (let i = 0; i < subset.glyphs.length; i++) addGlyph(subset, font, subset.glyphs[i] as number);
  subset.loca.offsets.push(subset.offset);

  const tables = new Map<string, Buffer>();
  const { offsets, version } = subset.loca;
  const loca = Buffer.alloc(offsets.length * (version === 0 ? 2 : 4));
  offsets.forEach((offset, i) => {
    if (version === 0) loca.writeUInt16BE(offset >>> 1, i * 2);
    else loca.writeUInt32BE(offset, i * 4);
  });
  tables.set("loca", loca);
  tables.set("glyf", Buffer.concat(subset.glyf));
  const hmtx = Buffer.alloc(subset.hmtx.metrics.length * 4);
  subset.hmtx.metrics.forEach(({ advance, bearing }, i) => {
    hmtx.writeUInt16BE(advance, i * 4);
    hmtx.writeInt16BE(bearing, i * 4 + 2);
  });
  tables.set("hmtx", hmtx);
  const maxp = Buffer.from(template.fixed.get("maxp") as Buffer);
  maxp.writeUInt16BE(subset.glyf.length, 4);
  const hhea = Buffer.from(template.fixed.get("hhea") as Buffer);
  hhea.writeUInt16BE(subset.hmtx.metrics.length, 34);
  tables.set("maxp", maxp);
  tables.set("hhea", hhea);

  const parts = template.tags.map((tag) => tables.get(tag) ?? (template.fixed.get(tag) as Buffer));
  const directory = Buffer.alloc(12 + template.tags.length * 16);
  template.header.copy(directory);
  let offset = directory.length;
  template.tags.forEach((tag, i) => {
    const entry = 12 + i * 16;
    directory.write(tag, entry, 4, "latin1");
    directory.writeUInt32BE(0, entry + 4);
    directory.writeUInt32BE(offset, entry + 8);
    directory.writeUInt32BE((parts[i] as Buffer).length, entry + 12);
    offset += (parts[i] as Buffer).length;
  });
  return Buffer.concat([directory, ...parts]);
}
