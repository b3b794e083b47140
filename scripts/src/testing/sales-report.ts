import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import type { SaleLine } from "@skyward/contracts/sales";
import { salesReportFileName, writeSalesWorkbook } from "@skyward/infra/sales/workbook";
import type pg from "pg";

/**
 * A kept sales report of `userId`, written straight into read.sales_reports as the `sales-report` job writes it
 * (command-service/src/sales/report-job.ts): reading one back needs no 10,000 sales lines and no job run.
 */
export async function keptSalesReport(pool: pg.Pool, userId: string): Promise<string> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on("data", (c: Buffer) => chunks.push(c));
  const none = (async function* (): AsyncGenerator<SaleLine> {})();
  const { lines } = await writeSalesWorkbook(none, sink);
  const id = randomUUID();
  await pool.query(
    `INSERT INTO read.sales_reports (id, requested_by, file_name, lines, content, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + interval '7 days')`,
    [id, userId, salesReportFileName(undefined, undefined), lines, Buffer.concat(chunks)],
  );
  return id;
}
