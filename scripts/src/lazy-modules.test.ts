// The product's start does not load the libraries only a document needs (exceljs about 0.6 s of CPU, fontkit about
// 0.2 s, in plain Node on these machines): they load with the first workbook or PDF a process writes. Checked in a
// process of its own, since Jest's module registry is not Node's.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "@jest/globals";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Node's CommonJS cache holds every CommonJS package loaded, imported from ESM or not: the two libraries loaded. */
const PROBE = `
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
const cache = createRequire(import.meta.url).cache;
const loaded = () => ["exceljs", "fontkit"].filter((name) =>
  Object.keys(cache).some((file) => file.includes(\`/node_modules/\${name}/\`)));
const seen = {};
await import("./scripts/src/app.ts");
seen.afterStart = loaded();
const { renderPdf } = await import("./infra/src/documents/pdf.ts");
const pdf = await renderPdf({ title: "t", author: "a" }, (doc) => doc.text("Gdańsk"));
seen.afterPdf = loaded();
const { writeSalesWorkbook } = await import("./infra/src/sales/workbook.ts");
const out = new PassThrough();
const bytes = [];
out.on("data", (chunk) => bytes.push(chunk));
await writeSalesWorkbook((async function* () {})(), out);
seen.afterWorkbook = loaded();
seen.pdf = pdf.subarray(0, 5).toString();
seen.xlsx = Buffer.concat(bytes).subarray(0, 2).toString();
console.log(JSON.stringify(seen));
process.exit(0);
`;

describe("the app's start", () => {
  it("loads exceljs and fontkit only with the first workbook and PDF it writes", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", PROBE],
      { cwd: root, env: { ...process.env, NODE_OPTIONS: "" } },
    );
    expect(JSON.parse(stdout.trim().split("\n").at(-1) as string)).toEqual({
      afterStart: [],
      afterPdf: ["fontkit"],
      afterWorkbook: ["exceljs", "fontkit"],
      pdf: "%PDF-",
      xlsx: "PK",
    });
  });
});
