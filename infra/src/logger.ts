import { type DestinationStream, pino } from "pino";

export type { Logger } from "pino";

/** Fields that carry secrets wherever they appear in a log line, at the top or up to two levels down. */
const SECRET_FIELDS = [
  "password",
  "password_hash",
  "otp_attempt",
  "code",
  "token",
  "api_token",
  "secret",
  "cookie",
  "authorization",
  "card_number",
  "number_card",
  "pan",
  "cvv",
  "cvc",
  "csc",
  "text",
];

/**
 * What the log never shows: credentials in request and response headers (pino-http's `req`/`res`), and any
 * field named like a password, code, token or card detail. Mail and call bodies (`text`) are secrets too: they
 * carry sign-in codes.
 */
export const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["proxy-authorization"]',
  'req.headers["x-csrf-token"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

/** Query parameters whose values say nothing of a person: paging, order and kinds. Every other value is redacted. */
const PLAIN_QUERY_PARAMETERS = new Set([
  "page",
  "per_page",
  "limit",
  "sort",
  "order",
  "direction",
  "status",
  "kind",
  "type",
]);

/**
 * A request's URL as the log shows it: the path, and the query's names with their values redacted but for paging and
 * kinds, since a query carries what an agent typed (a traveller's name or passport number, an e-mail address).
 */
export function loggedUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const parts = url
    .slice(at + 1)
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const equals = part.indexOf("=");
      const name = equals < 0 ? part : part.slice(0, equals);
      if (equals < 0 || PLAIN_QUERY_PARAMETERS.has(decodeName(name))) return part;
      return `${name}=[redacted]`;
    });
  return `${url.slice(0, at)}?${parts.join("&")}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}

/** pino-http's request serializer: the URL as {@link loggedUrl} shows it, and no parsed query beside it. */
export function loggedRequest<Serialized extends { url?: string; query?: unknown }>(req: Serialized) {
  const { query: _query, ...rest } = req;
  return rest.url === undefined ? rest : { ...rest, url: loggedUrl(rest.url) };
}

export function createLogger(level: string, destination?: DestinationStream) {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
