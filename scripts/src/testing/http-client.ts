import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely and assert on them with expect
export type Json = any;

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: Json;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (string) instead of JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Leave out the CSRF token (to test that it is required). */
  withoutCsrf?: boolean;
}

/**
 * Connections kept open between requests, as a browser does. node:http rather than fetch: it costs the load
 * generator a third of the CPU per request, which the benchmarks share with the server on one machine.
 */
const agent = new http.Agent({ keepAlive: true });

/**
 * Response body bytes every client of this process received, as sent (compressed when asked) and decoded: the
 * flow benchmark's bytes per flow (issue 26).
 */
export const httpTraffic = { responses: 0, bodyBytes: 0, decodedBytes: 0 };

/**
 * One request; redirects are answered, not followed. Headers as node:http gives them (names in lower case). A kept
 * connection the server closed as idle just as it was reused resets the request before the server read it: sent
 * again once on a new connection, as browsers do (node:http's documented `reusedSocket` idiom).
 */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  retried = false,
): Promise<{ status: number; raw: http.IncomingHttpHeaders; rawList: string[]; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        // Encoded only when a test (or the benchmark, as a browser does) sent Accept-Encoding.
        const encoding = res.headers["content-encoding"];
        const decoded =
          encoding === "br" ? brotliDecompressSync(bytes) : encoding === "gzip" ? gunzipSync(bytes) : bytes;
        httpTraffic.responses++;
        httpTraffic.bodyBytes += bytes.length;
        httpTraffic.decodedBytes += decoded.length;
        resolve({
          status: res.statusCode ?? 0,
          raw: res.headers,
          rawList: res.rawHeaders,
          text: decoded.toString("utf8"),
        });
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried)
        send(url, method, headers, body, true).then(resolve, reject);
      else reject(error);
    });
    req.end(body);
  });
}

/** A fetch Headers object, built only when a test asks for the headers (most never do). */
function lazyHeaders(rawList: readonly string[]): () => Headers {
  let built: Headers | undefined;
  return () => {
    if (!built) {
      built = new Headers();
      for (let i = 0; i < rawList.length; i += 2)
        built.append(rawList[i] as string, rawList[i + 1] as string);
    }
    return built;
  };
}

/**
 * A browser-like client for tests against a running Skyward: keeps cookies, fetches the CSRF token once (GET /csrf)
 * and sends it as `X-CSRF-Token` on every non-GET, asks for JSON. Sign-in helpers read codes from the dev mailbox.
 */
export class HttpClient {
  private readonly cookies = new Map<string, string>();
  private csrfToken: string | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** A client that authenticates with a bearer API token (no cookies, no CSRF token). */
  static withBearer(baseUrl: string, token: string): HttpClient {
    return new HttpClient(baseUrl, { authorization: `Bearer ${token}` });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  get = (path: string, options?: RequestOptions) => this.request("GET", path, options);
  post = (path: string, body?: unknown, options?: RequestOptions) =>
    this.request("POST", path, { ...options, body });
  put = (path: string, body?: unknown, options?: RequestOptions) =>
    this.request("PUT", path, { ...options, body });
  patch = (path: string, body?: unknown, options?: RequestOptions) =>
    this.request("PATCH", path, { ...options, body });
  delete = (path: string, body?: unknown, options?: RequestOptions) =>
    this.request("DELETE", path, { ...options, body });

  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: "application/json", ...this.defaultHeaders };
    const bearer = "authorization" in this.defaultHeaders;
    if (method !== "GET" && method !== "HEAD" && !options.withoutCsrf && !bearer) {
      headers["x-csrf-token"] = await this.csrf();
    }
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] = "application/json";
    // node:http sends a GET or DELETE body without a length unless told, and the server reads it as the next request.
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
    Object.assign(headers, options.headers);

    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    let response = await send(url, method, headers, body);
    // A read that waited the server's bound for its position and came back flagged stale (a loaded CI machine's
    // projectors behind) is asked again, as the browser's client does, rather than read as the answer.
    for (let repeat = 0; method === "GET" && repeat < 10 && response.raw["x-stale"] === "true"; repeat++) {
      response = await send(url, method, headers, body);
    }
    this.keepCookies(response.raw["set-cookie"] ?? []);
    const text = response.text;
    const json = response.raw["content-type"]?.includes("json") && text ? JSON.parse(text) : text;
    const headersOf = lazyHeaders(response.rawList);
    return {
      status: response.status,
      get headers() {
        return headersOf();
      },
      body: json,
    };
  }

  private keepCookies(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = decodeURIComponent(pair.slice(index + 1).trim());
      const expired = attributes.some((a) => {
        const [key = "", val = ""] = a.split("=").map((s) => s.trim().toLowerCase());
        return (
          (key === "expires" && new Date(val).getTime() <= Date.now()) ||
          (key === "max-age" && Number(val) <= 0)
        );
      });
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async csrf(): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.get("/csrf");
      if (res.status !== 200) throw new Error(`GET /csrf answered ${res.status}`);
      this.csrfToken = res.body.token as string;
    }
    return this.csrfToken;
  }

  /** Newest message id in the dev mailbox for an address (0 when none). */
  async latestMailId(email: string): Promise<number> {
    const res = await this.get("/dev/mailbox", { query: { to: email } });
    return res.body.data[0]?.id ?? 0;
  }

  /**
   * Waits until `count` messages newer than `afterId` are in the dev mailbox (mail is sent after the answer), and
   * returns the newest.
   */
  async waitForMail(
    email: string,
    afterId: number,
    {
      timeoutMs = 5000,
      count = 1,
      subject,
      text,
    }: {
      timeoutMs?: number;
      count?: number;
      /** Only mails with this subject (other mails to the same person, such as their notifications, pass by). */
      subject?: string | RegExp;
      /** Only mails whose text matches. */
      text?: RegExp;
    } = {},
  ): Promise<{ subject: string; text: string }> {
    const deadline = Date.now() + timeoutMs;
    const wanted = (m: { subject: string; text: string }) =>
      (subject === undefined ||
        (typeof subject === "string" ? m.subject === subject : subject.test(m.subject))) &&
      (text === undefined || text.test(m.text));
    for (;;) {
      const res = await this.get("/dev/mailbox", { query: { to: email } });
      const newer: { id: number; subject: string; text: string }[] = (res.body.data ?? []).filter(
        (m: { id: number; subject: string; text: string }) => m.id > afterId && wanted(m),
      );
      const newest = newer[0];
      if (newest && newer.length >= count) return newest;
      if (Date.now() > deadline) throw new Error(`no ${count} new mail for ${email} within ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  /**
   * The 6-digit code of the newest mail to `email` after `afterId` that carries one (the agent's notification mails,
   * sent by jobs, may arrive in between).
   */
  async codeFromMail(email: string, afterId: number): Promise<string> {
    const sixDigits = /\b(\d{6})\b/;
    const mail = await this.waitForMail(email, afterId, { text: sixDigits });
    const code = sixDigits.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code in the mail to ${email}: ${mail.text}`);
    return code;
  }

  /** Signs in by e-mail code (read from the dev mailbox); returns the sign-in response. */
  async signIn(email: string): Promise<HttpResponse> {
    const before = await this.latestMailId(email);
    const start = await this.post("/start_sign_in", { account: { email, language: "en" } });
    if (start.status !== 200)
      throw new Error(`start_sign_in answered ${start.status}: ${JSON.stringify(start.body)}`);
    if (start.body.account.auth_method !== "otp")
      throw new Error(`${email} signs in with a ${start.body.account.auth_method}: use signInWithPassword`);
    const code = await this.codeFromMail(email, before);
    return this.expectSignedIn(await this.post("/sign_in", { account: { email, otp_attempt: code } }));
  }

  async signInWithPassword(email: string, password: string): Promise<HttpResponse> {
    return this.expectSignedIn(await this.post("/sign_in", { account: { email, password } }));
  }

  private expectSignedIn(res: HttpResponse): HttpResponse {
    if (res.status !== 200) throw new Error(`sign_in answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  }
}
