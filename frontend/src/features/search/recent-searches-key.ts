/** Where this browser keeps its recent searches; a module of its own so the route can look without loading zod. */
export const RECENT_SEARCHES_KEY = "skyward.recent-searches";

/** Whether any recent search is kept (the page will then show their cities at once). */
export function hasRecentSearches(): boolean {
  try {
    const stored = window.localStorage.getItem(RECENT_SEARCHES_KEY);
    return stored !== null && stored !== "[]";
  } catch {
    return false;
  }
}
