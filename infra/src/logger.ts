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

export function createLogger(level: string, destination?: DestinationStream) {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
