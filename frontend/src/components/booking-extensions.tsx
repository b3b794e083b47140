import type { BookingDetails } from "@skyward/contracts/bookings";
import { createContext, type ReactNode, useContext } from "react";

/**
 * What other features add to the bookings screens, handed in by the route (features do not import each other):
 * the after-sales actions and history of a booking, its "what can I do now", notices above the list.
 */
export interface BookingExtensions {
  /** Loads the code of the parts below, asked for when a booking is opened (beside the booking's own screen). */
  preload?: () => Promise<unknown>;
  /** Above the bookings list (the ticketing-deadline notices). */
  notices?: ReactNode;
  /** Beside the booking's own actions (refund, exchange), each with its dialog. */
  actions?: (booking: BookingDetails) => ReactNode;
  /** Under the actions: what can be done now, as the server decided it. */
  now?: (booking: BookingDetails) => ReactNode;
  /** After the tickets: refunds and supplier operations with their money. */
  history?: (booking: BookingDetails) => ReactNode;
  /** After the tickets: bags and seats with their EMDs, and the pickers to add them. */
  ancillaries?: (booking: BookingDetails) => ReactNode;
}

const BookingExtensionsContext = createContext<BookingExtensions>({});

export const BookingExtensionsProvider = BookingExtensionsContext.Provider;

export const useBookingExtensions = (): BookingExtensions => useContext(BookingExtensionsContext);
