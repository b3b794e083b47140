import type { HistoryFiltersValues, TimeTravelValues } from "@skyward/contracts/audit-forms";
import type { HistoryFilters } from "./api/audit.ts";

/** The audit screen's place, kept in its address so a reload (or a link) shows the same events. */
export interface AuditView {
  tab?: "history" | "time_travel" | "verify" | "replay" | undefined;
  /** The history's filters as the server takes them (instants in ISO); `shown` once the agent asked for events. */
  shown?: boolean | undefined;
  locator?: string | undefined;
  stream_id?: string | undefined;
  trace_id?: string | undefined;
  actor_id?: string | undefined;
  company_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Time travel: the stream (kind and id), the moment and the one compared with. */
  kind?: "booking" | "balance" | "channel" | "traveller" | undefined;
  id?: string | undefined;
  at?: string | undefined;
  compare?: string | undefined;
}

export const HISTORY_FILTERS = [
  "locator",
  "stream_id",
  "trace_id",
  "actor_id",
  "company_id",
  "from",
  "to",
] as const;

/** The filters the address names, or null when no events were asked for. */
export function historyFiltersOf(view: AuditView): HistoryFilters | null {
  if (!view.shown) return null;
  return Object.fromEntries(HISTORY_FILTERS.flatMap((key) => (view[key] ? [[key, view[key]]] : [])));
}

const two = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as the form's local date and time ("YYYY-MM-DDTHH:MM:SS", the person's own time zone). */
export function localOf(instant: string | undefined): string {
  if (!instant) return "";
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** The history form's values for the address's filters. */
export function historyValuesOf(view: AuditView): HistoryFiltersValues {
  return {
    locator: view.locator ?? "",
    stream_id: view.stream_id ?? "",
    trace_id: view.trace_id ?? "",
    actor_id: view.actor_id ?? "",
    company_id: view.company_id ?? "",
    from: localOf(view.from),
    to: localOf(view.to),
  };
}

/** The time travel form's values for the address's stream and moments. */
export function travelValuesOf(view: AuditView): TimeTravelValues {
  return {
    kind: view.kind ?? "booking",
    id: view.id ?? "",
    at: localOf(view.at),
    compare: localOf(view.compare),
  };
}
