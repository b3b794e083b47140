// A real stream (Node's web streams): the reader sees the body chunk by chunk, as the browser's fetch gives it.
import { ReadableStream } from "node:stream/web";
import { describe, expect, it } from "@jest/globals";
import { type DownloadProgress, readWithProgress } from "./sales-files.ts";

function streamed(chunks: number[], headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const size of chunks) controller.enqueue(new Uint8Array(size).fill(7));
      controller.close();
    },
  });
  // jsdom has no fetch Response: the part of one the reader uses.
  return {
    headers: { get: (name: string) => headers[name] ?? null },
    body,
    blob: () => Promise.reject(new Error("read as a stream")),
  } as unknown as Response;
}

describe("readWithProgress", () => {
  it("reports each chunk against the announced size, under 100 % until the last byte, then the whole file", async () => {
    const seen: DownloadProgress[] = [];
    const file = await readWithProgress(
      streamed([300, 300, 600], {
        "x-sales-lines": "12",
        "x-sales-estimated-bytes": "1000",
        "content-type": "x/y",
      }),
      (p) => seen.push(p),
    );
    expect(file.size).toBe(1200);
    expect(file.type).toBe("x/y");
    expect(seen.map((p) => [p.received, p.percent, p.done])).toEqual([
      [0, 0, false],
      [300, 30, false],
      [600, 60, false],
      // More than the estimate said: still not complete until the stream ends.
      [1200, 99, false],
      [1200, 100, true],
    ]);
    expect(seen.every((p) => p.lines === 12 && p.estimatedBytes === 1000)).toBe(true);
  });

  it("gives no percentage without an estimate (an indeterminate bar), and ignores a header that is not a number", async () => {
    const seen: DownloadProgress[] = [];
    await readWithProgress(streamed([10], { "x-sales-lines": "many" }), (p) => seen.push(p));
    expect(seen.map((p) => [p.percent, p.lines])).toEqual([
      [null, null],
      [null, null],
      [100, null],
    ]);
  });
});
