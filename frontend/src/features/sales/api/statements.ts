import type { InvoiceDocument } from "@skyward/contracts/invoices";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { saveFile } from "./sales-files.ts";

/** `GET /invoices?month=&company_id=`: the month's invoices and credit notes of a company the caller may see. */
export const invoicesQueryOptions = (month: string, companyId: string) =>
  queryOptions({
    queryKey: ["invoices", month, companyId],
    queryFn: async () =>
      (await api.get<{ data: InvoiceDocument[] }>("/invoices", { query: { month, company_id: companyId } }))
        .data.data,
    enabled: Boolean(month && companyId),
  });

/** A company's statement of a month as PDF or xlsx, handed to the browser under its name. */
export async function downloadStatement(
  companyId: string,
  month: string,
  format: "pdf" | "xlsx",
  language: string,
): Promise<void> {
  const { data } = await api.get<Blob>(`/companies/${encodeURIComponent(companyId)}/statements/${month}`, {
    query: { format, lang: language },
    responseType: "blob",
  });
  saveFile(data, `statement-${month}-${companyId}.${format}`);
}

/** An invoice or credit note as PDF. */
export async function downloadInvoice(document: InvoiceDocument, language: string): Promise<void> {
  const { data } = await api.get<Blob>(`/invoices/${encodeURIComponent(document.invoice_id)}`, {
    query: { format: "pdf", lang: language },
    responseType: "blob",
  });
  saveFile(data, `${document.number_text}.pdf`);
}
