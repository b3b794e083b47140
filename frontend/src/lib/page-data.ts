import type { BookingList } from "@skyward/contracts/bookings";

/**
 * What the server wrote into the page for this browser's caller (scripts/src/page-data.ts): who is signed in (null:
 * nobody), the header bell's notifications, and on the bookings page its first list and balances, so the first load
 * asks none of them (issue 27: ≤ 10 requests). Absent when the page came from elsewhere (the dev server): the page
 * then asks as before. Each part is taken once: after the first load, the queries follow the server.
 */
export interface PageData {
  session?: unknown;
  notifications?: unknown;
  /** On the bookings page: the balances beside the list. */
  balances?: unknown;
  /** On the bookings page: the list it opens on, and which list and page of it (`GET /bookings`' answer). */
  bookings?: { list: BookingList; page: number; per_page: number; answer: unknown };
}

let written: PageData | null = null;
try {
  written = JSON.parse(document.getElementById("skyward-page-data")?.textContent || "null");
} catch {
  // An unreadable element: the page asks, as a page without one does.
}

/** A part of the page's data, the first time it is asked for (undefined after that, or when the page has none). */
export function takeWritten<K extends keyof PageData>(key: K): PageData[K] {
  const part = written?.[key];
  if (written) delete written[key];
  return part;
}
