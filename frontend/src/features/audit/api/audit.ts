import type {
  AsOfResponse,
  AuditNames,
  HistoryPage,
  HistoryQuery,
  VerifyReport,
} from "@skyward/contracts/audit";
import { queryOptions } from "@tanstack/react-query";
import { api, buildUrl } from "../../../lib/api-client.ts";

export type HistoryFilters = Partial<Omit<HistoryQuery, "limit" | "after_seq">>;

/** Only the filters that say something, as query parameters. */
const given = (filters: HistoryFilters) =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => typeof v === "string" && v.trim() !== ""));

/** `GET /audit/events`: a page of the event history, after `afterSeq`. */
export const historyQueryOptions = (filters: HistoryFilters, afterSeq: number | null) =>
  queryOptions({
    queryKey: ["audit", "events", filters, afterSeq],
    queryFn: async ({ signal }) =>
      (
        await api.get<{ data: HistoryPage }>("/audit/events", {
          query: { ...given(filters), limit: "50", ...(afterSeq ? { after_seq: String(afterSeq) } : {}) },
          signal,
        })
      ).data.data,
  });

/** Saves a response body as a file (a page load would get the app itself: the server answers HTML to browsers). */
async function download(url: string, accept: string, fileName: string): Promise<void> {
  const response = await fetch(url, { headers: { accept }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`${response.status}`);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The selection as JSON Lines with its chain hashes (npm run verify-log -- --file checks it offline). */
export const downloadExport = (filters: HistoryFilters) =>
  download(buildUrl("/audit/export", given(filters)), "application/x-ndjson", "skyward-events.jsonl");

/** Every anchor, to keep outside the database (npm run verify-log -- --anchors). */
export const downloadAnchors = () => download("/audit/anchors", "application/json", "skyward-anchors.json");

/** `GET /audit/as_of/{kind}/{id}?at=&compare=` */
export async function timeTravel(kind: string, id: string, at: string, compare: string | null) {
  return (
    await api.get<{ data: AsOfResponse }>(
      `/audit/as_of/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`,
      {
        query: { at, ...(compare ? { compare } : {}) },
      },
    )
  ).data.data;
}

/** `GET /audit/verify` */
export async function verifyLog() {
  return (await api.get<{ data: VerifyReport }>("/audit/verify")).data.data;
}

/** `GET /audit/names?q=`: people and companies of the caller's history, found by name (or by id). */
export const auditNamesQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ["audit", "names", q],
    queryFn: async ({ signal }) =>
      (await api.get<{ data: AuditNames }>("/audit/names", { query: { q }, signal })).data.data,
    staleTime: 60_000,
  });
