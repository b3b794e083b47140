import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import {
  analyticsKeyFromPage,
  analyticsQueue,
  identify,
  resetAnalytics,
  SESSION_REPLAY_DELAY_MS,
  setCustomUserIdForNextEvent,
  setUserProperties,
  setUserPropertiesOnce,
  startAnalytics,
  track,
  unsetUserProperties,
} from "./analytics.ts";

beforeEach(() => resetAnalytics());
afterEach(() => {
  jest.useRealTimers();
});

describe("analytics", () => {
  it("marks every event as coming from the Site platform", () => {
    track("Change language", { language: "pl" });
    expect(analyticsQueue()).toEqual([
      { kind: "track", event: "Change language", props: { language: "pl", platform: "Site" } },
    ]);
  });

  it("uses a custom user id for one event only, then the identified user again", () => {
    identify("agent-1");
    setCustomUserIdForNextEvent("prospect@example.com");
    track("Sign in requested");
    track("Sign in completed");
    const tracked = analyticsQueue().filter((entry) => entry.kind === "track");
    expect(tracked.map((entry) => entry.userId)).toEqual(["prospect@example.com", "agent-1"]);
  });

  it("sets, sets once and unsets user properties", () => {
    setUserProperties({ user_type: "Agent" });
    setUserPropertiesOnce({ first_seen_language: "ua" });
    unsetUserProperties("company");
    expect(analyticsQueue()).toEqual([
      { kind: "set", props: { user_type: "Agent" } },
      { kind: "setOnce", props: { first_seen_language: "ua" } },
      { kind: "unset", names: ["company"] },
    ]);
  });

  it("adds session replay at a 10% sample rate 200 ms after start", () => {
    jest.useFakeTimers();
    startAnalytics(null);
    jest.advanceTimersByTime(SESSION_REPLAY_DELAY_MS - 1);
    expect(analyticsQueue()).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(analyticsQueue()).toEqual([{ kind: "sessionReplay", sampleRate: 0.1 }]);
  });

  it("reads the key the page supplies, and none when the page leaves it empty", () => {
    const page = document.implementation.createHTMLDocument();
    expect(analyticsKeyFromPage(page)).toBeNull();
    page.head.innerHTML = '<meta name="analytics-key" content="" />';
    expect(analyticsKeyFromPage(page)).toBeNull();
    page.head.innerHTML = '<meta name="analytics-key" content="k-123" />';
    expect(analyticsKeyFromPage(page)).toBe("k-123");
  });
});
