import { companyMailStream } from "@skyward/contracts/itinerary";
import { inTransaction } from "@skyward/infra/db";
import { monthBounds, previousMonth, statementOf } from "@skyward/infra/documents/statement-data";
import {
  renderStatementPdf,
  renderStatementXlsx,
  statementFileName,
} from "@skyward/infra/documents/statements";
import { formatMoney } from "@skyward/infra/documents/ticket-pdf";
import type { CommandDeps } from "../deps.ts";
import { evolveCompanyMail, noCompanyMail } from "../itinerary/settings.ts";
import type { OutgoingMail } from "../notifications/port-types.ts";

/**
 * The month's statement mailed to each company's billing contact on the first day of the next month (the
 * `statement-mails` cron job): one `send-statement` job per company and month, queued with its row in
 * app.statement_mails in one transaction, so a second run of the day mails nobody twice.
 */
export async function queueStatementMails(
  deps: CommandDeps,
  month: string | undefined,
  traceId: string,
): Promise<number> {
  const statementMonth = month ?? previousMonth(deps.now());
  const { rows } = await deps.pool.query<{ id: string }>(
    "SELECT id FROM read.companies WHERE NOT deleted ORDER BY id",
  );
  let queued = 0;
  for (const { id } of rows) {
    const { state } = await deps.store.fold(companyMailStream(id), evolveCompanyMail, noCompanyMail);
    const to = state.billing_email;
    if (!to) continue;
    const sent = await inTransaction(deps.pool, async (client) => {
      const claimed = await client.query(
        "INSERT INTO app.statement_mails (company_id, month) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        [id, statementMonth],
      );
      if (claimed.rowCount === 0) return false;
      const jobId = await deps.jobs.sendIn(
        client,
        "send-statement",
        { company_id: id, month: statementMonth, to },
        { traceId },
      );
      await client.query("UPDATE app.statement_mails SET job_id = $3 WHERE company_id = $1 AND month = $2", [
        id,
        statementMonth,
        jobId,
      ]);
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}

/** The statement e-mail of a company and month: a summary in the text, the statement as PDF and xlsx attached. */
export async function composeStatementMail(
  deps: CommandDeps,
  companyId: string,
  month: string,
  to: string,
): Promise<OutgoingMail | null> {
  const { rows } = await deps.pool.query<{
    id: string;
    name: string;
    currency: string;
    agency_name: string | null;
  }>(
    `SELECT c.id, c.name, c.currency, (SELECT a.name FROM read.agencies a WHERE a.id = c.agency_id) AS agency_name
       FROM read.companies c WHERE c.id = $1`,
    [companyId],
  );
  const company = rows[0];
  if (!company) return null;
  const { start, end } = monthBounds(month);
  const statement = await statementOf(deps.pool, company, month, start, end);
  const agency = company.agency_name ?? "Skyward";
  // Statements go out in English: a company has no language of its own on file.
  const money = (amount: number) => formatMoney({ amount, currency: statement.currency }, "en");
  return {
    to,
    subject: `${agency}: statement ${month}, ${company.name}`,
    text: [
      `The statement of ${company.name} for ${month} is attached (PDF and spreadsheet).`,
      "",
      `Opening balance: ${money(statement.opening_balance)}`,
      `Charged: ${money(statement.charged)}`,
      `Credited: ${money(statement.credited)}`,
      `Closing balance: ${money(statement.closing_balance)}`,
      `Movements: ${statement.movements.length}`,
      "",
      agency,
    ].join("\n"),
    attachments: [
      {
        filename: statementFileName(statement, "pdf"),
        content_type: "application/pdf",
        content: await renderStatementPdf(statement, agency, "en"),
      },
      {
        filename: statementFileName(statement, "xlsx"),
        content_type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        content: await renderStatementXlsx(statement, "en"),
      },
    ],
  };
}
