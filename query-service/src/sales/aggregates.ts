import type { TicketFilter } from "@skyward/contracts/sales";
import { dateRange, type Params, type SalesViewer, salesScope } from "@skyward/infra/sales/lines";

/**
 * Which pre-aggregated rows answer a viewer, coarsest first (projectors/src/sales): administrators read the
 * all-agency rollups (agency ''), supervisors their agency's, agents and demo users their own per-agent days. The
 * conditions select exactly what `salesScope` selects on the lines, at the aggregate's grain.
 */
export type AggregateScope =
  | { kind: "all" }
  | { kind: "agency"; agencyId: string }
  | { kind: "agent"; viewer: SalesViewer };

/** Administrators and auditors see every real sale (as `salesScope` decides). */
const SEES_ALL_SALES: readonly string[] = ["Admin", "Support", "Auditor"];

export function aggregateScope(viewer: SalesViewer): AggregateScope {
  if (viewer.demo) return { kind: "agent", viewer };
  if (viewer.userType === "Supervisor" && viewer.agencyId)
    return { kind: "agency", agencyId: viewer.agencyId };
  if (SEES_ALL_SALES.includes(viewer.userType)) return { kind: "all" };
  return { kind: "agent", viewer };
}

export type Grain = "day" | "week" | "month";
export interface Piece {
  grain: Grain;
  /** First and last period start (ISO dates) of this grain's rows. */
  from: string;
  to: string;
}

const DAY = 86_400_000;
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The start of the period of `grain` holding day `t` (ISO weeks start on Monday, as PostgreSQL's date_trunc). */
function startOf(t: number, grain: Grain): number {
  const d = new Date(t);
  if (grain === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (grain === "week") return t - ((d.getUTCDay() + 6) % 7) * DAY;
  return t;
}
const previousStart = (t: number, grain: Grain) => startOf(t - DAY, grain);
const nextStart = (t: number, grain: Grain) =>
  grain === "month"
    ? startOf(startOf(t, grain) + 32 * DAY, grain)
    : startOf(t, grain) + (grain === "week" ? 7 : 1) * DAY;

/**
 * Days `from`..`to` (both included) as whole months, then whole ISO weeks of what is left at either end, then days:
 * a year reads about 11 months, 8 weeks and 12 days of rows instead of 365 days.
 */
export function periodPieces(from: string, to: string, grains: readonly Grain[]): Piece[] {
  const start = ms(from);
  const end = ms(to);
  if (start > end) return [];
  const [grain, ...finer] = grains;
  if (!grain || grain === "day") return [{ grain: "day", from, to }];
  const first = startOf(start, grain) === start ? start : nextStart(start, grain);
  const afterLast = startOf(end + DAY, grain);
  if (first >= afterLast) return periodPieces(from, to, finer);
  return [
    { grain, from: iso(first), to: iso(previousStart(afterLast, grain)) },
    ...periodPieces(from, iso(first - DAY), finer),
    ...periodPieces(iso(afterLast), to, finer),
  ];
}

/** Pieces as a condition on `s.grain` and `s.period`. */
export function piecesWhere(pieces: readonly Piece[], p: Params): string {
  if (pieces.length === 0) return "false";
  return `(${pieces
    .map(
      (x) =>
        `(s.grain = ${p.add(x.grain)} AND s.period BETWEEN ${p.add(x.from)}::date AND ${p.add(x.to)}::date)`,
    )
    .join(" OR ")})`;
}

/** The rollup rows (`read.sales_rollup s`) of a viewer's agency level. */
export function rollupScope(scope: AggregateScope & { kind: "all" | "agency" }, p: Params): string {
  return `s.agency_id = ${p.add(scope.kind === "all" ? "" : scope.agencyId)} AND NOT s.fake_booking`;
}

/** Where a list filter without text reads its totals from, with the condition selecting them (alias `s`). */
export function totalsSource(
  viewer: SalesViewer,
  filter: TicketFilter,
  p: Params,
): { table: string; where: string } {
  const scope = aggregateScope(viewer);
  if (scope.kind === "agent")
    return { table: "read.sales_daily", where: `${salesScope(viewer, p)} AND ${dateRange(filter, p)}` };
  // Open ends reach past any sale; whole months cover them.
  const pieces = periodPieces(filter.date_from ?? "1970-01-01", filter.date_to ?? "9999-12-31", ["month"]);
  return { table: "read.sales_rollup", where: `${rollupScope(scope, p)} AND ${piecesWhere(pieces, p)}` };
}

/**
 * The lines of an agent, as `salesScope` selects them, with the companies that share bookings named up front
 * (`shared`, read first): without sharing the condition is the agent's own lines, read off the agent's index in
 * the list's order instead of every line of the company.
 */
export function agentLinesScope(viewer: SalesViewer, shared: readonly string[], p: Params): string {
  const own = viewer.companyIds.filter((c) => !shared.includes(c));
  const parts: string[] = [];
  if (own.length > 0)
    parts.push(`(s.agent_id = ${p.add(viewer.userId)} AND s.company_id = ANY(${p.add(own)}))`);
  if (shared.length > 0) parts.push(`s.company_id = ANY(${p.add(shared)})`);
  return parts.length === 0 ? "false" : `(${parts.join(" OR ")}) AND NOT s.fake_booking`;
}
