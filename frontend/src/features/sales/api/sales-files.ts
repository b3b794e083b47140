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
 * How far a download is: bytes received, the lines the server announced (`X-Sales-Lines`) and the size it estimated
 * (`X-Sales-Estimated-Bytes`: the stream has no length). `percent` stays below 100 until the last byte has arrived,
 * whatever the estimate said; null when the server gave no estimate.
 */
export interface DownloadProgress {
  received: number;
  lines: number | null;
  estimatedBytes: number | null;
  percent: number | null;
  done: boolean;
}

const headerNumber = (headers: Headers, name: string) => {
  const value = Number(headers.get(name) ?? Number.NaN);
  return Number.isFinite(value) && value >= 0 ? value : null;
};

/** Reads a streamed body chunk by chunk, reporting the progress after each, and returns it whole. */
export async function readWithProgress(
  response: Response,
  onProgress: (progress: DownloadProgress) => void,
): Promise<Blob> {
  const lines = headerNumber(response.headers, "x-sales-lines");
  const estimatedBytes = headerNumber(response.headers, "x-sales-estimated-bytes");
  const type = response.headers.get("content-type") ?? "";
  const progress = (received: number, done: boolean): DownloadProgress => ({
    received,
    lines,
    estimatedBytes,
    percent: done
      ? 100
      : estimatedBytes
        ? Math.min(99, Math.floor((received / Math.max(estimatedBytes, 1)) * 100))
        : null,
    done,
  });
  onProgress(progress(0, false));
  if (!response.body) {
    const blob = await response.blob();
    onProgress(progress(blob.size, true));
    return blob;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(progress(received, false));
  }
  onProgress(progress(received, true));
  return new Blob(chunks as BlobPart[], { type });
}

/**
 * The sales-report spreadsheet for the filter: downloaded with its progress reported, or the spec's outcomes: 400
 * when nothing matches, 413 when the report is too large to answer at once and is e-mailed instead.
 */
export async function exportSales(
  filter: SalesFilter,
  language: string,
  onProgress: (progress: DownloadProgress) => void = () => {},
): Promise<ExportOutcome> {
  try {
    const { data: response } = await api.get<Response>("/sales/export", {
      query: { ...ticketQuery(filter), lang: language },
      responseType: "response",
    });
    const file = await readWithProgress(response, onProgress);
    saveFile(file, `sales-report_${filter.dateFrom ?? "start"}_${filter.dateTo ?? "today"}.xlsx`);
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
