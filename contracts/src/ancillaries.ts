import { z } from "zod";
import { Money } from "./money.ts";
import { PassengerType } from "./offers.ts";

/**
 * Ancillaries sold per passenger and segment (checked bags, cabin bags, seats), their seat maps, and the lines a
 * booking keeps of them: added to a held booking (priced into the issue), or bought after issue as EMDs.
 */

export const AncillaryKind = z.enum(["checked_bag", "carry_on", "seat"]);
export type AncillaryKind = z.infer<typeof AncillaryKind>;

/** `?type=` of the catalogue calls: `bag` is the spec's word for a checked bag. */
export const AncillaryCatalogueQuery = z.object({
  type: z
    .enum(["bag", "checked_bag", "carry_on", "seat"])
    .transform((t) => (t === "bag" ? "checked_bag" : t))
    .optional(),
  search_result_id: z.string().min(1).max(100).optional(),
});

export const SeatZone = z.enum(["standard", "extra_legroom", "front"]);
export type SeatZone = z.infer<typeof SeatZone>;

/** One item of a supplier's catalogue: a bag, or a seat of a zone (the seat map says which seats). */
export const SupplierAncillary = z.object({
  ancillary_id: z.string(),
  type: AncillaryKind,
  title: z.string(),
  segment_id: z.string(),
  passenger_types: z.array(PassengerType).min(1),
  price: Money,
  pieces: z.number().int().min(1).nullable(),
  weight_kg: z.number().int().positive().nullable(),
  seat_zone: SeatZone.nullable(),
});
export type SupplierAncillary = z.infer<typeof SupplierAncillary>;

/** A catalogue item as the agent buys it: the airline's price and our markups on it. */
export const PricedAncillary = SupplierAncillary.extend({
  supplier_price: Money,
  agency_markup: Money,
  company_markup: Money,
});
export type PricedAncillary = z.infer<typeof PricedAncillary>;

/** A seat as the letter of its column and its row ("12A"). */
export const SeatNumber = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[1-9]\d{0,1}[A-K]$/, "must be a seat such as 12A");

export const SeatStatus = z.enum(["free", "paid", "occupied"]);
export type SeatStatus = z.infer<typeof SeatStatus>;

export const Seat = z.object({
  seat: z.string(),
  column: z.string(),
  status: SeatStatus,
  zone: SeatZone,
  /** The catalogue item to buy this seat with; null when it cannot be taken. */
  ancillary_id: z.string().nullable(),
  price: Money.nullable(),
  window: z.boolean(),
  aisle: z.boolean(),
  /** The passenger of this booking (index) who holds it, if any. */
  passenger_index: z.number().int().min(0).nullable(),
});
export type Seat = z.infer<typeof Seat>;

/** A cabin's layout: its columns left to right, an empty string for an aisle, and its rows of seats. */
export const SeatMap = z.object({
  segment_id: z.string(),
  flight: z.string(),
  aircraft: z.string(),
  cabin: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.object({ row: z.number().int().min(1), exit: z.boolean(), seats: z.array(Seat) })),
});
export type SeatMap = z.infer<typeof SeatMap>;

export const SeatMapQuery = z.object({ segment: z.string().min(1).max(200) });

/** POST /bookings/{locator}/ancillaries */
export const AddAncillariesRequest = z.object({
  items: z
    .array(
      z.object({
        ancillary_id: z.string().min(1).max(200),
        passenger_index: z.number().int().min(0).max(8),
        seat: SeatNumber.optional(),
      }),
    )
    .min(1)
    .max(36),
});
export type AddAncillariesRequest = z.infer<typeof AddAncillariesRequest>;

/** POST /bookings/{locator}/emds/{emd_number}/refund has no body; the number is the path's. */
export const EmdNumberParam = z.string().regex(/^\d{13}$/);

/**
 * A booking's ancillary line: `held` on a held booking (charged with the tickets), `pending` while the airline
 * issues its EMD asynchronously, `issued` with its EMD (or `assigned`: a free seat needs none), `refunded`, `voided`.
 */
export const AncillaryLineStatus = z.enum(["held", "pending", "issued", "assigned", "refunded", "voided"]);
export type AncillaryLineStatus = z.infer<typeof AncillaryLineStatus>;

export const AncillaryLine = z.object({
  line_id: z.string(),
  ancillary_id: z.string(),
  type: AncillaryKind,
  title: z.string(),
  segment_id: z.string(),
  passenger_index: z.number().int().min(0),
  seat: z.string().nullable(),
  /** A bag's weight and a seat's zone, so every screen names the item in its own language. */
  weight_kg: z.number().int().positive().nullable().default(null),
  seat_zone: SeatZone.nullable().default(null),
  /** What the agent pays: the airline's price plus our markups. */
  price: Money,
  supplier_price: Money,
  emd_number: z.string().nullable(),
  status: AncillaryLineStatus,
});
export type AncillaryLine = z.infer<typeof AncillaryLine>;

/*
 * The answers of the ancillary commands. The locator is checked as bookings.ts's Locator where the request comes in;
 * this module stays below bookings.ts (which imports its lines), so the answers name it as text.
 */
/** `POST /bookings/{locator}/ancillaries`: held with the booking (paid at issue), or EMDs charged to the balance. */
export const AddAncillariesResponse = z.object({
  locator: z.string(),
  /** The booking's status after it. */
  status: z.string(),
  lines: z.array(AncillaryLine),
  total: Money,
  /** What the company balance was charged now; null before issue (paid with the tickets). */
  charged: Money.nullable(),
  /** True while the airline still issues some EMDs (a job confirms them). */
  async_emd_issue: z.boolean(),
  position: z.string().nullable(),
});
export type AddAncillariesResponse = z.infer<typeof AddAncillariesResponse>;
/** `POST /bookings/{locator}/emds/{emd_number}/refund`: what the airline returned and the balance was credited. */
export const EmdRefundResponse = z.object({
  locator: z.string(),
  emd_number: z.string(),
  refunded: Money.nullable(),
  credited: Money.nullable(),
  position: z.string().nullable(),
});
export type EmdRefundResponse = z.infer<typeof EmdRefundResponse>;
/** The priced catalogue of an offer or a booking (`GET .../ancillaries`). */
export const AncillaryCatalogueResponse = z.object({ data: z.array(PricedAncillary) });
export type AncillaryCatalogueResponse = z.infer<typeof AncillaryCatalogueResponse>;
/** `GET /bookings/{locator}/seat_map` */
export const SeatMapResponse = z.object({ data: SeatMap });
export type SeatMapResponse = z.infer<typeof SeatMapResponse>;

/** What the airline answered for one line it took: its EMD number, or none yet (asynchronous) or at all (free seat). */
export const AncillaryTaken = z.object({
  ancillary_id: z.string(),
  passenger_index: z.number().int().min(0),
  seat: z.string().nullable(),
  emd_number: z.string().nullable(),
  status: z.enum(["held", "pending", "issued", "assigned"]),
});
export type AncillaryTaken = z.infer<typeof AncillaryTaken>;
