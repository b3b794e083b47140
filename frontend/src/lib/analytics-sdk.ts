/**
 * What starts the Amplitude SDK and its session replay (analytics.ts loads it after the first render, only when the
 * page supplies a key): with the SDK and the replay's privacy settings in a chunk of their own, none of it is part of
 * a first load.
 */
import * as sdk from "@amplitude/analytics-browser";
import { type AnalyticsConfig, PLATFORM } from "./analytics-config.ts";
import { REPLAY_PRIVACY, sendScrubbedReplay } from "./replay-privacy.ts";

export const SESSION_REPLAY_SAMPLE_RATE = 0.1;
export const SESSION_REPLAY_DELAY_MS = 200;

/** Amplitude's own EU host: the SDK's EU zone sends events, replays and replay settings to Amplitude's EU hosts. */
const AMPLITUDE_EU = /(^|\.)eu\.amplitude\.com$/;

/**
 * Where events, session replays and the replay's settings go. No server URL: Amplitude's US endpoints. Amplitude's
 * EU endpoint: the EU zone. Any other server (a self-hosted or first-party proxy) takes all three on its origin, at
 * Amplitude's paths, so nothing of a replay goes to Amplitude unless the proxy forwards it.
 */
export function analyticsEndpoints(serverUrl: string | null): {
  serverUrl?: string;
  serverZone?: "EU";
  trackServerUrl?: string;
  configServerUrl?: string;
} {
  if (!serverUrl) return {};
  const url = new URL(serverUrl);
  if (AMPLITUDE_EU.test(url.hostname)) return { serverUrl, serverZone: "EU" };
  return {
    serverUrl,
    trackServerUrl: `${url.origin}/sessions/v2/track`,
    configServerUrl: `${url.origin}/config`,
  };
}

/** Every event says it comes from the Site platform, whatever sent it (tracks, identifies, the SDK's own). */
const sitePlatform = {
  name: "skyward-platform",
  type: "enrichment" as const,
  async execute<E extends { platform?: string }>(event: E): Promise<E> {
    event.platform = PLATFORM;
    return event;
  },
};

/** Starts the SDK and answers it once started; session replay joins SESSION_REPLAY_DELAY_MS later, sampled. */
export async function loadAnalytics(config: AnalyticsConfig & { key: string }): Promise<typeof sdk> {
  sdk.add(sitePlatform);
  const { trackServerUrl, configServerUrl, ...endpoints } = analyticsEndpoints(config.serverUrl);
  await sdk.init(config.key, {
    ...endpoints,
    autocapture: false,
    remoteConfig: { fetchRemoteConfig: false },
    flushIntervalMillis: 1000,
  }).promise;
  setTimeout(() => {
    void import("@amplitude/plugin-session-replay-browser").then(({ sessionReplayPlugin }) =>
      sdk.add(
        sessionReplayPlugin({
          sampleRate: config.replaySampleRate ?? SESSION_REPLAY_SAMPLE_RATE,
          privacyConfig: REPLAY_PRIVACY,
          handleSendEvents: sendScrubbedReplay,
          ...(trackServerUrl ? { trackServerUrl } : {}),
          ...(configServerUrl ? { configServerUrl } : {}),
        }),
      ),
    );
  }, SESSION_REPLAY_DELAY_MS);
  return sdk;
}
