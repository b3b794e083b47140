// The request log of createHttpApp, over real HTTP.
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { createHttpApp } from "./app.ts";
import { Csrf } from "./middleware.ts";

async function logsOf(level: string): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level }, sink);
  const app = createHttpApp({ logger, csrf: new Csrf({ secret: "s", secureCookies: false }) }, (app) => {
    app.get("/ping", (_req, res) => {
      res.json({ ok: true });
    });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`, {
      headers: { "x-trace-id": "trace-log-test-1" },
    });
    expect(res.status).toBe(200);
    await res.text();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("request log", () => {
  it("when the level logs requests, then each request is one line with its trace id and status", async () => {
    const logs = await logsOf("info");
    expect(logs).toEqual([
      expect.objectContaining({
        msg: "request completed",
        traceId: "trace-log-test-1",
        res: expect.objectContaining({ statusCode: 200 }),
      }),
    ]);
  });

  it("when the logger is silent, then nothing is written", async () => {
    expect(await logsOf("silent")).toEqual([]);
  });
});
