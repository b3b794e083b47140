// Issue 30: one connected trace from an issue's request through its command, the supplier call and the append to
// the projectors that apply its events, exported over OTLP/HTTP to a local receiver.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { contacts, inDays, passenger } from "./testing/bookings.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** An OTLP/HTTP receiver (JSON encoding, the exporter's default): every span it was sent. */
async function receiver(): Promise<{ url: string; spans: Span[]; server: Server }> {
  const spans: Span[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (req.url === "/v1/traces" && req.headers["content-type"]?.startsWith("application/json")) {
        const parsed = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

const TYPED = "QZ7734511";

describe("a trace for an issue", () => {
  let otlp: Awaited<ReturnType<typeof receiver>>;
  let t: TestApp;
  let issueTrace: string;
  let locator: string;
  let events: Awaited<ReturnType<TestApp["events"]>>;

  beforeAll(async () => {
    otlp = await receiver();
    t = await startTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url } });
    const agent = t.client();
    await agent.signIn("agent@dnipro.test");
    const search = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO", "LH", "OS", "TK"],
    });
    const result = search.body.result;
    const booked = await agent.post("/bookings", {
      search_result_id: result.id,
      fare_id: result.origin_destinations[0].fares[0].fare_id,
      passengers: [passenger("Ivan", "Petrenko")],
      contacts,
    });
    expect(booked.status).toBe(201);
    locator = booked.body.locator;
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    issueTrace = issued.headers.get("x-trace-id") as string;
    // Read once the projectors have applied the issue: their spans are ended by then.
    const page = await agent.get(`/bookings/${locator}`, {
      headers: { "x-min-position": issued.body.position },
    });
    expect(page.body.data.status).toBe("issued");
    events = await t.events(`booking-${locator}`);
    // What an agent types into a search is personal data: the spans name the query's parameters, not its values.
    expect((await agent.get("/travellers", { query: { q: TYPED } })).status).toBe(200);
    await t.stop(); // flushes the spans
  });
  afterAll(async () => {
    await new Promise((resolve) => otlp.server.close(resolve));
  });

  it("never carries a query's values: a typed passport number is in no span", () => {
    const traveller = otlp.spans.filter((s) => JSON.stringify(s).includes("/travellers"));
    expect(traveller.length).toBeGreaterThan(0);
    expect(JSON.stringify(otlp.spans)).not.toContain(TYPED);
  });

  it("names the request's trace id in x-trace-id and in the events' metadata", async () => {
    expect(issueTrace).toMatch(/^[0-9a-f]{32}$/);
    const issuedEvents = events.filter((e) => e.metadata.trace_id === issueTrace);
    expect(issuedEvents.length).toBeGreaterThan(0);
    for (const e of issuedEvents) expect(e.metadata.span_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("is one connected trace: request, command, supplier issue, append, projectors", () => {
    const spans = otlp.spans.filter((s) => s.traceId === issueTrace);
    const names = spans.map((s) => s.name);
    expect(names).toContain("POST /bookings/issue");
    expect(names).toContain("command");
    expect(names).toContain("supplier issue");
    expect(names).toContain("event-store append");
    expect(names.filter((n) => n.startsWith("project ")).length).toBeGreaterThan(0);
    expect(names).toContain("project bookings");
    // One root, the request; every other span's parent is a span of the same trace.
    const ids = new Set(spans.map((s) => s.spanId));
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots.map((s) => s.name)).toEqual(["POST /bookings/issue"]);
    for (const s of spans)
      if (s.parentSpanId) expect([s.name, ids.has(s.parentSpanId)]).toEqual([s.name, true]);
    // The supplier call and the appends hang under the request.
    const root = roots[0] as Span;
    const ancestry = (s: Span): string[] => {
      const parent = spans.find((p) => p.spanId === s.parentSpanId);
      return parent ? [parent.spanId, ...ancestry(parent)] : [];
    };
    for (const name of ["supplier issue", "event-store append", "project bookings"])
      expect(ancestry(spans.find((s) => s.name === name) as Span)).toContain(root.spanId);
  });
});
