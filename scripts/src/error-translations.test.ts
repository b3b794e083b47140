// Every error code the server can answer has a text in the front end's `errors` catalogue of every language, so an
// agent reads what went wrong in their own language instead of the server's English detail.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";

const root = fileURLToPath(new URL("../../", import.meta.url));
const LANGUAGES = ["en", "ua", "pl", "fr", "es"] as const;
const SERVER_SOURCES = ["command-service/src", "query-service/src", "infra/src", "projectors/src"];

/** Errors whose code is their second argument (the first is the detail); deciders' refusals too (`refuse.*`). */
const CODE_SECOND =
  /new (NotFound|Unauthorized|Forbidden|Conflict|IllegalState|BadRequest|PayloadTooLarge|UnsupportedMediaType|TooManyRequests|SupplierUnavailable|NoAvailability|DomainError)\(|\brefuse\.(missing|conflict|notAllowed)\(|\bclosed\(/g;
/** The sign-in and supplier refusals lead with it; so does a subclass's `super(status, code, ...)` once past the status. */
const CODE_FIRST = /new (SupplierRejected|SignInRefused)\(|super\(\s*\d{3},/g;
const CODE = /^\s*"([a-z][a-z0-9]*(?:_[a-z0-9]+)*)"\s*$/;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.includes("testing"))
    .map((file) => readFileSync(join(root, dir, file), "utf8"));
}

/** The arguments of the call whose parenthesis opens at `start`, split at its own commas. */
function argumentsAt(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = "";
  for (let i = start; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === "\\") {
        current += c + text[++i];
        continue;
      }
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if (c === "," && depth === 0) {
      args.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  return [...args, current];
}

/** Codes named where errors are thrown, and the defaults of the error classes (`code = "not_found"`). */
export function serverErrorCodes(texts: readonly string[]): Set<string> {
  const codes = new Set<string>();
  const add = (arg: string | undefined) => {
    const code = arg === undefined ? undefined : CODE.exec(arg)?.[1];
    if (code) codes.add(code);
  };
  for (const text of texts) {
    for (const match of text.matchAll(CODE_SECOND))
      add(argumentsAt(text, (match.index ?? 0) + match[0].length)[1]);
    for (const match of text.matchAll(CODE_FIRST))
      add(argumentsAt(text, (match.index ?? 0) + match[0].length)[0]);
    for (const match of text.matchAll(/\bcode = "([a-z][a-z0-9_]*)"\s*[,)]/g)) codes.add(match[1] as string);
    // Failures recorded as data and answered later (an operation's outcome: `ok: false` or a reason beside the code);
    // other `code` fields (the assistant's questions and previews) are not errors.
    for (const match of text.matchAll(/\bcode: "([a-z][a-z0-9_]*)"/g)) {
      const at = match.index ?? 0;
      const around = text.slice(Math.max(0, at - 60), at + 120);
      if (/ok: false/.test(around.slice(0, 60)) || /^[^}]*\breason:/.test(around.slice(60)))
        codes.add(match[1] as string);
    }
  }
  return codes;
}

const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(root, `frontend/src/locales/${language}/errors.json`), "utf8"));

describe("error translations", () => {
  const codes = serverErrorCodes(SERVER_SOURCES.flatMap(sources));

  it("finds the codes where they are thrown, whatever the detail looks like", () => {
    const found = serverErrorCodes([
      `throw new NotFound(\`No such \${kind}\`, "thing_not_found");`,
      'throw new SupplierRejected("partly_flown", "Only unflown, (yes)");',
      `throw refuse.notAllowed(\`A \${state.status} booking cannot be modified\`, "not_modifiable");`,
      'const closed = (what: string, code: string) => new IllegalState(what, code);\nclosed("main gate", "gate_main_off")',
      'super(409, "credentials_unreadable", "Title", "Detail")',
      'constructor(detail = "x", code = "too_many_requests")',
      'new Date("2026-01-01"); new Set(["not_a_code"]); new NotFound()',
    ]);
    expect([...found].sort()).toEqual(
      [
        "credentials_unreadable",
        "gate_main_off",
        "not_modifiable",
        "partly_flown",
        "thing_not_found",
        "too_many_requests",
      ].sort(),
    );
    expect(codes.size).toBeGreaterThan(100);
    for (const code of ["gate_main_off", "channel_off", "agency_has_money", "invalid_credentials"])
      expect(codes).toContain(code);
  });

  it.each(LANGUAGES)("has a text for every server error code in %s", (language) => {
    const texts = catalogue(language);
    const keys = Object.keys(texts);
    // `<code>_<status>` is the text of a code that means two things (invalid_credentials: sign-in 401, supplier 422).
    const missing = [...codes].filter(
      (code) => !keys.some((key) => key === code || new RegExp(`^${code}_\\d{3}$`).test(key)),
    );
    expect({ language, missing }).toEqual({ language, missing: [] });
    for (const [key, text] of Object.entries(texts))
      expect({ key, empty: text.trim() === "" }).toEqual({ key, empty: false });
  });
});
