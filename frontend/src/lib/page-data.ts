/**
 * What the server wrote into the page for this browser's caller (scripts/src/page-data.ts): who is signed in (null:
 * nobody), the header bell's notifications and the bookings page's balances, so the first load asks neither (issue 27: ≤ 10 requests). Absent
 * when the page came from elsewhere (the dev server): the page then asks as before. Read once: after the first
 * load, the queries follow the server.
 */
export interface PageData {
  session?: unknown;
  notifications?: unknown;
  /** On the bookings page: the balances beside the list. */
  balances?: unknown;
}

const PAGE_DATA_ID = "skyward-page-data";

let taken = false;

/** The page's data, the first time it is asked for; null after that, or when the page has none (or an unreadable one). */
export function takePageData(): PageData | null {
  if (taken) return null;
  taken = true;
  const element = document.getElementById(PAGE_DATA_ID);
  element?.remove();
  try {
    const data: unknown = element?.textContent ? JSON.parse(element.textContent) : null;
    return data !== null && typeof data === "object" && "session" in data ? (data as PageData) : null;
  } catch {
    return null;
  }
}
