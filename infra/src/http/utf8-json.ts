/**
 * A value's JSON as UTF-8 bytes, byte for byte `Buffer.from(JSON.stringify(value))`, encoded in pieces so that a rare
 * character outside Latin-1 costs only its own piece (issue 26).
 *
 * V8 keeps a string one byte per character until a character above U+00FF joins it; from then on the whole string
 * is two bytes per character, and encoding it to UTF-8 takes the slow path. One airport name in a search answer
 * ("Henri Coandă International Airport") made the whole 84 KB answer two-byte: stringifying and encoding it took
 * 1.3 ms of the web thread, against 0.34 ms in pieces (a probe timing 2,000 encodings of a sandbox KBP-WAW answer,
 * three alternated rounds in one process).
 *
 * Objects and arrays are split member by member down to `depth` levels; below that a member is one JSON.stringify.
 * Everything JSON.stringify decides (toJSON, members left out, null in arrays, escapes) is decided by it: a value
 * with a `toJSON` is never split.
 */
export function utf8Json(value: unknown, depth = 3): Buffer {
  const pieces: Buffer[] = [];
  if (!encode(value, depth, pieces)) throw new TypeError("utf8Json: the value has no JSON");
  return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
}

const OPEN_OBJECT = Buffer.from("{");
const CLOSE_OBJECT = Buffer.from("}");
const OPEN_ARRAY = Buffer.from("[");
const CLOSE_ARRAY = Buffer.from("]");
const COMMA = Buffer.from(",");
const NULL = Buffer.from("null");

/** Appends the value's JSON to `pieces`; false (nothing appended) where JSON.stringify gives undefined. */
function encode(value: unknown, depth: number, pieces: Buffer[]): boolean {
  if (depth <= 0 || !splittable(value)) {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    pieces.push(Buffer.from(text));
    return true;
  }
  if (Array.isArray(value)) {
    pieces.push(OPEN_ARRAY);
    for (let i = 0; i < value.length; i++) {
      if (i > 0) pieces.push(COMMA);
      if (!encode(value[i], depth - 1, pieces)) pieces.push(NULL);
    }
    pieces.push(CLOSE_ARRAY);
    return true;
  }
  pieces.push(OPEN_OBJECT);
  let first = true;
  for (const key of Object.keys(value)) {
    const at = pieces.length;
    pieces.push(Buffer.from(`${first ? "" : ","}${JSON.stringify(key)}:`));
    if (encode((value as Record<string, unknown>)[key], depth - 1, pieces)) first = false;
    else pieces.length = at;
  }
  pieces.push(CLOSE_OBJECT);
  return true;
}

/** A plain object or array, whose JSON is its members' (no toJSON, not a boxed primitive). */
function splittable(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
