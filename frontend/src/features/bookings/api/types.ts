import type { BookingList, BookingStatus } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import type { Fare, Flight, PriceDetail } from "@skyward/contracts/offers";
import type { BookingContacts, BookingPassenger, Ticket } from "@skyward/contracts/supplier";

/**
 * The query service's booking rows (`GET /bookings`, `GET /bookings/{locator}`). Contracts has no schema for these
 * answers yet, so their shape is written down here, built from the contract types they are made of.
 */
export type ProviderStatus = "confirmed" | "in_progress" | "failed";

export interface BookingRow {
  locator: string;
  status: BookingStatus;
  list: BookingList;
  fake_booking: boolean;
  provider_status: ProviderStatus;
  route: string;
  carrier: string;
  departure_at: string | null;
  passenger_names: string;
  ticket_numbers: string;
  price: Money;
  time_limit: string | null;
  created_at: string;
  company_id: string;
  agent_id: string;
}

export interface BookingListPage {
  data: BookingRow[];
  meta: { page: number; per_page: number; total: number; list: BookingList };
}

export interface BookingComment {
  text: string;
  at: string;
  by: string;
}

export interface BookingDetails {
  locator: string;
  status: BookingStatus;
  list: BookingList;
  cancel_before: string | null;
  price: Money;
  price_detail: PriceDetail;
  /** The airline's new price after a refused issue, waiting for the agent to accept it. */
  pending_price: { price: Money; price_detail: PriceDetail } | null;
  time_limit: string | null;
  provider_status: ProviderStatus;
  fake_booking: boolean;
  tickets_present: boolean;
  tickets: Ticket[];
  async_emd_issue: boolean;
  error: string | null;
  fare: {
    fare_id: string;
    carrier: string;
    route: string;
    departure_at: string;
    fare: Fare;
    flights: Flight[];
  };
  passengers: BookingPassenger[];
  contacts: BookingContacts;
  comments: BookingComment[];
  issued_at: string | null;
  void_until: string | null;
  created_at: string;
  company_id: string;
  agent_id: string;
}
