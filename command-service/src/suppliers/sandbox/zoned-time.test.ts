import { describe, expect, it } from "@jest/globals";
import { addDays, formatLocal, isoDate, localDate, localToUtc, offsetMinutes } from "./zoned-time.ts";

describe("wall-clock time at airports", () => {
  it("given Kyiv in summer and winter, then the offsets are +3 and +2 hours", () => {
    expect(offsetMinutes("Europe/Kyiv", Date.UTC(2025, 5, 1, 12))).toBe(180);
    expect(offsetMinutes("Europe/Kyiv", Date.UTC(2025, 0, 15, 12))).toBe(120);
    expect(offsetMinutes("America/New_York", Date.UTC(2025, 0, 15, 12))).toBe(-300);
    expect(offsetMinutes("Asia/Kathmandu", Date.UTC(2025, 0, 15, 12))).toBe(345);
  });

  it("given a local departure time, when converted to UTC and back, then the local time and offset are kept", () => {
    const utc = localToUtc("Europe/Warsaw", "2025-06-01", 7 * 60 + 15);
    expect(new Date(utc).toISOString()).toBe("2025-06-01T05:15:00.000Z");
    expect(formatLocal("Europe/Warsaw", utc)).toBe("2025-06-01T07:15:00+02:00");
    expect(formatLocal("America/New_York", utc)).toBe("2025-06-01T01:15:00-04:00");
  });

  it("given the night Europe moves its clocks back, then the same wall time an hour apart has two offsets", () => {
    expect(formatLocal("Europe/Warsaw", Date.UTC(2025, 9, 26, 0, 30))).toBe("2025-10-26T02:30:00+02:00");
    expect(formatLocal("Europe/Warsaw", Date.UTC(2025, 9, 26, 1, 30))).toBe("2025-10-26T02:30:00+01:00");
  });

  it("given a time inside the spring-forward gap, then it moves forward by the gap", () => {
    const utc = localToUtc("Europe/Warsaw", "2025-03-30", 2 * 60 + 30);
    expect(formatLocal("Europe/Warsaw", utc)).toBe("2025-03-30T03:30:00+02:00");
  });

  it("given an instant late in the UTC day, then the local date east of UTC is the next day", () => {
    expect(localDate("Asia/Tokyo", Date.UTC(2025, 11, 31, 20))).toBe("2026-01-01");
    expect(localDate("America/Los_Angeles", Date.UTC(2026, 0, 1, 5))).toBe("2025-12-31");
  });

  it("given calendar arithmetic without Date, then it agrees with Date across leap years and centuries", () => {
    for (let ms = Date.UTC(1999, 0, 1); ms < Date.UTC(2101, 0, 1); ms += 86_400_000 * 7 + 3_600_000) {
      expect(isoDate(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
    }
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
  });
});
