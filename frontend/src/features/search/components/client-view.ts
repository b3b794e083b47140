import { useSyncExternalStore } from "react";

/**
 * The client view: the agent turns the screen to the client, and prices show without the agency's markups and fees
 * as lines of their own (they stay in the totals). Kept in this browser across pages and reloads.
 */
const KEY = "skyward.client-view";
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return window.localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

let current = typeof window === "undefined" ? false : read();

export function setClientView(on: boolean): void {
  current = on;
  try {
    if (on) window.localStorage.setItem(KEY, "1");
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: the choice holds for this page only.
  }
  for (const listener of listeners) listener();
}

export function useClientView(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => false,
  );
}
