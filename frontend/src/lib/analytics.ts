/**
 * Product analytics (seed spec, sections 1 and 9). Every call lands in an in-memory queue; a vendor SDK would
 * drain it once the page supplies a key. No key is configured yet, so nothing leaves the browser.
 */

export const PLATFORM = "Site";
export const SESSION_REPLAY_SAMPLE_RATE = 0.1;
export const SESSION_REPLAY_DELAY_MS = 200;

export type AnalyticsProps = Record<string, string | number | boolean | null>;

export type AnalyticsEntry =
  | { kind: "track"; event: string; props: AnalyticsProps; userId?: string }
  | { kind: "identify"; userId: string | null }
  | { kind: "set"; props: AnalyticsProps }
  | { kind: "setOnce"; props: AnalyticsProps }
  | { kind: "unset"; names: string[] }
  | { kind: "sessionReplay"; sampleRate: number };

interface AnalyticsState {
  key: string | null;
  started: boolean;
  userId: string | null;
  /** Used for the next event only, then dropped (e.g. tracking a sign-in before the session knows the user). */
  nextEventUserId: string | null;
  queue: AnalyticsEntry[];
  replayTimer: ReturnType<typeof setTimeout> | null;
}

const state: AnalyticsState = {
  key: null,
  started: false,
  userId: null,
  nextEventUserId: null,
  queue: [],
  replayTimer: null,
};

export function analyticsKeyFromPage(doc: Document = document): string | null {
  const content = doc.querySelector<HTMLMetaElement>('meta[name="analytics-key"]')?.content.trim();
  return content ? content : null;
}

/** Starts analytics once per page; session replay joins after a short delay so it never slows the first paint. */
export function startAnalytics(key: string | null = analyticsKeyFromPage()): void {
  if (state.started) return;
  state.started = true;
  state.key = key;
  state.replayTimer = setTimeout(() => {
    state.replayTimer = null;
    state.queue.push({ kind: "sessionReplay", sampleRate: SESSION_REPLAY_SAMPLE_RATE });
  }, SESSION_REPLAY_DELAY_MS);
}

export function track(event: string, props: AnalyticsProps = {}): void {
  const userId = state.nextEventUserId ?? state.userId ?? undefined;
  state.nextEventUserId = null;
  state.queue.push({
    kind: "track",
    event,
    props: { ...props, platform: PLATFORM },
    ...(userId === undefined ? {} : { userId }),
  });
}

export function identify(userId: string | null): void {
  state.userId = userId;
  state.queue.push({ kind: "identify", userId });
}

/** The next tracked event carries this user id; later events go back to the identified user. */
export function setCustomUserIdForNextEvent(userId: string): void {
  state.nextEventUserId = userId;
}

export function setUserProperties(props: AnalyticsProps): void {
  state.queue.push({ kind: "set", props });
}

export function setUserPropertiesOnce(props: AnalyticsProps): void {
  state.queue.push({ kind: "setOnce", props });
}

export function unsetUserProperties(...names: string[]): void {
  state.queue.push({ kind: "unset", names });
}

export function analyticsQueue(): readonly AnalyticsEntry[] {
  return state.queue;
}

export function isAnalyticsStarted(): boolean {
  return state.started;
}

export function analyticsKey(): string | null {
  return state.key;
}

/** For tests: forget everything, as on a fresh page. */
export function resetAnalytics(): void {
  if (state.replayTimer) clearTimeout(state.replayTimer);
  Object.assign(state, {
    key: null,
    started: false,
    userId: null,
    nextEventUserId: null,
    queue: [],
    replayTimer: null,
  });
}
