import { SalesReportJob } from "@skyward/contracts/sales";

/**
 * The `sales-report` job: queued by the export (query-service) when a report has more lines than it answers at once,
 * run by command processes (command-service/src/sales/report-job.ts), which hold the job runner and the mailer.
 */
export const salesJobs = {
  "sales-report": { payload: SalesReportJob, maxAttempts: 5 },
};

/** How long an e-mailed report can be downloaded. */
export const SALES_REPORT_TTL_DAYS = 7;
