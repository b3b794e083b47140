import { z } from "zod";
import { MAX_SEATS, MAX_SLICES } from "./journey.ts";
import { Currency, Money } from "./money.ts";

/** IATA airport code, e.g. KBP; lower case input is accepted and upper-cased. */
export const AirportCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "must be a 3-letter IATA airport code");
export type AirportCode = z.infer<typeof AirportCode>;

/** IATA airline designator, e.g. LO, W6, 9U. */
export const CarrierCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^(?:[A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])$/, "must be a 2-character IATA airline code");
export type CarrierCode = z.infer<typeof CarrierCode>;

export const IsoDate = z.iso.date();
/** A wall-clock time at an airport with its UTC offset, e.g. 2025-06-01T07:15:00+03:00. */
export const LocalDateTime = z.iso.datetime({ offset: true });
/** An instant, always UTC (Z). */
export const Instant = z.iso.datetime();

export const Cabin = z.enum(["economy", "premium_economy", "business", "first"]);
export type Cabin = z.infer<typeof Cabin>;

export const PassengerType = z.enum(["adult", "child", "infant"]);
export type PassengerType = z.infer<typeof PassengerType>;

export { MAX_SEATS } from "./journey.ts";

export const PassengerCounts = z
  .object({
    adults: z.number().int().min(1).max(MAX_SEATS),
    children: z
      .number()
      .int()
      .min(0)
      .max(MAX_SEATS - 1)
      .default(0),
    infants: z.number().int().min(0).max(MAX_SEATS).default(0),
  })
  .superRefine((p, ctx) => {
    if (p.adults + p.children > MAX_SEATS) {
      ctx.addIssue({
        code: "custom",
        path: ["children"],
        message: `adults and children together: at most ${MAX_SEATS} seats`,
      });
    }
    if (p.infants > p.adults) {
      ctx.addIssue({ code: "custom", path: ["infants"], message: "at most one infant per adult" });
    }
  });
export type PassengerCounts = z.infer<typeof PassengerCounts>;

/** POST /offers: one-way without return_date, round trip with it. */
export const SearchRequest = z
  .object({
    origin: AirportCode,
    destination: AirportCode,
    departure_date: IsoDate,
    return_date: IsoDate.optional(),
    passengers: PassengerCounts,
    cabin: Cabin.default("economy"),
    carriers: z.array(CarrierCode).min(1).max(9).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.origin === r.destination) {
      ctx.addIssue({ code: "custom", path: ["destination"], message: "must differ from the origin" });
    }
    if (r.return_date !== undefined && r.return_date < r.departure_date) {
      ctx.addIssue({
        code: "custom",
        path: ["return_date"],
        message: "must not be before the departure date",
      });
    }
  });
export type SearchRequest = z.infer<typeof SearchRequest>;

export { MAX_SLICES } from "./journey.ts";

/** One slice of a journey: an origin, a destination (airport or city code, e.g. LON) and the day it leaves. */
export const SearchSlice = z
  .object({ origin: AirportCode, destination: AirportCode, departure_date: IsoDate })
  .superRefine((s, ctx) => {
    if (s.origin === s.destination) {
      ctx.addIssue({ code: "custom", path: ["destination"], message: "must differ from the origin" });
    }
  });
export type SearchSlice = z.infer<typeof SearchSlice>;

/** POST /offers with `slices`: a multi-city or open-jaw journey, each slice leaving no earlier than the one before. */
export const MultiCitySearchRequest = z
  .object({
    slices: z.array(SearchSlice).min(1).max(MAX_SLICES, `at most ${MAX_SLICES} slices`),
    passengers: PassengerCounts,
    cabin: Cabin.default("economy"),
    carriers: z.array(CarrierCode).min(1).max(9).optional(),
    origin: z.undefined({ error: "give either slices or origin, destination and dates" }).optional(),
    destination: z.undefined({ error: "give either slices or origin, destination and dates" }).optional(),
    departure_date: z.undefined({ error: "give either slices or origin, destination and dates" }).optional(),
    return_date: z.undefined({ error: "give either slices or origin, destination and dates" }).optional(),
  })
  .superRefine((r, ctx) => {
    r.slices.forEach((slice, i) => {
      const before = r.slices[i - 1];
      if (before && slice.departure_date < before.departure_date) {
        ctx.addIssue({
          code: "custom",
          path: ["slices", i, "departure_date"],
          message: "must not be before the previous slice's date",
        });
      }
    });
  });
export type MultiCitySearchRequest = z.infer<typeof MultiCitySearchRequest>;

/** What POST /offers reads: the seed's one-pair shape, or slices. */
export const JourneySearchRequest = z.union([SearchRequest, MultiCitySearchRequest]);
export type JourneySearchRequest = SearchRequest | MultiCitySearchRequest;

/** The schema a body is read with: slices make it a multi-city search, so its errors name the slice fields. */
export const journeySearchSchema = (body: unknown) =>
  typeof body === "object" && body !== null && "slices" in body ? MultiCitySearchRequest : SearchRequest;

export { isMultiCity, searchSlices } from "./journey.ts";

export const AirportRef = z.object({
  code: AirportCode,
  name: z.string(),
  city: z.string(),
  country: z.string().length(2),
});
export type AirportRef = z.infer<typeof AirportRef>;

export const Equipment = z.object({ code: z.string(), name: z.string() });
export type Equipment = z.infer<typeof Equipment>;

/** One flight leg as the agent sees it: marketing carrier and number, local times with their offsets. */
export const Segment = z.object({
  id: z.string(),
  carrier: CarrierCode,
  carrier_name: z.string(),
  operating_carrier: CarrierCode,
  flight_number: z.string().regex(/^\d{1,4}$/),
  from: AirportRef,
  to: AirportRef,
  departure_at: LocalDateTime,
  arrival_at: LocalDateTime,
  duration_minutes: z.number().int().positive(),
  distance_km: z.number().int().positive(),
  equipment: Equipment,
  /** Technical stops without a change of aircraft. */
  stops: z.number().int().min(0),
  cabin: Cabin,
});
export type Segment = z.infer<typeof Segment>;

export const Connection = z.object({ airport: AirportCode, minutes: z.number().int().positive() });
export type Connection = z.infer<typeof Connection>;

/** A one-pair search flies out and back; a multi-city journey's later slices fly onward. */
export const Direction = z.enum(["outbound", "return", "onward"]);
export type Direction = z.infer<typeof Direction>;

/** The segments flown in one direction of the journey. */
export const Flight = z.object({
  id: z.string(),
  direction: Direction,
  segments: z.array(Segment).min(1),
  departure_at: LocalDateTime,
  arrival_at: LocalDateTime,
  /** Door to door: flying time plus connections. */
  duration_minutes: z.number().int().positive(),
  stops: z.number().int().min(0),
  connections: z.array(Connection),
});
export type Flight = z.infer<typeof Flight>;

export const FareFamilyCode = z.enum(["light", "standard", "flex"]);
export type FareFamilyCode = z.infer<typeof FareFamilyCode>;

export const BaggagePieces = z.object({
  pieces: z.number().int().min(0),
  weight_kg: z.number().int().min(0),
});
export type BaggagePieces = z.infer<typeof BaggagePieces>;

export const BaggageAllowance = z.object({
  checked: BaggagePieces,
  carry_on: BaggagePieces,
  personal_item: z.boolean(),
});
export type BaggageAllowance = z.infer<typeof BaggageAllowance>;

/** Whether a voluntary change or refund is allowed, and its fee per passenger. */
export const PenaltyRule = z.discriminatedUnion("allowed", [
  z.object({ allowed: z.literal(true), fee: Money }),
  z.object({ allowed: z.literal(false) }),
]);
export type PenaltyRule = z.infer<typeof PenaltyRule>;

/** ATPCO categories 31 (changes) and 33 (refunds) in spirit; fees are per passenger. */
export const FarePenalty = z.object({
  change_before_departure: PenaltyRule,
  change_after_departure: PenaltyRule,
  refund_before_departure: PenaltyRule,
  refund_after_departure: PenaltyRule,
});
export type FarePenalty = z.infer<typeof FarePenalty>;

/**
 * What a new fare gives up against the old one's rules before departure (an exchange offer shows it before the
 * agent confirms): the refund or the changes it no longer allows, or a fee higher than the old one (per passenger).
 */
export const FareLoss = z.discriminatedUnion("kind", [
  z.object({ kind: z.enum(["no_refund", "no_changes"]) }),
  z.object({ kind: z.enum(["refund_fee", "change_fee"]), fee: Money }),
]);
export type FareLoss = z.infer<typeof FareLoss>;

/** The losses of moving from the `old` fare rules to the `next` ones (empty when the new fare keeps them). */
export function fareLosses(old: FarePenalty, next: FarePenalty): FareLoss[] {
  const rules = [
    ["refund_before_departure", "no_refund", "refund_fee"],
    ["change_before_departure", "no_changes", "change_fee"],
  ] as const;
  return rules.flatMap(([rule, lost, dearer]): FareLoss[] => {
    const before = old[rule];
    const after = next[rule];
    if (!before.allowed) return [];
    if (!after.allowed) return [{ kind: lost }];
    const higher = after.fee.currency === before.fee.currency && after.fee.amount > before.fee.amount;
    return higher ? [{ kind: dearer, fee: after.fee }] : [];
  });
}

export const FareSegment = z.object({
  segment_id: z.string(),
  booking_class: z.string().regex(/^[A-Z]$/),
  fare_basis: z.string().regex(/^[A-Z0-9]{3,15}$/),
  cabin: Cabin,
  baggage: BaggageAllowance,
});
export type FareSegment = z.infer<typeof FareSegment>;

/** One passenger of a type: amounts are for one passenger, count says how many travel at that price. */
export const PassengerPrice = z.object({
  type: PassengerType,
  count: z.number().int().min(1),
  base_fare: Money,
  taxes: Money,
  total: Money,
});
export type PassengerPrice = z.infer<typeof PassengerPrice>;

/** What the supplier charges, before our markups and fees; totals cover every passenger. */
export const SupplierPrice = z.object({
  passengers: z.array(PassengerPrice).min(1),
  base_fare: Money,
  taxes: Money,
  total: Money,
});
export type SupplierPrice = z.infer<typeof SupplierPrice>;

/** The supplier price in the currency the fare is filed in, and the rate used to convert it (sale units per filed unit). */
export const OriginalPriceDetail = SupplierPrice.extend({ exchange_rate: z.string().regex(/^\d+(\.\d+)?$/) });
export type OriginalPriceDetail = z.infer<typeof OriginalPriceDetail>;

export const PassengerPriceDetail = z.object({
  type: PassengerType,
  count: z.number().int().min(1),
  base_fare: Money,
  taxes: Money,
  agency_markup: Money,
  company_markup: Money,
  transaction_fee: Money,
  total: Money,
});
export type PassengerPriceDetail = z.infer<typeof PassengerPriceDetail>;

/**
 * The price the agent sells at, line by line. Passenger lines are for one passenger of that type; the booking lines
 * are their sums times the counts plus any per-booking markup or fee, so total = base_fare + taxes + markups + fee.
 */
export const PriceDetail = z.object({
  passengers: z.array(PassengerPriceDetail).min(1),
  base_fare: Money,
  taxes: Money,
  agency_markup: Money,
  company_markup: Money,
  transaction_fee: Money,
  total: Money,
});
export type PriceDetail = z.infer<typeof PriceDetail>;

/** The spec's fare price: the booking total, its currency, and what one adult pays (perPass). */
export const FarePrice = z.object({
  amount: z.number().int(),
  currency: Currency,
  perPass: z.number().int(),
});
export type FarePrice = z.infer<typeof FarePrice>;

const fareFields = {
  fare_id: z.string(),
  validating_carrier: CarrierCode,
  family: FareFamilyCode,
  brand_name: z.string(),
  cabin: Cabin,
  fare_segments: z.array(FareSegment).min(1),
  penalty: FarePenalty,
  seats_left: z.number().int().min(1).max(MAX_SEATS),
  /** Sold against immediate payment (low-cost carriers): booking it issues the tickets at once. */
  instant_payment: z.boolean(),
};

/** A fare as the supplier prices it; pricing turns it into a `Fare` with our markups. */
export const SupplierFare = z.object({
  ...fareFields,
  price: SupplierPrice,
  original_price: OriginalPriceDetail,
});
export type SupplierFare = z.infer<typeof SupplierFare>;

/** A priced fare for the whole journey (both directions of a round trip). */
export const Fare = z.object({
  ...fareFields,
  price: FarePrice,
  price_detail: PriceDetail,
  original_price_detail: OriginalPriceDetail,
});
export type Fare = z.infer<typeof Fare>;

export const AncillaryType = z.enum(["checked_bag", "carry_on"]);
export type AncillaryType = z.infer<typeof AncillaryType>;

/** A catalogue item, sold per passenger and segment. */
export const AncillaryItem = z.object({
  ancillary_id: z.string(),
  type: AncillaryType,
  title: z.string(),
  pieces: z.number().int().min(1),
  weight_kg: z.number().int().positive(),
  segment_id: z.string(),
  passenger_types: z.array(PassengerType).min(1),
  price: Money,
});
export type AncillaryItem = z.infer<typeof AncillaryItem>;

/** One itinerary option: its flights (one per direction), the fares it can be sold at, and its ancillaries. */
export const SupplierOriginDestination = z.object({
  id: z.string(),
  flights: z.array(Flight).min(1).max(MAX_SLICES),
  fares: z.array(SupplierFare).min(1),
  ancillaries: z.array(AncillaryItem),
});
export type SupplierOriginDestination = z.infer<typeof SupplierOriginDestination>;

export const OriginDestination = SupplierOriginDestination.extend({ fares: z.array(Fare).min(1) });
export type OriginDestination = z.infer<typeof OriginDestination>;

export const SupplierSearchResult = z.object({
  id: z.string(),
  currency: Currency,
  origin_destinations: z.array(SupplierOriginDestination),
});
export type SupplierSearchResult = z.infer<typeof SupplierSearchResult>;

/** POST /offers response body. */
export const SearchResult = SupplierSearchResult.extend({ origin_destinations: z.array(OriginDestination) });
export type SearchResult = z.infer<typeof SearchResult>;
/** `POST /offers` answers the search result (kept for booking, filtering and ancillaries by its id). */
export const SearchResponse = z.object({ result: SearchResult });
export type SearchResponse = z.infer<typeof SearchResponse>;

/** A fare rule paragraph, numbered by its ATPCO category (5 advance purchase, 16 penalties, 31 changes, ...). */
export const FareRuleSection = z.object({
  category: z.number().int().min(1).max(50),
  title: z.string(),
  text: z.string(),
});
export type FareRuleSection = z.infer<typeof FareRuleSection>;

/**
 * One slice of a fare and the rules it is sold under. A multi-city fare is priced slice by slice, each in its own
 * family: an exchange of a slice pays that slice's change fee, a refund gives back each slice under its own rule.
 */
export const SliceFareRule = z.object({
  slice: z
    .number()
    .int()
    .min(0)
    .max(MAX_SLICES - 1),
  origin: z.string(),
  destination: z.string(),
  family: FareFamilyCode,
  brand_name: z.string(),
  penalty: FarePenalty,
});
export type SliceFareRule = z.infer<typeof SliceFareRule>;

export const FareRules = z.object({
  fare_id: z.string(),
  validating_carrier: CarrierCode,
  family: FareFamilyCode,
  brand_name: z.string(),
  /** The whole fare's rules; a multi-city fare's slices each have their own (`slices`). */
  penalty: FarePenalty,
  fare_segments: z.array(FareSegment).min(1),
  sections: z.array(FareRuleSection).min(1),
  /** Per slice, in order: its family and rules (the same throughout for a one-way trip or a round trip). */
  slices: z.array(SliceFareRule).min(1).max(MAX_SLICES),
});
export type FareRules = z.infer<typeof FareRules>;
/** `GET /offers/{fare_id}/fare_rules` */
export const FareRulesResponse = z.object({ data: FareRules });
export type FareRulesResponse = z.infer<typeof FareRulesResponse>;

/** GET offers/{fare_id}/details: the chosen fare with its itinerary, ancillaries and rules. */
export const SupplierOfferDetails = z.object({
  search_result_id: z.string(),
  origin_destination_id: z.string(),
  flights: z.array(Flight).min(1).max(MAX_SLICES),
  fare: SupplierFare,
  ancillaries: z.array(AncillaryItem),
  fare_rules: FareRules,
});
export type SupplierOfferDetails = z.infer<typeof SupplierOfferDetails>;

export const OfferDetails = SupplierOfferDetails.extend({ fare: Fare });
export type OfferDetails = z.infer<typeof OfferDetails>;
/** `GET /offers/{fare_id}/details` */
export const OfferDetailsResponse = z.object({ data: OfferDetails });
export type OfferDetailsResponse = z.infer<typeof OfferDetailsResponse>;
