import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type LlmProvider, providerFromEnv } from "./provider.ts";

// A stand-in OpenAI-compatible server (an outside system, like Ollama) answering with one tool call.
let server: Server;
let baseUrl: string;
const seen: { auth?: string; body?: { model: string; tools?: { function: { name: string } }[] } }[] = [];

async function body(req: IncomingMessage): Promise<string> {
  let s = "";
  for await (const chunk of req) s += chunk;
  return s;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const parsed = JSON.parse(await body(req));
    seen.push({ auth: req.headers.authorization, body: parsed });
    if (parsed.model === "broken") {
      res.writeHead(500).end("{}");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 0,
        model: parsed.model,
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "c1", type: "function", function: { name: "greet", arguments: '{"who":"world"}' } },
              ],
            },
          },
        ],
      }),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const embedded: LlmProvider = {
  name: "embedded",
  complete: async () => ({ toolCalls: [{ name: "fallback", args: {} }], text: "", provider: "embedded" }),
};
const tools = [
  {
    name: "greet",
    description: "Greets",
    inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
  },
];

describe("LLM provider port", () => {
  it("without configuration answers with the embedded default", async () => {
    const p = providerFromEnv(embedded, {});
    expect(p).toBe(embedded);
  });

  it("calls an OpenAI-compatible endpoint with the tools and returns its tool calls", async () => {
    const p = providerFromEnv(embedded, { LLM_BASE_URL: baseUrl, LLM_MODEL: "tiny", LLM_API_KEY: "k1" });
    const r = await p.complete({ system: "s", prompt: "hello", tools });
    expect(r.toolCalls).toEqual([{ name: "greet", args: { who: "world" } }]);
    expect(r.provider).toBe("tiny");
    const last = seen.at(-1);
    expect(last?.auth).toBe("Bearer k1");
    expect(last?.body?.tools?.map((t) => t.function.name)).toEqual(["greet"]);
  });

  it("falls back to the embedded default when the endpoint fails", async () => {
    const errors: unknown[] = [];
    const p = providerFromEnv(embedded, { LLM_BASE_URL: baseUrl, LLM_MODEL: "broken" }, (e) =>
      errors.push(e),
    );
    const r = await p.complete({ system: "s", prompt: "hello", tools });
    expect(r.provider).toBe("embedded");
    expect(errors).toHaveLength(1);
  });

  it("refuses a malformed configuration", () => {
    expect(() => providerFromEnv(embedded, { LLM_BASE_URL: "not a url", LLM_MODEL: "m" })).toThrow(
      /LLM_BASE_URL/,
    );
  });
});
