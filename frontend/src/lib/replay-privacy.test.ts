import { afterEach, describe, expect, it } from "@jest/globals";
import { sendScrubbedReplay } from "./replay-privacy";

/**
 * The replay upload's page-exit batches: the SDK sends them with keepalive and counts them sent whatever happens. The
 * browser's network stands in as a function that refuses a keepalive request as Chromium does once the page's
 * keepalive bodies in flight pass 64 KB (a network error: TypeError).
 */
const originalFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = originalFetch;
});

function network(refuseKeepalive: boolean) {
  const calls: { url: string; body: unknown; keepalive: boolean | undefined }[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), body: init?.body, keepalive: init?.keepalive });
    if (refuseKeepalive && init?.keepalive) throw new TypeError("Failed to fetch");
    return new Response(null, { status: 200 });
  }) as typeof fetch;
  return calls;
}

const exitBatch = {
  url: "https://replay.example/sessions/v2/track?type=replay",
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ version: 2, events: ['{"href":"https://app.example/sales?text=KOVAL&page=2"}'] }),
  keepalive: true,
};

describe("the replay upload", () => {
  it("when the browser refuses a page-exit batch's keepalive request, then the batch is sent again as a plain request, its typed filter still scrubbed", async () => {
    const calls = network(true);
    const res = await sendScrubbedReplay(exitBatch as Parameters<typeof sendScrubbedReplay>[0]);
    expect(res.status).toBe(200);
    expect(calls.map((c) => c.keepalive)).toEqual([true, false]);
    for (const call of calls) {
      expect(call.url).toBe(exitBatch.url);
      expect(call.body).toContain("text=***&page=2");
      expect(call.body).not.toContain("KOVAL");
    }
  });

  it("when a keepalive batch is taken, then it is sent once; a plain request the network fails is not sent again", async () => {
    const taken = network(false);
    await sendScrubbedReplay(exitBatch as Parameters<typeof sendScrubbedReplay>[0]);
    expect(taken.map((c) => c.keepalive)).toEqual([true]);

    globalThis.fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    await expect(
      sendScrubbedReplay({ ...exitBatch, keepalive: false } as Parameters<typeof sendScrubbedReplay>[0]),
    ).rejects.toThrow("Failed to fetch");
  });
});
