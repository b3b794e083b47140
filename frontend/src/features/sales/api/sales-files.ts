import { type SaleLine, ticketFileName } from "@skyward/contracts/sales";
import { ApiError, api } from "../../../lib/api-client.ts";
import { type SalesFilter, ticketQuery } from "./sales-list.ts";

/** Hands a downloaded file to the browser under its name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export type ExportOutcome = "downloaded" | "empty" | "emailed";

/**
 * The sales-report spreadsheet for the filter: downloaded, or the spec's outcomes: 400 when nothing matches, 413 when
 * the report is too large to answer at once and is e-mailed instead.
 */
export async function exportSales(filter: SalesFilter, language: string): Promise<ExportOutcome> {
  try {
    const { data } = await api.get<Blob>("/sales/export", {
      query: { ...ticketQuery(filter), lang: language },
      responseType: "blob",
    });
    saveFile(data, `sales-report_${filter.dateFrom ?? "start"}_${filter.dateTo ?? "today"}.xlsx`);
    return "downloaded";
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && error.hasCode("no_tickets")) return "empty";
    if (error instanceof ApiError && error.status === 413) return "emailed";
    throw error;
  }
}

/** Custom prices the agent shows the traveller, in minor units. */
export interface CustomPrices {
  fare: number;
  taxes: number;
  fees: number;
}

/** `GET /sales/{id}?custom_prices[...]`: the ticket receipt as a PDF, named from passenger and ticket number. */
export async function downloadTicket(
  line: SaleLine,
  language: string,
  prices: CustomPrices | null,
): Promise<void> {
  const { data } = await api.get<Blob>(`/sales/${encodeURIComponent(line.id)}`, {
    query: { format: "pdf", lang: language, ...(prices ? { custom_prices: { ...prices } } : {}) },
    responseType: "blob",
  });
  saveFile(data, ticketFileName(line.passenger_name, line.document_number));
}
