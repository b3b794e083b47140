/**
 * What analytics.ts (in every first load) and analytics-sdk.ts (loaded after the first render) both use, in a module
 * of its own so that neither imports the other back.
 */
export const PLATFORM = "Site";

export interface AnalyticsConfig {
  key: string | null;
  serverUrl: string | null;
  /** Test runs only (the server refuses it in production): the share of sessions replayed instead of 10 %. */
  replaySampleRate?: number | null;
}
