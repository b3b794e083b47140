// The model path of the text search through the LLM port, against a stand-in OpenAI-compatible server (an outside
// system, like Ollama): what the model names is validated again, and anything invalid falls back to the parser.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { openAiCompatibleProvider, withFallback } from "@skyward/infra/llm/provider";
import { EMBEDDED_TEXT_SEARCH, textSearch } from "./model.ts";

let server: Server;
let baseUrl: string;
/** What the stand-in model answers next: tool-call arguments, or "fail" for a 500. */
let next: unknown;
const seen: { tools: { function: { name: string; parameters: Record<string, unknown> } }[] }[] = [];

async function body(req: IncomingMessage): Promise<string> {
  let s = "";
  for await (const chunk of req) s += chunk;
  return s;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const parsed = JSON.parse(await body(req));
    seen.push(parsed);
    if (next === "fail") {
      res.writeHead(500).end("{}");
      return;
    }
    const message =
      next === "text"
        ? { role: "assistant", content: "I cannot help with that." }
        : {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "c1",
                type: "function",
                function: { name: "set_search", arguments: JSON.stringify(next) },
              },
            ],
          };
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 0,
        model: parsed.model,
        choices: [{ index: 0, finish_reason: next === "text" ? "stop" : "tool_calls", message }],
      }),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const provider = () =>
  withFallback(openAiCompatibleProvider({ baseUrl, model: "tiny" }), EMBEDDED_TEXT_SEARCH);
const TODAY = "2026-11-24";
const LINE = "Kyiv to Warsaw next Friday, two adults";
const modelSearch = {
  origin: "KBP",
  destination: "WAW",
  departure_date: "2026-12-04",
  trip: "one_way",
  passengers: { adults: 2, children: 0, infants: 0 },
  cabin: "business",
  direct_only: false,
};

describe("text search through a configured model", () => {
  it("when the model calls the tool with a valid search, then that search answers, its chips keep the words the parser saw", async () => {
    next = modelSearch;
    const r = await textSearch(provider(), LINE, { today: TODAY });
    expect(r.source).toBe("model");
    expect(r.search).toEqual(modelSearch);
    expect(r.chips.find((c) => c.kind === "origin")).toMatchObject({ value: "KBP", text: "Kyiv" });
    // Business is the model's own reading: no words of the line to point at.
    expect(r.chips.find((c) => c.kind === "cabin")).toMatchObject({ value: "business", span: null });
    const tool = seen.at(-1)?.tools[0]?.function;
    expect(tool?.name).toBe("set_search");
    expect(tool?.parameters).toMatchObject({ type: "object", properties: { origin: { type: "string" } } });
  });

  it("when the model answers with an airport that does not exist, bad dates, extra fields, text or a 500, then the embedded parser answers", async () => {
    for (const answer of [
      { ...modelSearch, origin: "ZZZ" },
      { ...modelSearch, departure_date: "2026-12-10", return_date: "2026-12-01" },
      { ...modelSearch, passengers: { adults: 0 } },
      { ...modelSearch, book_now: true },
      { ...modelSearch, carriers: ["XX"] },
      "not an object",
      "text",
      "fail",
    ]) {
      next = answer;
      const r = await textSearch(provider(), LINE, { today: TODAY });
      expect([answer, r.source]).toEqual([answer, "embedded"]);
      expect(r.search).toMatchObject({ origin: "KBP", destination: "WAW", departure_date: "2026-12-04" });
      expect(r.search.cabin).toBe("economy");
    }
  });

  it("when no model is configured, then no request leaves the process", async () => {
    const before = seen.length;
    const r = await textSearch(EMBEDDED_TEXT_SEARCH, LINE, { today: TODAY });
    expect(r.source).toBe("embedded");
    expect(seen.length).toBe(before);
  });
});
