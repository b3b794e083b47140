import { describe, expect, it } from "@jest/globals";
import {
  ageOn,
  airportTime,
  clockTime,
  dayShift,
  durationParts,
  formatDay,
  formatFromNow,
  formatInstant,
  shiftDay,
} from "./date-format.ts";

describe("date formats", () => {
  it("shows airport times as written, whatever the agent's zone", () => {
    expect(airportTime("2026-12-12T19:55:00+02:00")).toBe("19:55");
    expect(dayShift("2026-12-12T23:10:00+02:00", "2026-12-13T01:05:00+01:00")).toBe(1);
    expect(dayShift("2026-12-12T09:10:00+02:00", "2026-12-12T09:40:00+01:00")).toBe(0);
  });

  it("formats calendar dates without shifting them", () => {
    expect(formatDay("2026-12-12", "en", "long")).toBe("12 Dec 2026");
    expect(formatDay("2026-12-12T00:30:00+05:00", "en", "short")).toBe("12 Dec");
  });

  it("says how far an instant is", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(formatFromNow("2026-11-22T11:00:00Z", "en", now)).toBe("in 23 hours");
    expect(formatFromNow("2026-11-21T11:30:00Z", "en", now)).toBe("30 minutes ago");
    expect(formatFromNow("2026-11-25T12:00:00Z", "en", now)).toBe("in 4 days");
    expect(formatFromNow("2026-11-22T11:00:00Z", "ua", now)).toBe("через 23 години");
  });

  it("writes instants in the interface language, to the second for audit trails", () => {
    const instant = "2026-11-24T08:00:07Z";
    expect(formatInstant(instant, "en")).toMatch(/^24 Nov 2026, \d\d:\d\d$/);
    expect(formatInstant(instant, "en", { seconds: true })).toMatch(/^24 Nov 2026, \d\d:\d\d:07$/);
    expect(formatInstant(instant, "ua", { seconds: true })).toMatch(/^24 лист\. 2026 р\., \d\d:\d\d:07$/);
  });

  it("splits durations and clock times", () => {
    expect(durationParts(125)).toEqual({ h: 2, m: "05" });
    expect(clockTime(450)).toBe("07:30");
    expect(clockTime(1440)).toBe("24:00");
  });

  it("counts ages in whole years up to the day", () => {
    expect(ageOn("2014-12-13", "2026-12-12")).toBe(11);
    expect(ageOn("2014-12-12", "2026-12-12")).toBe(12);
    expect(shiftDay("2024-02-29", 1)).toBe("2024-03-01");
    expect(shiftDay("2026-01-31", 0, -2)).toBe("2024-01-31");
  });
});
