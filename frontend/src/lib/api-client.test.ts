import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import errorCatalogue from "../locales/en/errors.json" with { type: "json" };
import {
  ApiError,
  api,
  buildUrl,
  errorMessages,
  lastSeenPosition,
  notifyApiError,
  resetApiClient,
} from "./api-client.ts";
import { i18n, type Language, setSiteLanguage } from "./i18n.ts";
import { clearNotifications, currentNotifications } from "./notifications.ts";

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> } | Error;

/** jsdom has no `Response`: this carries just what the client reads. */
function replyAs(reply: Exclude<Reply, Error>): Response {
  const status = reply.status ?? 200;
  const text = reply.body === undefined ? "" : JSON.stringify(reply.body);
  const response = {
    ok: status >= 200 && status < 300,
    status,
    headers: new Headers({
      "content-type": "application/json",
      "x-trace-id": "trace-1234",
      ...reply.headers,
    }),
    text: async () => text,
    blob: async () => new Blob([text]),
  };
  return response as unknown as Response;
}

/** A stand-in for the server: answers each call with the next reply and records what was sent. */
function fakeServer(...replies: Reply[]) {
  const calls: Call[] = [];
  const fetchStub = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : null,
    });
    const reply = replies.shift();
    if (!reply) throw new Error(`unexpected call ${String(input)}`);
    if (reply instanceof Error) throw reply;
    return replyAs(reply);
  };
  globalThis.fetch = fetchStub as typeof fetch;
  return calls;
}

function setPageToken(token: string | null) {
  document.head.querySelector('meta[name="csrf-token"]')?.remove();
  if (token === null) return;
  const meta = document.createElement("meta");
  meta.name = "csrf-token";
  meta.content = token;
  document.head.append(meta);
}

const originalFetch = globalThis.fetch;

beforeEach(() => {
  resetApiClient();
  setPageToken("page-token");
});
afterEach(() => {
  globalThis.fetch = originalFetch;
  clearNotifications();
});

describe("api client", () => {
  it("sends the page's CSRF token on every non-GET, and none on reads", async () => {
    const calls = fakeServer({ body: { ok: true } }, { body: {} });
    await api.post("/start_sign_in", { account: { email: "agent@example.com", language: "en" } });
    await api.get("/account/details");
    expect(calls[0]?.headers.get("X-CSRF-Token")).toBe("page-token");
    expect(calls[0]?.headers.get("Content-Type")).toBe("application/json");
    expect(calls[0]?.body).toBe('{"account":{"email":"agent@example.com","language":"en"}}');
    expect(calls[1]?.headers.has("X-CSRF-Token")).toBe(false);
  });

  it("fetches the token from /csrf when the page has none", async () => {
    setPageToken("__CSRF_TOKEN__");
    const calls = fakeServer({ body: { token: "fetched-token" } }, { body: {} }, { body: {} });
    await api.post("/sign_in", {});
    await api.post("/send_voice_otp", {});
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /csrf",
      "POST /sign_in",
      "POST /send_voice_otp",
    ]);
    expect(calls[2]?.headers.get("X-CSRF-Token")).toBe("fetched-token");
  });

  it("refreshes a rejected CSRF token once and repeats the call", async () => {
    const rejected = { errors: [{ status: "403", code: "csrf_invalid", title: "Invalid CSRF token" }] };
    const calls = fakeServer({ status: 403, body: rejected }, { body: { token: "fresh" } }, { body: {} });
    await api.post("/bookings/comment", { locator: "ABC234", comment: "window seat" });
    expect(
      calls.map((call) => `${call.method} ${call.url} ${call.headers.get("X-CSRF-Token") ?? ""}`),
    ).toEqual(["POST /bookings/comment page-token", "GET /csrf ", "POST /bookings/comment fresh"]);
  });

  it.each([
    ["put", "PUT"],
    ["patch", "PATCH"],
    ["delete", "DELETE"],
  ] as const)("sends %s as POST with the method override header", async (method, override) => {
    const calls = fakeServer({ body: {} });
    await (method === "delete" ? api.delete("/bookings/ABC234") : api[method]("/account/details", {}));
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.headers.get("X-HTTP-Method-Override")).toBe(override);
  });

  it("returns the data with the x-trace-id header", async () => {
    fakeServer({ status: 201, body: { locator: "ABC234" }, headers: { "x-trace-id": "trace-offers" } });
    const response = await api.post<{ locator: string }>("/bookings", {});
    expect(response).toEqual({ data: { locator: "ABC234" }, status: 201, traceId: "trace-offers" });
  });

  it("asks reads to wait for the newest position a command returned", async () => {
    const calls = fakeServer(
      { body: {} },
      { body: { position: "7-120" } },
      { body: { position: "6-900" } },
      { body: [] },
    );
    await api.get("/bookings");
    await api.post("/bookings/issue", { locator: "ABC234" });
    await api.post("/bookings/comment", { locator: "ABC234" });
    await api.get("/bookings");
    expect(calls[0]?.headers.has("X-Min-Position")).toBe(false);
    expect(calls[3]?.headers.get("X-Min-Position")).toBe("7-120");
    expect(lastSeenPosition()).toBe("7-120");
  });

  it("asks a read again while the server says it is stale, and gives up after four repeats", async () => {
    const stale = { headers: { "x-stale": "true" } };
    const calls = fakeServer(
      { status: 404, ...stale },
      { body: [], ...stale },
      { body: [{ locator: "ABC234" }] },
    );
    const fresh = await api.get<unknown[]>("/bookings");
    expect(calls).toHaveLength(3);
    expect(fresh.data).toEqual([{ locator: "ABC234" }]);

    const repeated = fakeServer(...Array.from({ length: 5 }, () => ({ body: [], ...stale })));
    const still = await api.get<unknown[]>("/bookings");
    expect(repeated).toHaveLength(5);
    expect(still.data).toEqual([]);
  });

  it("encodes nested query parameters the way the server reads them", () => {
    expect(
      buildUrl("/sales/", {
        ticket: { text: "SMITH", date_from: "2025-01-01", date_to: undefined },
        page: 1,
      }),
    ).toBe("/sales/?ticket%5Btext%5D=SMITH&ticket%5Bdate_from%5D=2025-01-01&page=1");
  });

  it("turns the errors envelope into an ApiError", async () => {
    const errors = [
      { status: "422", code: "invalid", title: "Invalid input", detail: "email is not an e-mail address" },
      { status: "422", code: "invalid", title: "Language is required" },
    ];
    fakeServer({ status: 422, body: { errors }, headers: { "x-trace-id": "trace-422" } });
    const failure = await api.post("/start_sign_in", {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 422, errors, traceId: "trace-422" });
  });

  it("reports a transport failure as status 0 without errors", async () => {
    fakeServer(new TypeError("Failed to fetch"));
    const failure = await api.get("/account/details").catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 0, errors: [] });
  });

  it("reports a body that is not the envelope as a failure without errors", async () => {
    fakeServer({ status: 502, body: "<html>Bad gateway</html>" });
    const failure = await api.get("/account/details").catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, errors: [] });
  });
});

describe("error notifications", () => {
  it("shows each detail, or else the title, as an error", () => {
    notifyApiError(
      new ApiError(422, [
        { status: "422", code: "invalid", title: "Invalid input", detail: "email is not an e-mail address" },
        // A code the catalogue has no text for (a newer server's): its title is shown as sent.
        { status: "409", code: "a_code_from_a_newer_server", title: "Booking was changed by someone else" },
        { status: "409", code: "conflict", title: "Conflict" },
      ]),
    );
    expect(currentNotifications().map(({ text, type }) => ({ text, type }))).toEqual([
      { text: "email is not an e-mail address", type: "error" },
      { text: "Booking was changed by someone else", type: "error" },
      // A known code reads in the user's language instead of the server's English title.
      { text: "Someone changed this at the same time. Reload and try again.", type: "error" },
    ]);
  });

  it("says the server has problems when there is no errors list", () => {
    expect(errorMessages(new ApiError(0, []))).toEqual(["There are problems on the server"]);
    expect(errorMessages(new Error("boom"))).toEqual(["There are problems on the server"]);
  });

  it("says it in the site language", async () => {
    await setSiteLanguage("fr");
    try {
      expect(errorMessages(new ApiError(503, []))).toEqual(["Le serveur rencontre des problèmes"]);
    } finally {
      await setSiteLanguage("en");
      window.localStorage.clear();
    }
  });
});

describe("translated error codes", () => {
  const refusal = (status: string, code: string, detail?: string) => ({
    status,
    code,
    title: "Not allowed now",
    ...(detail ? { detail } : {}),
  });

  async function inLanguage(language: Language, check: () => void) {
    await setSiteLanguage(language);
    try {
      check();
    } finally {
      await setSiteLanguage("en");
      window.localStorage.clear();
    }
  }

  it("shows a known code in the site language instead of the server's English", async () => {
    const error = new ApiError(422, [
      refusal("422", "insufficient_balance", "The company balance is too low to issue this booking"),
    ]);
    await inLanguage("pl", () => {
      notifyApiError(error);
      expect(currentNotifications().map(({ text, type }) => ({ text, type }))).toEqual([
        { text: "Saldo firmy jest zbyt niskie, aby wystawić tę rezerwację", type: "error" },
      ]);
    });
    expect(errorMessages(error)).toEqual(["The company balance is too low to issue this booking"]);
  });

  it("words a refusal in the site language on a page that started without the errors catalogue (the sign-in page)", async () => {
    await setSiteLanguage("pl");
    try {
      // As a public page starts: its catalogues leave out the errors' texts (locales/resources.ts).
      i18n.removeResourceBundle("pl", "errors");
      i18n.services.backendConnector.state["pl|errors"] = 0;
      expect(i18n.exists("errors:insufficient_balance")).toBe(false);
      fakeServer({
        status: 422,
        body: { errors: [refusal("422", "insufficient_balance", "The company balance is too low")] },
      });
      const failure = await api.post("/bookings/ABC234/ticket", {}).catch((error: unknown) => error);
      expect(errorMessages(failure)).toEqual(["Saldo firmy jest zbyt niskie, aby wystawić tę rezerwację"]);
    } finally {
      await setSiteLanguage("en");
      window.localStorage.clear();
    }
  });

  it("says in every language who may use a route refused to the caller's role (403)", async () => {
    const error = new ApiError(403, [
      refusal(
        "403",
        "supervisor_or_admin_only",
        "POST /companies is for supervisors, Admin users, Support users",
      ),
    ]);
    const texts: Record<Language, string> = {
      en: "Only supervisors and administrators can do this.",
      ua: "Це можуть робити лише супервайзери та адміністратори.",
      pl: "Tylko supervisorzy i administratorzy mogą to zrobić.",
      fr: "Seuls les superviseurs et les administrateurs peuvent le faire.",
      es: "Solo los supervisores y los administradores pueden hacerlo.",
    };
    for (const [language, text] of Object.entries(texts) as [Language, string][])
      await inLanguage(language, () => expect(errorMessages(error)).toEqual([text]));
  });

  it("falls back to the detail, or else the title, for a code the catalogue does not know", async () => {
    const error = new ApiError(409, [
      refusal("409", "seat_map_locked", "The seat map is locked by the airline"),
      refusal("409", "seat_map_locked"),
    ]);
    await inLanguage("pl", () =>
      expect(errorMessages(error)).toEqual(["The seat map is locked by the airline", "Not allowed now"]),
    );
  });

  it("keeps one text per error, each translated on its own", async () => {
    const error = new ApiError(422, [
      refusal("422", "gate_agency_off", "Ticketing is switched off: agency gate"),
      refusal("422", "no_such_code", "Something else"),
    ]);
    await inLanguage("es", () =>
      expect(errorMessages(error)).toEqual(["La emisión está desactivada para tu agencia", "Something else"]),
    );
  });

  it("keeps the server's words for input errors, which name the field and the rule", async () => {
    const error = new ApiError(422, [
      {
        ...refusal("422", "invalid_input", "account.phone must be an international number"),
        title: "Invalid input",
      },
      { status: "422", code: "invalid_input", title: "Invalid input" },
    ]);
    await inLanguage("ua", () =>
      expect(errorMessages(error)).toEqual([
        "account.phone must be an international number",
        "Деякі введені дані некоректні",
      ]),
    );
  });

  it("says a wrong code and the attempts left in the site language (issue 27: it was English in ua and pl)", async () => {
    const four = new ApiError(401, [
      refusal("401", "code_wrong", "The code is not correct. 4 attempts left."),
    ]);
    const one = new ApiError(401, [refusal("401", "code_wrong", "The code is not correct. 1 attempt left.")]);
    const uncounted = new ApiError(401, [refusal("401", "code_wrong", "")]);
    await inLanguage("ua", () => {
      expect(errorMessages(four)).toEqual(["Код неправильний. Залишилося 4 спроби."]);
      expect(errorMessages(uncounted)).toEqual(["Код неправильний."]);
    });
    await inLanguage("pl", () => {
      expect(errorMessages(four)).toEqual(["Kod jest nieprawidłowy. Pozostały 4 próby."]);
      expect(errorMessages(one)).toEqual(["Kod jest nieprawidłowy. Pozostała 1 próba."]);
    });
    await inLanguage("en", () =>
      expect(errorMessages(one)).toEqual(["The code is not correct. 1 attempt left."]),
    );
  });

  it("tells a refused sign-in from credentials the airline system rejected", async () => {
    const error = new ApiError(422, [
      refusal("401", "invalid_credentials", "The e-mail or the password is not correct."),
      refusal("422", "invalid_credentials", "Invalid credentials. Enter current credentials."),
    ]);
    await inLanguage("fr", () =>
      expect(errorMessages(error)).toEqual([
        "L’e-mail ou le mot de passe est incorrect.",
        "Le système de la compagnie a refusé les identifiants du canal de billetterie",
      ]),
    );
  });

  it("looks up nothing but plain codes", async () => {
    const error = new ApiError(400, [refusal("400", "notifications:server_problems", "As sent")]);
    await inLanguage("ua", () => expect(errorMessages(error)).toEqual(["As sent"]));
    for (const code of Object.keys(errorCatalogue)) expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
  });
});
