// The compression of answers over real HTTP, through createHttpApp's whole stack: JSON answers compressed in one
// call (a Content-Length, no chunks), everything else as the compression middleware did.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { createHttpApp } from "./app.ts";
import { Csrf } from "./middleware.ts";

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    locator: `L${i}`,
    status: "issued",
    amount: i * 101,
    note: "ą€😀",
  }));

let base = "";
let server: http.Server;
beforeAll(async () => {
  const app = createHttpApp(
    { logger: pino({ level: "silent" }), csrf: new Csrf({ secret: "s", secureCookies: false }) },
    (app) => {
      app.get("/json/:n", (req, res) => {
        res.json({ data: rows(Number(req.params.n)) });
      });
      app.get("/no-transform", (_req, res) => {
        res.set("Cache-Control", "no-transform").json({ data: rows(100) });
      });
      app.get("/encoded", (_req, res) => {
        res
          .type("application/json")
          .set("Content-Encoding", "identity2")
          .send(JSON.stringify(rows(100)));
      });
      app.get("/png", (_req, res) => {
        res.type("image/png").send(Buffer.alloc(4096, 7));
      });
      app.get("/untyped", (_req, res) => {
        res.send("x".repeat(4096));
      });
    },
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(path: string, acceptEncoding?: string, method = "GET") {
  return new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const decoded = (answer: { headers: http.IncomingHttpHeaders; bytes: Buffer }) => {
  const encoding = answer.headers["content-encoding"];
  const bytes =
    encoding === "br"
      ? brotliDecompressSync(answer.bytes)
      : encoding === "gzip"
        ? gunzipSync(answer.bytes)
        : answer.bytes;
  return bytes.toString("utf8");
};

describe("compressed answers", () => {
  it("when a browser takes Brotli, then a JSON answer comes Brotli-encoded whole, with its length, type and Vary", async () => {
    const answer = await get("/json/200", "gzip, deflate, br");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers.vary).toContain("Accept-Encoding");
    // Compressed in one call: sent with its length, not in chunks as a stream would be.
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(answer.headers["content-length"])).toBe(answer.bytes.length);
    expect(answer.bytes.length).toBeLessThan(JSON.stringify({ data: rows(200) }).length / 4);
    expect(JSON.parse(decoded(answer))).toEqual({ data: rows(200) });
  });

  it("when the client takes gzip only, then gzip; when it takes neither, then the answer as it is", async () => {
    const gzip = await get("/json/200", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.bytes.length);
    expect(JSON.parse(decoded(gzip))).toEqual({ data: rows(200) });
    for (const plain of [await get("/json/200", "identity"), await get("/json/200")]) {
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(JSON.parse(plain.bytes.toString("utf8"))).toEqual({ data: rows(200) });
    }
  });

  it("when the answer is small, then it goes as it is", async () => {
    const answer = await get("/json/1", "br");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(answer.bytes.toString("utf8"))).toEqual({ data: rows(1) });
  });

  it("when the answer is a large export, then the compression middleware streams it", async () => {
    const answer = await get("/json/5000", "br");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["transfer-encoding"]).toBe("chunked");
    expect(JSON.parse(decoded(answer))).toEqual({ data: rows(5000) });
  });

  it("when the answer says no-transform, is already encoded or is an image, then it goes untouched", async () => {
    const noTransform = await get("/no-transform", "br");
    expect(noTransform.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(noTransform.bytes.toString("utf8"))).toEqual({ data: rows(100) });
    const encoded = await get("/encoded", "br");
    expect(encoded.headers["content-encoding"]).toBe("identity2");
    expect(JSON.parse(encoded.bytes.toString("utf8"))).toEqual(rows(100));
    const png = await get("/png", "br");
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect(png.bytes).toEqual(Buffer.alloc(4096, 7));
  });

  it("when text is sent without a type, then the compression middleware still compresses it as HTML", async () => {
    const answer = await get("/untyped", "br");
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(decoded(answer)).toBe("x".repeat(4096));
  });

  it("when the request is a HEAD, then no body and the headers of the GET but its encoding", async () => {
    const head = await get("/json/200", "br", "HEAD");
    expect(head.bytes.length).toBe(0);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
  });
});
