import { PassThrough } from "node:stream";
import type { Language } from "@skyward/contracts/ids";
import type { SalesReportJob } from "@skyward/contracts/sales";
import type { JobContext } from "@skyward/infra/jobs/runtime";
import { agencyTimeZone, streamSaleLines } from "@skyward/infra/sales/lines";
import { SALES_REPORT_TTL_DAYS } from "@skyward/infra/sales/report-job";
import { salesReportFileName, writeSalesWorkbook } from "@skyward/infra/sales/workbook";
import type { CommandDeps } from "../deps.ts";
import { notificationPorts } from "../notifications/ports.ts";

const MAIL: Record<
  Language,
  { subject: string; text: (lines: number, link: string, days: number) => string }
> = {
  en: {
    subject: "Your sales report is ready",
    text: (lines, link, days) =>
      `Your sales report (${lines} lines) is ready. Download it within ${days} days: ${link}`,
  },
  ua: {
    subject: "Ваш звіт про продажі готовий",
    text: (lines, link, days) =>
      `Ваш звіт про продажі (рядків: ${lines}) готовий. Завантажте його протягом ${days} днів: ${link}`,
  },
  pl: {
    subject: "Twój raport sprzedaży jest gotowy",
    text: (lines, link, days) =>
      `Twój raport sprzedaży (wierszy: ${lines}) jest gotowy. Pobierz go w ciągu ${days} dni: ${link}`,
  },
  fr: {
    subject: "Votre rapport de ventes est prêt",
    text: (lines, link, days) =>
      `Votre rapport de ventes (${lines} lignes) est prêt. Téléchargez-le dans les ${days} jours : ${link}`,
  },
  es: {
    subject: "Su informe de ventas está listo",
    text: (lines, link, days) =>
      `Su informe de ventas (${lines} líneas) está listo. Descárguelo en un plazo de ${days} días: ${link}`,
  },
};

/**
 * Builds the spreadsheet an export answered 413 for, keeps it for its requester and e-mails the link (a file of
 * tens of thousands of lines is too large for many mailboxes as an attachment). The report id keeps one file per
 * request; a retry after a crash between the file and the mail mails it again (at least once, never lost).
 */
export async function runSalesReport(
  job: SalesReportJob,
  deps: CommandDeps,
  context: JobContext,
): Promise<void> {
  const { requester, filter } = job;
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on("data", (c: Buffer) => chunks.push(c));
  const viewer = {
    userId: requester.user_id,
    userType: requester.user_type,
    agencyId: requester.agency_id,
    companyIds: requester.company_ids,
    demo: requester.demo,
  };
  const { lines } = await writeSalesWorkbook(
    streamSaleLines(deps.pool, filter, viewer),
    sink,
    requester.language,
    await agencyTimeZone(deps.pool, requester.agency_id),
  );
  // Reports past their download time go as new ones come (no schedule of their own needed).
  await deps.pool.query("DELETE FROM read.sales_reports WHERE expires_at <= now()");
  await deps.pool.query(
    `INSERT INTO read.sales_reports (id, requested_by, file_name, lines, content, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) ON CONFLICT (id) DO NOTHING`,
    [
      job.report_id,
      requester.user_id,
      salesReportFileName(filter.date_from, filter.date_to),
      lines,
      Buffer.concat(chunks),
      SALES_REPORT_TTL_DAYS,
    ],
  );
  const base = deps.config.PUBLIC_URL ?? `http://${deps.config.HOST}:${deps.config.PORT}`;
  const link = new URL(`/sales/reports/${job.report_id}`, base).toString();
  const mail = MAIL[requester.language];
  const { mailer } = notificationPorts({
    config: deps.config,
    pool: deps.pool,
    logger: deps.logger,
    jobs: deps.jobs,
  });
  await mailer.send({
    to: requester.email,
    subject: mail.subject,
    text: mail.text(lines, link, SALES_REPORT_TTL_DAYS),
    traceId: context.traceId,
  });
  context.logger.info({ report_id: job.report_id, lines }, "sales report built and mailed");
}
