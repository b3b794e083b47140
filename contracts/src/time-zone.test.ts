import { describe, expect, it, jest } from "@jest/globals";
import { isTimeZone, TimeZone, wallClockDate, zonedTime } from "./time-zone.ts";

describe("agency time zones", () => {
  it("given an instant, then its wall clock follows the zone's offset on that date, summer time included", () => {
    expect(zonedTime(new Date("2026-11-28T21:45:10Z"), "Europe/Kyiv")).toBe("2026-11-28 23:45 Europe/Kyiv");
    expect(zonedTime(new Date("2026-07-01T21:45:10Z"), "Europe/Kyiv")).toBe("2026-07-02 00:45 Europe/Kyiv");
    expect(wallClockDate(new Date("2026-03-29T00:59:59Z"), "Europe/Warsaw").toISOString()).toBe(
      "2026-03-29T01:59:59.000Z",
    );
    expect(wallClockDate(new Date("2026-03-29T01:00:00Z"), "Europe/Warsaw").toISOString()).toBe(
      "2026-03-29T03:00:00.000Z",
    );
    expect(zonedTime(new Date("2026-11-28T21:45:10Z"), "UTC")).toBe("2026-11-28 21:45 UTC");
  });

  it("given instants over a year in zones with summer time and odd offsets, then every wall clock is the one Intl writes", () => {
    const start = Date.parse("2026-01-01T00:00:00Z");
    for (const zone of ["Europe/Kyiv", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"])
      for (let i = 0; i < 500; i++) {
        const at = new Date(start + i * 63_000_000 + ((i * 7919) % 3600) * 1000);
        const expected = at.toLocaleString("sv-SE", { timeZone: zone, hourCycle: "h23" });
        expect(wallClockDate(at, zone).toISOString().slice(0, 19).replace("T", " ")).toBe(expected);
      }
  });

  it("given a zone checked again and again, then Intl is asked once (every agency fold checks it; issue 26)", () => {
    const formatters = jest.spyOn(Intl, "DateTimeFormat");
    try {
      for (let i = 0; i < 100; i++) expect(TimeZone.parse("Asia/Kathmandu")).toBe("Asia/Kathmandu");
      expect(formatters).toHaveBeenCalledTimes(1);
      // An invalid name is refused each time and kept nowhere.
      for (let i = 0; i < 3; i++) expect(isTimeZone("Mars/Olympus")).toBe(false);
      expect(formatters).toHaveBeenCalledTimes(4);
    } finally {
      formatters.mockRestore();
    }
  });

  it("given a name that is no IANA zone, then it is refused", () => {
    expect(TimeZone.safeParse("America/New_York").success).toBe(true);
    for (const bad of ["Mars/Olympus", "", "Europe/Kyiv; DROP", "x".repeat(65)])
      expect(TimeZone.safeParse(bad).success).toBe(false);
  });
});
