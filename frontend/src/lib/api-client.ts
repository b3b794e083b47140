import type { ApiError as ApiErrorItem } from "@skyward/contracts/errors";
import type { FeedPosition, Position } from "@skyward/contracts/position";
import { trackApiSuccess } from "./analytics.ts";
import { errorTextsReady, i18n } from "./i18n.ts";
import { notify } from "./notifications.ts";

/** The one way features talk to the server (DESIGN.md section 6). */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type QueryValue = string | number | boolean | null | undefined;
/** Nested objects become bracketed names: `{ticket: {text: "x"}}` → `ticket[text]=x`. */
export interface Query {
  [name: string]: QueryValue | QueryValue[] | Query;
}

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Repeats of a command with the same key return the first result and change nothing. */
  idempotencyKey?: string;
  /**
   * How to read a successful body; errors are always read as the JSON envelope. "response": unread, for a caller
   * that reads a streamed body itself (a download's progress).
   */
  responseType?: "json" | "blob" | "text" | "response";
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  traceId: string | null;
}

/**
 * A failed call: the HTTP status (0 when the server was never reached) and the envelope's errors, if any; `body` is
 * the whole answer, for the few errors that carry more than the envelope (a refund's current quote).
 */
export class ApiError extends Error {
  readonly body: unknown;

  constructor(
    readonly status: number,
    readonly errors: ApiErrorItem[],
    readonly traceId: string | null = null,
    options?: { cause?: unknown; body?: unknown },
  ) {
    super(errors[0]?.detail ?? errors[0]?.title ?? `Request failed with status ${status}`, options);
    this.name = "ApiError";
    this.body = options?.body ?? null;
  }

  hasCode(code: string): boolean {
    return this.errors.some((error) => error.code === code);
  }
}

const CSRF_PLACEHOLDER = "__CSRF_TOKEN__";
const CSRF_ERROR_CODES = ["csrf_missing", "csrf_invalid"];

/** How many times a read answered `x-stale` (the server waited about 2 s each time) is asked again. */
const STALE_READ_REPEATS = 4;

let csrfToken: string | null = null;
let latestPosition: { text: Position; parsed: FeedPosition } | null = null;

let schemas: Promise<typeof import("./lazy-schemas.ts")> | null = null;

/** The contracts' schemas, loaded with the first response that needs them (see lazy-schemas.ts). */
export function loadSchemas(): Promise<typeof import("./lazy-schemas.ts")> {
  schemas ??= import("./lazy-schemas.ts");
  return schemas;
}

function tokenFromPage(): string | null {
  const content = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  return content && content !== CSRF_PLACEHOLDER ? content : null;
}

async function fetchCsrfToken(): Promise<string> {
  const { data } = await send<{ token: string }>("GET", "/csrf", {});
  return data.token;
}

async function currentCsrfToken(): Promise<string> {
  csrfToken ??= tokenFromPage() ?? (await fetchCsrfToken());
  return csrfToken;
}

/** Command responses carry the position of their last event; reads ask the server to have caught up with it. */
async function rememberPosition(body: unknown): Promise<void> {
  if (typeof body !== "object" || body === null || !("position" in body)) return;
  const { Position, comparePositions, parsePosition } = await loadSchemas();
  const position = Position.safeParse(body.position);
  if (!position.success) return;
  const parsed = parsePosition(position.data);
  if (!latestPosition || comparePositions(parsed, latestPosition.parsed) > 0) {
    latestPosition = { text: position.data, parsed };
  }
}

export function lastSeenPosition(): Position | null {
  return latestPosition?.text ?? null;
}

function appendQuery(params: URLSearchParams, query: Query, prefix?: string): void {
  for (const [name, value] of Object.entries(query)) {
    const key = prefix ? `${prefix}[${name}]` : name;
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value)
        if (item !== null && item !== undefined) params.append(`${key}[]`, String(item));
    } else if (typeof value === "object") {
      appendQuery(params, value, key);
    } else {
      params.append(key, String(value));
    }
  }
}

export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  appendQuery(params, query);
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${search}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function send<T>(method: HttpMethod, path: string, options: RequestOptions): Promise<ApiResponse<T>> {
  const headers = new Headers({ Accept: "application/json", ...options.headers });
  const init: RequestInit = { method, headers, credentials: "same-origin" };
  if (options.signal) init.signal = options.signal;

  if (method === "GET") {
    const position = lastSeenPosition();
    if (position) headers.set("X-Min-Position", position);
  } else {
    headers.set("X-CSRF-Token", await currentCsrfToken());
    if (method !== "POST") {
      init.method = "POST";
      headers.set("X-HTTP-Method-Override", method);
    }
    if (options.idempotencyKey) headers.set("Idempotency-Key", options.idempotencyKey);
    if (options.body !== undefined) {
      headers.set("Content-Type", "application/json");
      init.body = JSON.stringify(options.body);
    }
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), init);
    // The server waited its bound for the read models to reach our last command and answered what it had: ask again
    // (each ask waits again on the server) rather than show the agent a list without what they just did.
    for (
      let r = 0;
      method === "GET" && r < STALE_READ_REPEATS && response.headers.get("x-stale") === "true";
      r++
    ) {
      await response.body?.cancel();
      response = await fetch(buildUrl(path, options.query), init);
    }
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(0, [], null, { cause });
  }
  const traceId = response.headers.get("x-trace-id");

  if (!response.ok) {
    const body = await readBody(response).catch(() => null);
    const [{ ErrorEnvelope }] = await Promise.all([loadSchemas(), errorTextsReady()]);
    const envelope = ErrorEnvelope.safeParse(body);
    throw new ApiError(response.status, envelope.success ? envelope.data.errors : [], traceId, { body });
  }

  const responseType = options.responseType ?? "json";
  if (responseType === "response") return { data: response as T, status: response.status, traceId };
  if (responseType === "blob")
    return { data: (await response.blob()) as T, status: response.status, traceId };
  if (responseType === "text")
    return { data: (await response.text()) as T, status: response.status, traceId };
  const data = await readBody(response);
  if (method !== "GET") await rememberPosition(data);
  trackApiSuccess(method, path);
  return { data: data as T, status: response.status, traceId };
}

/**
 * Sends one request. A CSRF rejection (the browser's token cookie expired or was replaced) fetches a fresh token
 * and retries once: a rejected request changed nothing.
 */
export async function request<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  try {
    return await send<T>(method, path, options);
  } catch (error) {
    if (
      !(error instanceof ApiError && error.status === 403 && CSRF_ERROR_CODES.some((c) => error.hasCode(c)))
    )
      throw error;
    csrfToken = await fetchCsrfToken();
    return send<T>(method, path, options);
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "body" | "idempotencyKey">) =>
    request<T>("GET", path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PATCH", path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
};

/**
 * Codes whose detail says what a translation cannot: invalid_input names the field and the rule. Its translation only
 * stands in for a missing detail.
 */
const DETAIL_FIRST_CODES = new Set(["invalid_input"]);

/**
 * A wrong sign-in code in the site language with the attempts left, which only the server's detail counts ("… 2
 * attempts left."): the number is read from it, the words are the catalogue's (issue 27: it was English in ua/pl).
 */
function wrongCodeText(item: ApiErrorItem): string | null {
  const left = /(\d+) attempts? left/.exec(item.detail ?? "")?.[1];
  return left === undefined ? null : i18n.t("errors:code_wrong_left", { count: Number(left) });
}

/**
 * The `errors` catalogue's text for an error's code, if it has one. A code the server uses with two meanings has a
 * `<code>_<status>` key for the other one (invalid_credentials: a sign-in refused is 401, a supplier's 422).
 */
function translatedError(item: ApiErrorItem): string | null {
  if (!/^[a-z][a-z0-9_]*$/.test(item.code)) return null;
  for (const key of [`errors:${item.code}_${item.status}`, `errors:${item.code}`]) {
    if (i18n.exists(key)) return i18n.t(key as never);
  }
  return null;
}

/** One error of the envelope in the site language when its code is known; else the server's detail or title. */
export function errorText(item: ApiErrorItem): string {
  if (item.detail && DETAIL_FIRST_CODES.has(item.code)) return item.detail;
  if (item.code === "code_wrong") return wrongCodeText(item) ?? translatedError(item) ?? item.title;
  return translatedError(item) ?? (item.detail || item.title);
}

/** What the user is told about a failed call (seed spec, section 8): one text per error of the envelope. */
export function errorMessages(error: unknown): string[] {
  if (error instanceof ApiError && error.errors.length > 0) {
    return error.errors.map(errorText);
  }
  return [i18n.t("notifications:server_problems")];
}

/** Shows each error of a failed call as an error notification. */
export function notifyApiError(error: unknown): void {
  for (const text of errorMessages(error)) notify({ text, type: "error" });
}

/** Awaits a call and shows its failure before passing it on: for state machine actors that also react to it. */
export async function notifyingErrors<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    notifyApiError(error);
    throw error;
  }
}

/** For tests: forget the token and position, as on a fresh page. */
export function resetApiClient(): void {
  csrfToken = null;
  latestPosition = null;
}
