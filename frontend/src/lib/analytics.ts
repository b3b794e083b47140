/**
 * Product analytics (seed spec, sections 1 and 9) through the Amplitude browser SDK and its session-replay plugin.
 * The page supplies the key and, optionally, the server URL (a self-hosted or EU endpoint) in meta tags the server
 * fills from ANALYTICS_KEY and ANALYTICS_SERVER_URL. Without a key the SDK is never loaded and nothing leaves the
 * browser. The SDK is loaded after the first render, in one chunk with what starts it (analytics-sdk.ts), so it never
 * weighs on the first load: this module, part of every first page, holds the calls made before it is in.
 */
import type * as Amplitude from "@amplitude/analytics-browser";
import { type AnalyticsConfig, PLATFORM } from "./analytics-config.ts";

export type AnalyticsProps = Record<string, string | number | boolean | null>;

type Sdk = typeof Amplitude;
type Call = (sdk: Sdk) => void;

interface AnalyticsState {
  config: AnalyticsConfig | null;
  sdk: Sdk | null;
  /** Calls made before the SDK has loaded, made on it once it has (dropped for good when there is no key). */
  pending: Call[];
  loading: Promise<void> | null;
}

const state: AnalyticsState = {
  config: null,
  sdk: null,
  pending: [],
  loading: null,
};

const metaContent = (doc: Document, name: string) => {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  // A page served without the server's substitution (the Vite dev server) carries the placeholder.
  return content && !/^__[A-Z_]+__$/.test(content) ? content : null;
};

export function analyticsKeyFromPage(doc: Document = document): string | null {
  return metaContent(doc, "analytics-key");
}

export function analyticsConfigFromPage(doc: Document = document): AnalyticsConfig {
  const rate = Number(metaContent(doc, "analytics-replay-sample-rate") ?? Number.NaN);
  return {
    key: analyticsKeyFromPage(doc),
    serverUrl: metaContent(doc, "analytics-server-url"),
    replaySampleRate: rate >= 0 && rate <= 1 ? rate : null,
  };
}

function call(fn: Call): void {
  if (state.sdk) fn(state.sdk);
  else if (state.config === null || state.config.key) state.pending.push(fn);
}

/** Starts analytics once per page, after the first render (when the browser is idle after the load event). */
export function startAnalytics(config: AnalyticsConfig = analyticsConfigFromPage()): void {
  if (state.config) return;
  state.config = config;
  const { key } = config;
  if (!key) {
    state.pending = [];
    return;
  }
  const begin = () => {
    state.loading ??= import("./analytics-sdk.ts")
      .then(({ loadAnalytics }) => loadAnalytics({ ...config, key }))
      .then((sdk) => {
        state.sdk = sdk;
        for (const fn of state.pending.splice(0)) fn(sdk);
      })
      .catch(() => {
        // An SDK that cannot load (blocked, offline) leaves the product as it is: analytics is never in the way.
        state.pending = [];
      });
  };
  const idle = () =>
    "requestIdleCallback" in window
      ? window.requestIdleCallback(begin, { timeout: 2000 })
      : setTimeout(begin, 500);
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}

export interface TrackedEvent {
  kind: "track";
  event: string;
  props: AnalyticsProps;
}
const LOG_SIZE = 50;
const log: TrackedEvent[] = [];

/** The last events this page tracked, as handed to the SDK (for tests: the SDK keeps its own queue). */
export function analyticsQueue(): readonly TrackedEvent[] {
  return log;
}

/**
 * Events carry the user only as the SDK knows them (the Skyward id once signed in, the anonymous device id before)
 * and never personal data: a property that reads as an e-mail address is dropped rather than sent (analytics is
 * never in the way of the product, so no error either).
 */
export function track(event: string, props: AnalyticsProps = {}): void {
  const safe = Object.entries(props).filter(([, value]) => !(typeof value === "string" && EMAIL.test(value)));
  // The platform as an event property too: what the spec names, readable in any analytics tool's event view.
  const withPlatform = { ...Object.fromEntries(safe), platform: PLATFORM };
  log.push({ kind: "track", event, props: withPlatform });
  if (log.length > LOG_SIZE) log.shift();
  call((sdk) => sdk.track(event, withPlatform));
}

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;

export function identify(userId: string | null): void {
  call((sdk) => sdk.setUserId(userId ?? undefined));
}

function identifyWith(change: (identify: Amplitude.Identify) => void): void {
  call((sdk) => {
    const identify = new sdk.Identify();
    change(identify);
    sdk.identify(identify);
  });
}

export function setUserProperties(props: AnalyticsProps): void {
  identifyWith((i) => {
    for (const [name, value] of Object.entries(props)) if (value !== null) i.set(name, value);
  });
}

export function setUserPropertiesOnce(props: AnalyticsProps): void {
  identifyWith((i) => {
    for (const [name, value] of Object.entries(props)) if (value !== null) i.setOnce(name, value);
  });
}

export function unsetUserProperties(...names: string[]): void {
  identifyWith((i) => {
    for (const name of names) i.unset(name);
  });
}

/**
 * The main funnel, named from the calls that complete each step (seed spec section 7): tracked by the API client
 * on success, so every screen and machine that makes the call counts without knowing about analytics.
 */
const FUNNEL: readonly [RegExp, string][] = [
  [/^\/offers$/, "Search"],
  [/^\/bookings$/, "Book"],
  [/^\/bookings\/issue$/, "Issue"],
  [/^\/orders\/[^/]+\/refund_requests\/confirm$/, "Refund"],
  [/^\/orders\/[^/]+\/flights_change_requests\/confirm$/, "Exchange"],
];

export function trackApiSuccess(method: string, path: string): void {
  if (method !== "POST") return;
  const route = path.split("?")[0] ?? "";
  // Nobody is known before signing in: the event belongs to the SDK's anonymous device id, never the e-mail typed.
  if (route === "/start_sign_in") {
    track("Start sign in");
    return;
  }
  const step = FUNNEL.find(([pattern]) => pattern.test(route));
  if (step) track(step[1]);
}

/**
 * Who uses the page, as analytics knows them: identified by their Skyward id with their role, language and company
 * (the first language they ever used set once); signed out, the company is unset and events are anonymous again.
 */
export function analyticsSession(
  account: {
    skyward_id: string;
    user_type: string;
    language: string;
    company: { name: string } | null;
  } | null,
): void {
  if (!account) {
    unsetUserProperties("company");
    identify(null);
    return;
  }
  identify(account.skyward_id);
  setUserProperties({ user_type: account.user_type, language: account.language });
  if (account.company) setUserProperties({ company: account.company.name });
  else unsetUserProperties("company");
  setUserPropertiesOnce({ first_language: account.language });
}

/** For tests: forget everything, as on a fresh page. */
export function resetAnalytics(): void {
  Object.assign(state, { config: null, sdk: null, pending: [], loading: null });
  log.length = 0;
}

/** For tests: what waits for the SDK. */
export function pendingAnalyticsCalls(): number {
  return state.pending.length;
}
