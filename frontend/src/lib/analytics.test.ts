import { beforeEach, describe, expect, it } from "@jest/globals";
import {
  analyticsConfigFromPage,
  analyticsKeyFromPage,
  analyticsQueue,
  identify,
  pendingAnalyticsCalls,
  resetAnalytics,
  startAnalytics,
  track,
  trackApiSuccess,
} from "./analytics.ts";
import { analyticsEndpoints } from "./analytics-sdk.ts";
import { scrubTypedParameters } from "./replay-privacy.ts";

// What reaches the SDK (and the collector) is checked end to end in e2e/product-analytics.e2e.ts.
beforeEach(() => resetAnalytics());

describe("analytics", () => {
  it("marks every event as coming from the Site platform", () => {
    track("Change language", { language: "pl" });
    expect(analyticsQueue()).toEqual([
      { kind: "track", event: "Change language", props: { language: "pl", platform: "Site" } },
    ]);
  });

  it("drops a property that reads as an e-mail address rather than send it", () => {
    track("Change language", { language: "pl", who: "Agent@Dnipro.test" });
    expect(analyticsQueue()).toEqual([
      { kind: "track", event: "Change language", props: { language: "pl", platform: "Site" } },
    ]);
  });

  it("keeps nothing for the SDK when the page supplies no key", () => {
    startAnalytics({ key: null, serverUrl: null });
    track("Search");
    identify("agent-1");
    expect(pendingAnalyticsCalls()).toBe(0);
  });

  it("names the funnel step of each successful call", () => {
    trackApiSuccess("POST", "/offers");
    trackApiSuccess("POST", "/bookings");
    trackApiSuccess("POST", "/bookings/issue");
    trackApiSuccess("POST", "/orders/ABC234/refund_requests/confirm");
    trackApiSuccess("POST", "/orders/ABC234/flights_change_requests/confirm");
    trackApiSuccess("POST", "/orders/ABC234/refund_requests/create");
    trackApiSuccess("GET", "/bookings");
    expect(analyticsQueue().map((e) => e.event)).toEqual(["Search", "Book", "Issue", "Refund", "Exchange"]);
  });

  it("tracks the start of a sign-in with nothing of the person signing in: no e-mail as user id or property", () => {
    trackApiSuccess("POST", "/start_sign_in");
    expect(analyticsQueue()).toEqual([
      { kind: "track", event: "Start sign in", props: { platform: "Site" } },
    ]);
  });

  it("reads the key and server URL the page supplies, and none when left empty or unfilled", () => {
    const page = document.implementation.createHTMLDocument();
    expect(analyticsKeyFromPage(page)).toBeNull();
    page.head.innerHTML = '<meta name="analytics-key" content="" />';
    expect(analyticsKeyFromPage(page)).toBeNull();
    page.head.innerHTML = '<meta name="analytics-key" content="__ANALYTICS_KEY__" />';
    expect(analyticsKeyFromPage(page)).toBeNull();
    page.head.innerHTML =
      '<meta name="analytics-key" content="k-123" /><meta name="analytics-server-url" content="https://api.eu.amplitude.com/2/httpapi" />';
    expect(analyticsConfigFromPage(page)).toEqual({
      key: "k-123",
      serverUrl: "https://api.eu.amplitude.com/2/httpapi",
      replaySampleRate: null,
    });
    page.head.innerHTML +=
      '<meta name="analytics-replay-sample-rate" content="1" /><meta name="analytics-replay-sample-rate" content="" />';
    expect(analyticsConfigFromPage(page).replaySampleRate).toBe(1);
    page.head.innerHTML =
      '<meta name="analytics-replay-sample-rate" content="__ANALYTICS_REPLAY_SAMPLE_RATE__" />';
    expect(analyticsConfigFromPage(page).replaySampleRate).toBeNull();
    page.head.innerHTML = '<meta name="analytics-replay-sample-rate" content="7" />';
    expect(analyticsConfigFromPage(page).replaySampleRate).toBeNull();
  });

  it("sends session replays where the events go: Amplitude's zone, or the proxy's origin at Amplitude's paths", () => {
    expect(analyticsEndpoints(null)).toEqual({});
    expect(analyticsEndpoints("https://api.eu.amplitude.com/2/httpapi")).toEqual({
      serverUrl: "https://api.eu.amplitude.com/2/httpapi",
      serverZone: "EU",
    });
    expect(analyticsEndpoints("https://metrics.skyward.example:8443/amp/2/httpapi")).toEqual({
      serverUrl: "https://metrics.skyward.example:8443/amp/2/httpapi",
      trackServerUrl: "https://metrics.skyward.example:8443/sessions/v2/track",
      configServerUrl: "https://metrics.skyward.example:8443/config",
    });
  });

  it("writes what a user typed into an address (the sales filter) as *** in a replay, and leaves the rest", () => {
    const recorded = JSON.stringify([
      JSON.stringify({ type: 4, data: { href: "http://127.0.0.1:3000/sales?text=KVITCHENKO%20Z&page=2" } }),
      JSON.stringify({
        payload: { href: "https://skyward.example/sales?date_from=2026-11-01&text=FN123456" },
      }),
      JSON.stringify({ type: 4, data: { href: "http://127.0.0.1:3000/bookings?locator=ABC234" } }),
    ]);
    const scrubbed = scrubTypedParameters(recorded);
    expect(scrubbed).not.toMatch(/KVITCHENKO|FN123456/);
    expect(scrubbed).toContain("/sales?text=***&page=2");
    expect(scrubbed).toContain("date_from=2026-11-01&text=***");
    expect(scrubbed).toContain("/bookings?locator=ABC234");
  });
});
