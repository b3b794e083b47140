import { writeFile } from "node:fs/promises";
import { openApiDocument } from "@skyward/contracts/openapi";

/**
 * Writes the OpenAPI document as GET /openapi.json builds it (pretty-printed, with a final newline) to the file
 * named, or to standard output: `npx tsx scripts/src/openapi-json.ts before.json`, then after a change, `cmp` the
 * two. Used to check that splitting contracts/src/openapi.ts by capability left the document byte-for-byte as it was.
 */
const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
const [file] = process.argv.slice(2);
if (file) await writeFile(file, text);
else process.stdout.write(text);
