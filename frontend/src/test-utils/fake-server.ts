/** A stand-in for the Skyward server in jsdom tests: each "METHOD /path" answers with its scripted replies. */

export type FakeReply =
  | { status?: number; body?: unknown }
  | ((body: unknown) => { status?: number; body?: unknown });

export interface FakeServer {
  /** What was asked, as "METHOD /path" (the method override header applied). */
  calls: string[];
  bodies: Record<string, unknown[]>;
  restore(): void;
}

/**
 * What the signed-in header and account page ask on every screen (the bell's count, the notification switches),
 * answered empty unless a test scripts them.
 */
const AMBIENT: Record<string, FakeReply[]> = {
  "GET /notifications": [{ body: { data: [], unread: 0 } }],
  "GET /notification_settings": [{ body: { data: [] } }],
};

export function fakeServer(routes: Record<string, FakeReply | FakeReply[]>): FakeServer {
  const original = globalThis.fetch;
  const queues = new Map(Object.entries(routes).map(([route, reply]) => [route, [reply].flat()]));
  const calls: string[] = [];
  const bodies: Record<string, unknown[]> = {};
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const method = headers.get("X-HTTP-Method-Override") ?? init?.method ?? "GET";
    const path = String(input).split("?")[0] ?? "";
    const route = `${method} ${path}`;
    calls.push(route);
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    bodies[route] = [...(bodies[route] ?? []), body];
    const queue = route === "GET /csrf" ? [{ body: { token: "t" } }] : (queues.get(route) ?? AMBIENT[route]);
    // The last reply of a route repeats, so a page may ask twice.
    const next = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    if (!next) throw new TypeError(`Failed to fetch: unexpected ${route}`);
    const reply = typeof next === "function" ? next(body) : next;
    const status = reply.status ?? 200;
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: new Headers({ "content-type": "application/json" }),
      text: async () => (reply.body === undefined ? "" : JSON.stringify(reply.body)),
    } as unknown as Response;
  }) as typeof fetch;
  return {
    calls,
    bodies,
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

export const unauthorized = {
  status: 401,
  body: {
    errors: [
      { status: "401", code: "unauthorized", title: "Unauthorized", detail: "You need to sign in first" },
    ],
  },
};

/** The server's 422 for one field: `detail` said of the field at `pointer` (a JSON pointer into the request). */
export function fieldRefusal(pointer: string, detail: string, title = "invalid") {
  return {
    status: 422,
    body: { errors: [{ status: "422", code: "invalid", title, detail, source: { pointer } }] },
  };
}
