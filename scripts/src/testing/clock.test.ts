import { describe, expect, it, jest } from "@jest/globals";
import { clearOfUtcMidnight } from "./clock.ts";

describe("clearOfUtcMidnight", () => {
  it("waits past midnight when the day has less than the margin left, and not at all otherwise", async () => {
    jest.useFakeTimers({ now: Date.parse("2026-11-24T23:59:50Z") });
    try {
      let done = false;
      const waiting = clearOfUtcMidnight(30_000).then(() => {
        done = true;
      });
      await jest.advanceTimersByTimeAsync(10_000);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(1_000);
      await waiting;
      expect(new Date().toISOString()).toBe("2026-11-25T00:00:01.000Z");

      jest.setSystemTime(Date.parse("2026-11-25T12:00:00Z"));
      await clearOfUtcMidnight(30_000);
      expect(new Date().toISOString()).toBe("2026-11-25T12:00:00.000Z");
    } finally {
      jest.useRealTimers();
    }
  });
});
