import { describe, expect, it } from "@jest/globals";
import { AsOfQuery, HistoryQuery } from "./audit.ts";
import { HistoryFiltersForm, TimeTravelForm } from "./audit-forms.ts";

const blank = { locator: "", stream_id: "", trace_id: "", actor_id: "", company_id: "", from: "", to: "" };
const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

describe("the audit screen's forms", () => {
  it("given filters as typed, when valid, then they parse to a history query the server accepts", () => {
    const filters = HistoryFiltersForm.parse({
      ...blank,
      stream_id: " channel-1 ",
      from: "2026-11-23T10:00",
    });
    expect(filters.stream_id).toBe("channel-1");
    expect(filters.locator).toBeUndefined();
    expect(HistoryQuery.safeParse(filters).success).toBe(true);
    expect(HistoryQuery.safeParse(HistoryFiltersForm.parse(blank)).success).toBe(true);
  });

  it("given a reversed range or an overlong filter, then each is one issue at its field", () => {
    expect(
      messages(
        HistoryFiltersForm.safeParse({
          ...blank,
          actor_id: "a".repeat(201),
          from: "2026-11-24T10:00",
          to: "2026-11-23T10:00",
        }),
      ),
    ).toEqual(["actor_id: too_long", "to: before_start"]);
    expect(messages(HistoryFiltersForm.safeParse({ ...blank, from: "yesterday" }))).toEqual([
      "from: date_time",
    ]);
  });

  it("given time travel, then the id and the moment are required and parse to an as-of query", () => {
    expect(messages(TimeTravelForm.safeParse({ kind: "booking", id: " ", at: "", compare: "" }))).toEqual([
      "id: required",
      "at: required",
    ]);
    const travel = TimeTravelForm.parse({
      kind: "channel",
      id: " c-1 ",
      at: "2026-11-23T10:00",
      compare: "",
    });
    expect(travel.id).toBe("c-1");
    expect(AsOfQuery.safeParse({ at: travel.at }).success).toBe(true);
  });
});
