import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createHttpApp } from "@skyward/infra/http/app";
import { Csrf } from "@skyward/infra/http/middleware";
import { createLogger } from "@skyward/infra/logger";
import { IMMUTABLE, servePacks } from "./static-assets.ts";
import { sessionCookie } from "./testing/sales.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

/** A request whose body comes back as sent on the wire (still compressed), as a browser's network layer sees it. */
function rawRequest(url: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method: body === undefined ? "GET" : "POST", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject)
      .end(body);
  });
}

const rawGet = (url: string, headers: Record<string, string> = {}) => rawRequest(url, headers);

function decoded(raw: Raw): string {
  const encoding = raw.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(raw.bytes).toString("utf8");
  if (encoding === "gzip") return gunzipSync(raw.bytes).toString("utf8");
  return raw.bytes.toString("utf8");
}

const script = `export const answer = ${JSON.stringify("forty-two ".repeat(400))};\n`;

describe("the built front end under /packs, over HTTP", () => {
  let dist: string;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    // A build's output as the front-end build writes it: hashed assets with .br/.gz beside them, and a stray map.
    dist = mkdtempSync(join(tmpdir(), "skyward-packs-"));
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "assets", "index-AbC123.js"), script);
    writeFileSync(join(dist, "assets", "index-AbC123.js.br"), brotliCompressSync(script));
    writeFileSync(join(dist, "assets", "index-AbC123.js.gz"), gzipSync(script));
    writeFileSync(join(dist, "assets", "index-AbC123.js.map"), "{}");
    writeFileSync(
      join(dist, "assets", "plain-XyZ789.css"),
      `body { color: black; }\n${"/* - */\n".repeat(300)}`,
    );
    writeFileSync(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    const app = createHttpApp(
      { logger: createLogger("silent"), csrf: new Csrf({ secret: "s".repeat(32), secureCookies: false }) },
      (app) => app.use("/packs", servePacks(dist)),
    );
    server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dist, { recursive: true, force: true });
  });

  it("sends a hashed asset's brotli file to a browser that accepts brotli, immutable for a year", async () => {
    const res = await rawGet(`${base}/packs/assets/index-AbC123.js`, {
      "accept-encoding": "gzip, deflate, br",
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.bytes.length).toBeLessThan(script.length / 10);
    expect(decoded(res)).toBe(script);
  });

  it("sends the gzip file when brotli is not accepted, and the file itself when nothing is", async () => {
    const gzip = await rawGet(`${base}/packs/assets/index-AbC123.js`, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(decoded(gzip)).toBe(script);
    const plain = await rawGet(`${base}/packs/assets/index-AbC123.js`, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toBe(IMMUTABLE);
    expect(plain.bytes.toString("utf8")).toBe(script);
  });

  it("compresses a text asset that has no precompressed file on the fly", async () => {
    const res = await rawGet(`${base}/packs/assets/plain-XyZ789.css`, { "accept-encoding": "br" });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/css/);
    expect(decoded(res)).toMatch(/^body \{ color: black; \}/);
  });

  it("never serves a source map", async () => {
    const res = await rawGet(`${base}/packs/assets/index-AbC123.js.map`);
    expect(res.status).toBe(404);
  });

  it("keeps unhashed files for an hour only", async () => {
    const res = await rawGet(`${base}/packs/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("does not serve files outside the assets folder through an escaped path", async () => {
    const res = await rawGet(`${base}/packs/assets/..%2f..%2fetc%2fpasswd`);
    expect([403, 404]).toContain(res.status);
    expect(res.bytes.toString("utf8")).not.toMatch(/root:/);
  });
});

describe("the running app, over HTTP", () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  });

  afterAll(async () => {
    await test.stop();
  });

  it("compresses API answers for clients that accept it, and leaves them plain for those that do not", async () => {
    const client = test.client();
    const cookie = sessionCookie(await client.signIn("agent@dnipro.test"));
    const csrf = await rawGet(`${test.app.url}/csrf`, { cookie, accept: "application/json" });
    const token = JSON.parse(csrf.bytes.toString("utf8")).token as string;
    const headers = {
      cookie: [cookie, ...(csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0])].join("; "),
      accept: "application/json",
      "content-type": "application/json",
      "x-csrf-token": token,
    };
    // A search answer: the largest JSON an agent waits for.
    const search = JSON.stringify({
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    const answer = async (encoding?: string) => {
      const res = await rawRequest(
        `${test.app.url}/offers`,
        encoding ? { ...headers, "accept-encoding": encoding } : headers,
        search,
      );
      expect(res.status).toBe(200);
      return res;
    };
    const [br, gzip, plain] = [await answer("br, gzip"), await answer("gzip"), await answer()];
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect([
      br.headers["content-encoding"],
      gzip.headers["content-encoding"],
      plain.headers["content-encoding"],
    ]).toEqual(["br", "gzip", undefined]);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(JSON.parse(decoded(br)).result).toBeDefined();
    expect(JSON.parse(decoded(gzip)).result).toBeDefined();
  });

  it("serves the page itself stored nowhere: fetched anew on every load (it carries its caller's session)", async () => {
    const page = await rawGet(`${test.app.url}/search`, { accept: "text/html", "accept-encoding": "gzip" });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(decoded(page)).toMatch(/<html|Frontend not built/);
  });
});
