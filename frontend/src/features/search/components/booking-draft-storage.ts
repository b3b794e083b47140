import type { PassengerCounts } from "@skyward/contracts/offers";
import { type BookingDraft, draftFor } from "./booking-draft.ts";

// The booking form's draft lives in sessionStorage (this tab only: passenger data does not outlive it), so a reload
// of the booking form's address gives the agent back what they typed.
const keyOf = (fareId: string) => `skyward.booking-draft.${fareId}`;

/** A draft kept in this tab for its fare, when it still fits the searched passengers. */
function storedDraft(fareId: string, counts: PassengerCounts): BookingDraft | null {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(keyOf(fareId)) ?? "null") as BookingDraft | null;
    const fresh = draftFor(counts);
    const fits =
      stored !== null &&
      Array.isArray(stored.passengers) &&
      stored.passengers.length === fresh.passengers.length &&
      stored.passengers.every((passenger, i) => passenger?.type === fresh.passengers[i]?.type) &&
      typeof stored.contacts?.email === "string" &&
      typeof stored.contacts?.phone === "string";
    return fits ? stored : null;
  } catch {
    return null;
  }
}

/** What the form opens with: the kept draft, else an empty one for the searched passengers. */
export function initialDraft(fareId: string, counts: PassengerCounts): BookingDraft {
  return storedDraft(fareId, counts) ?? draftFor(counts);
}

/** Keeps the draft as typed so far. */
export function keepDraft(fareId: string, draft: BookingDraft): void {
  try {
    window.sessionStorage.setItem(keyOf(fareId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft only lives on this page.
  }
}

/** Drops a fare's draft once it is booked. */
export function forgetDraft(fareId: string): void {
  try {
    window.sessionStorage.removeItem(keyOf(fareId));
  } catch {
    // Nothing stored.
  }
}
