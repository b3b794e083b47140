// Input hygiene of createHttpApp over real HTTP: what no route can use is refused before any handler runs.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express, { type Express } from "express";
import { pino } from "pino";
import { createHttpApp } from "./app.ts";
import { jsonProblem, MAX_JSON_DEPTH } from "./input-hygiene.ts";
import { Csrf, errorHandler } from "./middleware.ts";

const handled: string[] = [];

async function listen(app: Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const app = createHttpApp(
    { logger: pino({ level: "silent" }), csrf: new Csrf({ secret: "s", secureCookies: false }) },
    (app) => {
      app.get("/things/:id", (req, res) => {
        handled.push(`GET ${req.params.id}`);
        res.json({ id: req.params.id, query: req.query });
      });
      app.put("/things/:id", (req, res) => {
        handled.push(`PUT ${req.params.id}`);
        res.json({ body: req.body });
      });
    },
  );
  server = await listen(app);
});
afterAll(() => server.close());

/** A PUT past CSRF: a bearer client carries no ambient credentials, so the check lets it through. */
const put = (path: string, body: string, contentType = "application/json") =>
  call("PUT", path, { body, headers: { "content-type": contentType, authorization: "Bearer test" } });

async function call(
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  handled.length = 0;
  const res = await fetch(`${server.url}${path}`, { method, ...init });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, handled: [...handled] };
}

describe("input no route can use", () => {
  it.each([
    ["a NUL in a string", JSON.stringify({ name: "a\u0000b" }), "/name", "invalid_characters"],
    ["a lone high surrogate", JSON.stringify({ list: ["ok", "\uD800x"] }), "/list/1", "invalid_characters"],
    ["a lone low surrogate", JSON.stringify({ a: { b: "x\uDC00" } }), "/a/b", "invalid_characters"],
    ["a NUL in a key", JSON.stringify({ a: { "k\u0000/~": 1 } }), "/a/k\\u0000~1~0", "invalid_characters"],
    [
      "nesting too deep",
      `{"a":${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}}`,
      "/a",
      "too_deep",
    ],
  ])(
    "when a body holds %s, then 400 in the envelope names it and no handler runs",
    async (_name, body, pointer, code) => {
      const res = await put("/things/1", body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { status: "400", code, title: "Bad request", detail: expect.any(String), source: expect.any(Object) },
      ]);
      if (code === "invalid_characters") expect(res.body.errors[0].source).toEqual({ pointer });
      expect(res.handled).toEqual([]);
    },
  );

  it("when a body holds a surrogate pair (an emoji) and nests as deep as allowed, then the handler gets it", async () => {
    const deep = `${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}`;
    const res = await put("/things/1", `{"name":"Łódź 😀","deep":${deep}}`);
    expect(res.status).toBe(200);
    expect(res.body.body.name).toBe("Łódź 😀");
    expect(res.handled).toEqual(["PUT 1"]);
  });

  it.each([
    ["a truncated escape", "/things/%E0%A4%A", "invalid_escape"],
    ["a bare %", "/things/%", "invalid_escape"],
    ["an encoded surrogate", "/things/%ED%A0%80", "invalid_escape"],
    ["an encoded NUL", "/things/a%00b", "invalid_characters"],
    ["a broken escape on a path no route has", "/nowhere/%FF", "invalid_escape"],
    ["a broken escape in a query value", "/things/1?q=%E0%A4%A", "invalid_escape"],
    ["an encoded NUL in a query key", "/things/1?q%00=1", "invalid_characters"],
  ])("when the URL has %s, then 400 in the envelope and no handler runs", async (_name, path, code) => {
    const res = await call("GET", path);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ status: "400", code, title: "Bad request" });
    expect(res.handled).toEqual([]);
  });

  it("when a PUT carries no body (a browser's Content-Length: 0, node's chunked nothing), then the handler runs", async () => {
    const bearer = { authorization: "Bearer test" };
    expect(await call("PUT", "/things/1", { headers: { ...bearer, "content-length": "0" } })).toMatchObject({
      status: 200,
      handled: ["PUT 1"],
    });
    const chunked = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${server.url}/things/2`, { method: "PUT", headers: bearer }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end();
    });
    expect(chunked).toBe(200);
  });

  it("when the URL has valid escapes, then the handler gets them decoded", async () => {
    const res = await call("GET", "/things/%C5%81%C3%B3d%C5%BA?q=a%20b%2Bc");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: "Łódź", query: { q: "a b+c" } });
  });

  it.each([
    ["malformed JSON", '{"a":', "application/json", 400, "invalid_input"],
    ["a bare string (strict JSON)", '"text"', "application/json", 400, "invalid_input"],
    ["a text body", "a", "text/plain", 415, "unsupported_media_type"],
    ["a form body", "a=b", "application/x-www-form-urlencoded", 415, "unsupported_media_type"],
    ["JSON in KOI8-R", "{}", "application/json; charset=koi8-r", 415, "unsupported_media_type"],
    [
      "a body over the limit",
      JSON.stringify({ pad: "x".repeat(200_000) }),
      "application/json",
      413,
      "entity_too_large",
    ],
  ])(
    "when the body is %s, then %i… in the envelope and no handler runs",
    async (_name, body, type, status, code) => {
      const res = await put("/things/1", body, type);
      expect(res.status).toBe(status);
      expect(res.body.errors[0]).toMatchObject({ status: String(status), code });
      expect(res.handled).toEqual([]);
    },
  );
});

it("when the router itself cannot decode a path parameter, then the error handler answers 400, not 500", async () => {
  // Without the hygiene middleware in front, the router's own URIError reaches the error handler.
  const app = express();
  app.get("/things/:id", (_req, res) => void res.json({}));
  app.use(errorHandler(pino({ level: "silent" })));
  const bare = await listen(app);
  try {
    const res = await fetch(`${bare.url}/things/%E0%A4%A`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: unknown[] };
    expect(body.errors[0]).toMatchObject({ status: "400", code: "invalid_escape" });
  } finally {
    await bare.close();
  }
});

it("when a parsed value is checked, then the first bad string, key or nesting is named by its JSON pointer", () => {
  expect(jsonProblem({ a: [1, "ok", { b: null }], c: "😀" })).toBeNull();
  expect(jsonProblem({ a: [1, "ok", { b: "\u0000" }] })).toEqual({
    pointer: "/a/2/b",
    detail: "contains a NUL character",
    code: "invalid_characters",
  });
  expect(jsonProblem("\uDBFF")?.pointer).toBe("");
  let deep: unknown = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  expect(jsonProblem(deep)?.code).toBe("too_deep");
});
