// `npm run bench -- sales-export [--lines=100000]`: the sales-report spreadsheet streamed from the sales read model
// (server-side cursor → exceljs streaming writer) over generated lines; prints rows/s and the process's peak RSS and
// its growth during the export (target: under 100 MB whatever the number of lines).
import os from "node:os";
import { Writable } from "node:stream";
import { streamSaleLines } from "@skyward/infra/sales/lines";
import { writeSalesWorkbook } from "@skyward/infra/sales/workbook";
import { benchDatabase, option, seedSales } from "../src/sales-bench-data.ts";

export async function run(args: readonly string[]): Promise<void> {
  const lines = option(args, "lines", 100_000);
  const db = await benchDatabase();
  try {
    const seeded = performance.now();
    await seedSales(db.pool, lines);
    console.log(
      `Skyward sales-export benchmark: ${lines} lines generated in ${((performance.now() - seeded) / 1000).toFixed(1)} s ` +
        `(${db.label} PostgreSQL), ${os.cpus().length} CPU, Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    let bytes = 0;
    // The file goes nowhere: what is measured is reading, formatting and zipping, not a disk.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    });
    const admin = {
      userId: "bench",
      userType: "Admin" as const,
      agencyId: null,
      companyIds: [],
      demo: false,
    };
    const started = performance.now();
    const summary = await writeSalesWorkbook(
      streamSaleLines(db.pool, { text: undefined }, admin),
      sink,
      "en",
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`\nlines written      ${summary.lines}`);
    console.log(`file size          ${mb(bytes)} MB`);
    console.log(`time               ${seconds.toFixed(2)} s`);
    console.log(`rows/s             ${Math.round(summary.lines / seconds)}`);
    console.log(`RSS before         ${mb(baseline)} MB`);
    console.log(`peak RSS           ${mb(peak)} MB`);
    console.log(`growth             ${mb(peak - baseline)} MB (target under 100 MB)`);
  } finally {
    await db.drop();
  }
}
