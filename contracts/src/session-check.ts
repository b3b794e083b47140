import type { AccountDetailsResponse } from "./account.ts";
import { EMAIL_PATTERN } from "./sign-in-checks.ts";

/**
 * `GET /account/details` checked without zod: every signed-in page reads the session before its first paint, and
 * classic zod alone weighed about a tenth of /search's first load. It accepts exactly what account.ts's
 * AccountDetailsResponse accepts and answers what that schema's parse answers (only its keys, in its order);
 * session-check.test.ts holds the two to the same samples.
 */

const LANGUAGES = ["en", "ua", "pl", "fr", "es"] as const;
const USER_TYPES = ["Agent", "Supervisor", "Admin", "Support", "Auditor"] as const;
const ONBOARDING = ["initial", "privacy", "done"] as const;

/** A check answers the value it accepts (objects: only their schema's keys) and throws on any other. */
type Check = (value: unknown) => unknown;

const refuse = (): never => {
  throw new TypeError("GET /account/details answered a session of an unexpected shape");
};
const is =
  (test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? value : refuse();
const string = is((value) => typeof value === "string");
const boolean = is((value) => typeof value === "boolean");
const number = is(Number.isFinite);
const email = is((value) => typeof value === "string" && value.length <= 254 && EMAIL_PATTERN.test(value));
const oneOf = (values: readonly string[]) => is((value) => values.includes(value as string));
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null ? null : check(value);
const array =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) ? value.map(item) : refuse();
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(fields).map(([key, check]) => [key, check((value as Record<string, unknown>)[key])]),
        )
      : refuse();

const namedRef = shape({ id: string, name: string });
const AccountDetails = shape({
  account: shape({
    skyward_id: string,
    email,
    first_name: string,
    last_name: string,
    user_type: oneOf(USER_TYPES),
    phone: nullable(string),
    language: oneOf(LANGUAGES),
    company: nullable(namedRef),
    companies: array(namedRef),
    agencies: array(namedRef),
    demo_user: boolean,
    logo: nullable(string),
    score: nullable(number),
  }),
  settings: shape({
    active: boolean,
    active_by_supervisor: boolean,
    api_token: boolean,
    channels: array((channel) => channel),
  }),
  onboarding: oneOf(ONBOARDING),
  terms_version: nullable(string),
});

/** The session answer as AccountDetailsResponse.parse would give it; throws on anything that schema refuses. */
export const accountDetailsOf = (value: unknown): AccountDetailsResponse =>
  AccountDetails(value) as AccountDetailsResponse;

/** The lists above, for the test that holds them to the contracts' enums. */
export const SESSION_CHECK_LISTS = { LANGUAGES, USER_TYPES, ONBOARDING };
