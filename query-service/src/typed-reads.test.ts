import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";

/**
 * Issue 22, item 2: every row set the query service reads is typed where it is read (`pool.query<Row>(...)`), so no
 * `any` from pg flows into an answer, and no row is cast through `Record<string, unknown>` or an ignored `any`.
 */
const src = fileURLToPath(new URL(".", import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return sources(path);
      return Promise.resolve(e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : []);
    }),
  );
  return nested.flat();
}

describe("the query service's reads", () => {
  it("name the row type of every query, and cast no row to an untyped record", async () => {
    const found: string[] = [];
    for (const file of await sources(src)) {
      const lines = (await readFile(file, "utf8")).split("\n");
      lines.forEach((line, i) => {
        const where = `${relative(src, file)}:${i + 1}`;
        // A query without its row type: `.query(` straight after the name (typed ones read `.query<Row>(`).
        if (/\.query\(/.test(line)) found.push(`${where} untyped query`);
        if (/Record<string, unknown>/.test(line)) found.push(`${where} Record<string, unknown>`);
        if (/noExplicitAny|:\s*any\b|as any\b/.test(line)) found.push(`${where} any`);
      });
    }
    expect(found).toEqual([]);
  });
});
