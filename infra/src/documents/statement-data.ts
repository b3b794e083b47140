import { documentNumberText, type InvoiceKind, type Statement } from "@skyward/contracts/invoices";
import type pg from "pg";

/** The first instant of a month (`YYYY-MM`, UTC) and of the next. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, m - 1, 1)), end: new Date(Date.UTC(year, m, 1)) };
}

/** The month before the one `now` falls in, as `YYYY-MM`. */
export function previousMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** Opening balance, every movement of the month with its booking's documents, closing balance. */
export async function statementOf(
  pool: pg.Pool,
  company: { id: string; name: string; currency: string },
  month: string,
  start: Date,
  end: Date,
): Promise<Statement> {
  const opening = await pool.query<{ balance_after: string }>(
    `SELECT balance_after FROM read.balance_history WHERE company_id = $1 AND at < $2
      ORDER BY position DESC LIMIT 1`,
    [company.id, start],
  );
  const { rows: movements } = await pool.query<{
    at: Date;
    kind: string;
    amount: string;
    balance_after: string;
    locator: string | null;
    reason: string | null;
  }>(
    `SELECT at, kind, amount, balance_after, locator, reason FROM read.balance_history
      WHERE company_id = $1 AND at >= $2 AND at < $3 ORDER BY position`,
    [company.id, start, end],
  );
  const locators = [...new Set(movements.flatMap((m) => (m.locator ? [m.locator] : [])))];
  const { rows: documents } = await pool.query<{ locator: string; kind: InvoiceKind; number: number }>(
    "SELECT locator, kind, number FROM read.invoices WHERE company_id = $1 AND locator = ANY($2) ORDER BY number",
    [company.id, locators],
  );
  const openingBalance = Number(opening.rows[0]?.balance_after ?? 0);
  const lines = movements.map((m) => {
    const amount = Number(m.amount);
    // A charge is documented by the booking's invoices, a credit by its credit notes.
    const kind: InvoiceKind = amount < 0 ? "invoice" : "credit_note";
    return {
      at: m.at.toISOString(),
      kind: m.kind,
      amount,
      balance_after: Number(m.balance_after),
      locator: m.locator,
      reason: m.reason,
      documents: documents
        .filter((d) => m.locator && d.locator === m.locator && d.kind === kind)
        .map((d) => documentNumberText(d.kind, d.number)),
    };
  });
  return {
    company_id: company.id,
    company_name: company.name,
    month,
    currency: company.currency,
    opening_balance: openingBalance,
    closing_balance: lines.at(-1)?.balance_after ?? openingBalance,
    charged: -lines.filter((l) => l.amount < 0).reduce((sum, l) => sum + l.amount, 0),
    credited: lines.filter((l) => l.amount > 0).reduce((sum, l) => sum + l.amount, 0),
    movements: lines,
  };
}
