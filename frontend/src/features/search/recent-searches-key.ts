/**
 * Where this browser keeps a user's recent searches (each user their own list, so a shared computer never shows one
 * agent another's trips); a module of its own so the route can look without loading zod.
 */
export const recentSearchesKey = (userId: string) => `skyward.recent-searches.${userId}`;

/** Whether any recent search is kept, by anyone (the page will then show their cities at once). */
export function hasRecentSearches(): boolean {
  try {
    for (let index = 0; index < window.localStorage.length; index++) {
      const key = window.localStorage.key(index);
      if (key?.startsWith("skyward.recent-searches.") && window.localStorage.getItem(key) !== "[]")
        return true;
    }
    return false;
  } catch {
    return false;
  }
}
