import { readFile, writeFile } from "node:fs/promises";
import { AnchorList, type VerifyReport } from "@skyward/contracts/audit";
import { verifyExportLines } from "@skyward/infra/audit/canonical";
import { anchorNow, chainAll, listAnchors, verifyChain } from "@skyward/infra/audit/chain";
import { exportLines } from "@skyward/infra/audit/export";
import { readConfig } from "@skyward/infra/config";
import { createPool } from "@skyward/infra/db";
import { migrate } from "@skyward/infra/migrate";
import { cliDatabase } from "./cli-database.ts";

const USAGE = `usage: npm run verify-log -- [options]
  (no option)               verify the whole log of the database (DATABASE_URL, or the embedded one)
  --from=SEQ --to=SEQ       verify a range of the chain only
  --anchors=FILE            also check against anchors kept outside the database (a file --export-anchors wrote)
  --anchor                  take an anchor at the chain head now
  --export-anchors=FILE     write every anchor to FILE (keep it outside the database)
  --export=FILE [--stream=ID] [--from-time=ISO] [--to-time=ISO]
                            write the log (or a stream or time range) as JSON Lines with its chain hashes
  --file=FILE               verify a JSON Lines export offline, with no database
  --json                    print the report as JSON
Exit status: 0 when the log verifies, 1 when it does not, 2 on a usage error.`;

const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string) => args.includes(`--${name}`);
const known = [
  "from",
  "to",
  "anchors",
  "anchor",
  "export-anchors",
  "export",
  "stream",
  "from-time",
  "to-time",
];
for (const a of args) {
  const name = /^--([a-z-]+)/.exec(a)?.[1];
  if (!name || ![...known, "file", "json", "help"].includes(name)) {
    console.error(`unknown argument ${a}\n${USAGE}`);
    process.exit(2);
  }
}
if (flag("help")) {
  console.log(USAGE);
  process.exit(0);
}

const seqOption = (name: string): number | undefined => {
  const value = option(name);
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) {
    console.error(`--${name} must be a positive whole number\n${USAGE}`);
    process.exit(2);
  }
  return Number(value);
};

function printReport(report: VerifyReport): void {
  if (flag("json")) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const range = `links ${report.from_seq}..${report.to_seq} of ${report.head.seq}`;
  if (report.ok)
    console.log(
      `OK: ${report.checked} events verified (${range}), ${report.anchors_checked} anchors matched, head ${report.head.hash}` +
        (report.unchained > 0 ? `; ${report.unchained} newer events not chained yet` : ""),
    );
  else {
    const p = report.problem;
    console.log(
      `TAMPERED: ${p?.kind} at link ${p?.seq ?? "?"} (global position ${p?.global_position ?? "?"}, event ${p?.event_id ?? "?"}, ` +
        `stream ${p?.stream_id ?? "?"} #${p?.stream_position ?? "?"}); ${report.checked} events before it verified`,
    );
    if (p?.expected_hash) console.log(`  expected hash ${p.expected_hash}`);
    if (p?.actual_hash) console.log(`  actual hash   ${p.actual_hash}`);
  }
}

async function readAnchorsFile(path: string): Promise<{ seq: number; hash: string }[]> {
  const parsed = AnchorList.safeParse(JSON.parse(await readFile(path, "utf8")));
  if (!parsed.success) {
    console.error(`${path} is not an anchors file (--export-anchors writes one)`);
    process.exit(2);
  }
  return parsed.data.anchors;
}

const offline = option("file");
if (offline !== undefined) {
  const anchors = option("anchors") ? await readAnchorsFile(option("anchors") as string) : [];
  const check = verifyExportLines((await readFile(offline, "utf8")).split("\n"), anchors);
  if (flag("json")) console.log(JSON.stringify(check, null, 2));
  else if (check.ok) console.log(`OK: ${check.events} exported events verified offline`);
  else console.log(`TAMPERED: line ${check.problem?.line}: ${check.problem?.reason}`);
  process.exit(check.ok ? 0 : 1);
}

const config = readConfig();
const { url, embedded } = await cliDatabase(config, "verification");
const pool = createPool(url, { max: 2, applicationName: "skyward-verify-log" });
let exitCode = 0;
try {
  await migrate(pool);
  // Links what is committed so far, as the app's chainer would have (a no-op when it is caught up).
  await chainAll(pool);
  if (flag("anchor")) {
    const anchor = await anchorNow(pool);
    console.log(
      anchor ? `anchored link ${anchor.seq}: ${anchor.hash}` : "the log is empty: nothing to anchor",
    );
  }
  const anchorsOut = option("export-anchors");
  if (anchorsOut !== undefined) {
    const anchors = await listAnchors(pool);
    await writeFile(anchorsOut, `${JSON.stringify({ anchors }, null, 2)}\n`);
    console.log(`${anchors.length} anchors written to ${anchorsOut}`);
  }
  const exportTo = option("export");
  if (exportTo !== undefined) {
    const chunks: string[] = [];
    let events = -1;
    for await (const line of exportLines(pool, {
      stream_id: option("stream"),
      from: option("from-time"),
      to: option("to-time"),
    })) {
      chunks.push(line);
      events++;
    }
    await writeFile(exportTo, chunks.join(""));
    console.log(`${events} events exported to ${exportTo}`);
  }
  const onlyTools = flag("anchor") || anchorsOut !== undefined || exportTo !== undefined;
  if (!onlyTools || option("from") || option("to") || option("anchors")) {
    const anchors = option("anchors") ? await readAnchorsFile(option("anchors") as string) : [];
    let shown = 0;
    const report = await verifyChain(pool, {
      fromSeq: seqOption("from"),
      toSeq: seqOption("to"),
      anchors,
      onProgress(done, of) {
        if (flag("json") || !process.stderr.isTTY || done - shown < 10_000) return;
        shown = done;
        process.stderr.write(`\r  verified ${done} / ${of}`);
      },
    });
    if (shown > 0) process.stderr.write("\n");
    printReport(report);
    if (!report.ok) exitCode = 1;
  }
} finally {
  await pool.end();
  await embedded?.stop();
}
process.exit(exitCode);
