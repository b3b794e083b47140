import express, { type RequestHandler } from "express";
import { BadRequest, DomainError, InvalidInput, PayloadTooLarge, UnsupportedMediaType } from "./errors.ts";
import { asHttpError } from "./refusals.ts";

/**
 * Input no route can use is refused here, once, before CSRF, authentication or any handler runs: a broken `%`
 * escape in the path or query, a NUL or an unpaired UTF-16 surrogate in any string or key (PostgreSQL stores
 * neither in text nor jsonb, so they would otherwise surface as a 500 after part of the work), JSON nested deeper
 * than any request of the API, and bodies that are not JSON in UTF-8.
 */

/** Deeper than any request body the API defines (5 levels today); deeper input only serves to exhaust a stack. */
export const MAX_JSON_DEPTH = 32;

// Any surrogate at all is rare, so the exact check runs only on strings that hold one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL would refuse this text, or null when it stores it. */
export function forbiddenCharacter(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  if (text.includes("\u0000")) return "contains a NUL character";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate";
  return null;
}

/** The text with its forbidden characters written as `\uXXXX`, so an error can name a bad key without echoing it. */
const printable = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this rewrites
  text.replace(/[\u0000\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** RFC 6901 reference token. */
const token = (key: string) => printable(key).replaceAll("~", "~0").replaceAll("/", "~1");

export interface JsonProblem {
  pointer: string;
  detail: string;
  code: "invalid_characters" | "too_deep";
}

/** The first string, key or nesting in a parsed JSON value that no route can accept. Iterative: depth is input. */
export function jsonProblem(root: unknown): JsonProblem | null {
  const stack: [unknown, string, number][] = [[root, "", 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, pointer, depth] = next;
    if (typeof value === "string") {
      const bad = forbiddenCharacter(value);
      if (bad) return { pointer, detail: bad, code: "invalid_characters" };
    } else if (typeof value === "object" && value !== null) {
      if (depth >= MAX_JSON_DEPTH)
        return { pointer, detail: `nests deeper than ${MAX_JSON_DEPTH} levels`, code: "too_deep" };
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${pointer}/${i}`, depth + 1]);
      } else {
        for (const [key, child] of Object.entries(value)) {
          const at = `${pointer}/${token(key)}`;
          const bad = forbiddenCharacter(key);
          if (bad) return { pointer: at, detail: `has a key that ${bad}`, code: "invalid_characters" };
          stack.push([child, at, depth + 1]);
        }
      }
    }
  }
  return null;
}

const brokenEscape = (what: string, source?: { parameter: string }) =>
  new BadRequest(`${what} has a broken percent-escape`, "invalid_escape", source);

/** Decodes a URL component as the router and the query parser will, or says why neither can. */
function decodeComponent(raw: string, what: string, source?: { parameter: string }): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw brokenEscape(what, source);
  }
  const bad = forbiddenCharacter(decoded);
  if (bad) throw new BadRequest(`${what} ${bad}`, "invalid_characters", source);
}

/**
 * Path and query string: every `%` escape must decode to text PostgreSQL stores. (The query parser keeps a broken
 * escape as literal text and the router answers one in a path parameter with an error: both now a 400 here.)
 */
export const urlHygiene: RequestHandler = (req, _res, next) => {
  const url = req.url;
  // A NUL or a surrogate can only arrive percent-encoded: node refuses raw control bytes in the request line.
  if (!url.includes("%")) return next();
  const queryAt = url.indexOf("?");
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path.includes("%")) decodeComponent(path, "The path");
  if (queryAt >= 0) {
    for (const part of url.slice(queryAt + 1).split("&")) {
      if (!part.includes("%")) continue;
      const name = part.split("=", 1)[0] as string;
      decodeComponent(part.replaceAll("+", " "), "A query parameter", { parameter: printable(name) });
    }
  }
  next();
};

/** Every route reads JSON: a body of another type is refused rather than silently read as no body. */
export const contentTypeHygiene: RequestHandler = (req, _res, next) => {
  const declared = req.headers["content-type"] !== undefined;
  // A browser's empty POST says `Content-Length: 0`, node's empty PUT is chunked with no type: neither is a body.
  const body =
    Number(req.headers["content-length"]) > 0 || (req.headers["transfer-encoding"] !== undefined && declared);
  if (body && req.is("application/json") === false) return next(new UnsupportedMediaType());
  next();
};

/** The parsed body: no forbidden character in any string or key, nothing nested deeper than the API's bodies. */
export const bodyHygiene: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) return next();
  const problem = jsonProblem(req.body);
  if (!problem) return next();
  next(
    new BadRequest(`${problem.pointer || "The body"} ${problem.detail}`, problem.code, {
      pointer: problem.pointer,
    }),
  );
};

/** The body: its type, then JSON parsing, then the parsed value's checks (`urlHygiene` runs before all routes). */
export function readInput(options: { limit: string }): RequestHandler[] {
  return [contentTypeHygiene, express.json({ limit: options.limit }), bodyHygiene];
}

/**
 * The client errors of body-parser and the router, as named errors for the envelope (anything else is null).
 * Without this the router's failure to decode a path parameter (a URIError carrying status 400) answers 500.
 */
export function clientErrorOf(error: unknown): DomainError | null {
  // Ours: a route's named error, or a decider's refusal as HTTP (refusals.ts).
  const named = asHttpError(error);
  if (named) return named;
  if (error instanceof URIError)
    return brokenEscape(error.message.startsWith("Failed to decode param") ? "The path" : "The request");
  const e = error as { type?: unknown; status?: unknown; expose?: unknown; message?: unknown };
  switch (e.type) {
    case "entity.parse.failed":
      return new InvalidInput([{ pointer: "", detail: "is not valid JSON", location: "body" }], 400);
    case "entity.too.large":
      return new PayloadTooLarge();
    case "charset.unsupported":
    case "encoding.unsupported":
      return new UnsupportedMediaType(typeof e.message === "string" ? e.message : undefined);
  }
  if (typeof e.status === "number" && e.status >= 400 && e.status < 500) {
    const code = typeof e.type === "string" ? e.type.replaceAll(".", "_") : "bad_request";
    const detail = e.expose === true && typeof e.message === "string" ? e.message : undefined;
    return new DomainError(e.status, code, "Bad request", detail);
  }
  return null;
}
