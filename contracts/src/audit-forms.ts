import { z } from "zod";
import { AsOfKind, HistoryQuery } from "./audit.ts";
import { ReplayStartRequest } from "./replay.ts";

/**
 * The audit screen's forms, built on the history and as-of queries: what a person types (blank filters,
 * datetime-local times in their own time zone) parses to the query the server takes. Each issue's message is a
 * catalogue key: `required` (the booking form's word), `too_long`, `date_time` and `before_start` (form-errors).
 */

/** A text filter: blank means none; otherwise the history query's own rule (1 to 200 characters). */
const TextFilter = z
  .string()
  .transform((value) => value.trim())
  .refine((value) => value === "" || HistoryQuery.shape.locator.safeParse(value).success, {
    error: "too_long",
  })
  .transform((value) => value || undefined);

/** A datetime-local field's value (the person's local time) as the instant the queries take; blank means none. */
const LocalInstant = z
  .string()
  .refine((value) => value === "" || !Number.isNaN(new Date(value).getTime()), { error: "date_time" })
  .transform((value) => (value ? new Date(value).toISOString() : undefined))
  .pipe(HistoryQuery.shape.from);

/** The end of a range no earlier than its start, said at the end's field. */
const inOrder =
  <Start extends string, End extends string>(start: Start, end: End) =>
  (range: Partial<Record<Start | End, string | undefined>>, context: z.RefinementCtx) => {
    const [from, to] = [range[start], range[end]];
    if (from && to && to < from) context.addIssue({ code: "custom", path: [end], message: "before_start" });
  };

/** The event history's filters (stream, locator, trace, actor, company, time range). */
export const HistoryFiltersForm = z
  .object({
    locator: TextFilter,
    stream_id: TextFilter,
    trace_id: TextFilter,
    actor_id: TextFilter,
    company_id: TextFilter,
    from: LocalInstant,
    to: LocalInstant,
  })
  .superRefine(inOrder("from", "to"));
export type HistoryFiltersValues = z.input<typeof HistoryFiltersForm>;

/** Time travel: which stream (kind and id), as of when, and optionally another moment to compare with. */
export const TimeTravelForm = z.object({
  kind: AsOfKind,
  id: z
    .string()
    .trim()
    .min(1, { error: "required", abort: true })
    .refine((id) => HistoryQuery.shape.stream_id.safeParse(id).success, { error: "too_long" }),
  at: z
    .string()
    .min(1, { error: "required", abort: true })
    .pipe(LocalInstant)
    .transform((at) => at as string),
  compare: LocalInstant,
});
export type TimeTravelForm = z.output<typeof TimeTravelForm>;
export type TimeTravelValues = z.input<typeof TimeTravelForm>;

/** Replay: the projection chosen (the screen offers those in service), as `POST /audit/replays` takes it. */
export const ReplayForm = z.object({
  projection: z.string().min(1, { error: "required", abort: true }).pipe(ReplayStartRequest.shape.projection),
});
export type ReplayFormValues = z.input<typeof ReplayForm>;
