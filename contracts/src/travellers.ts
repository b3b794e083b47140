import { z } from "zod";
import { Email } from "./ids.ts";
import { IsoDate } from "./offers.ts";
import { PassengerName, TravelDocument } from "./supplier.ts";

/**
 * Travellers the agency keeps (issue 23, item 4): per company, names, date of birth, gender, travel documents,
 * contacts, loyalty numbers per carrier and standing special-service requests. Their personal fields are stored in
 * events sealed with a key of their own (crypto-shredding, item 6): erasure destroys the key.
 */

/** Airline alliances, for the loyalty numbers a carrier accepts (its own, or a partner's in the same alliance). */
export const Alliance = z.enum(["star_alliance", "skyteam", "oneworld"]);
export type Alliance = z.infer<typeof Alliance>;

/** The carriers whose loyalty numbers we keep, with the alliance each belongs to (null: none). */
export const LOYALTY_CARRIERS: Readonly<Record<string, Alliance | null>> = {
  A3: "star_alliance",
  AA: "oneworld",
  AC: "star_alliance",
  AF: "skyteam",
  AY: "oneworld",
  AZ: "star_alliance",
  BA: "oneworld",
  BT: null,
  DL: "skyteam",
  EI: null,
  EK: null,
  EW: null,
  EY: null,
  FZ: null,
  G9: null,
  HV: null,
  HY: null,
  IB: "oneworld",
  J2: null,
  JU: null,
  KC: null,
  KL: "skyteam",
  LH: "star_alliance",
  LO: "star_alliance",
  LS: null,
  LX: "star_alliance",
  LY: null,
  OS: "star_alliance",
  PC: null,
  PQ: null,
  PS: null,
  QR: "oneworld",
  RO: "skyteam",
  SK: "skyteam",
  SN: "star_alliance",
  SQ: "star_alliance",
  TK: "star_alliance",
  TP: "star_alliance",
  UA: "star_alliance",
  VY: null,
};

/** Whether a carrier (the flight's marketing carrier) accepts a loyalty number of `programme`: its own or an alliance partner's. */
export function loyaltyAccepted(carrier: string, programme: string): boolean {
  if (carrier === programme) return true;
  const alliance = LOYALTY_CARRIERS[carrier];
  return alliance != null && LOYALTY_CARRIERS[programme] === alliance;
}

export const LoyaltyNumber = z.object({
  carrier: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => code in LOYALTY_CARRIERS, "is not a carrier we know"),
  number: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{4,20}$/, "must be 4-20 letters or digits"),
});
export type LoyaltyNumber = z.infer<typeof LoyaltyNumber>;

/** IATA special-meal codes. */
export const MEAL_SSRS = [
  "AVML",
  "BBML",
  "BLML",
  "CHML",
  "DBML",
  "FPML",
  "GFML",
  "HNML",
  "KSML",
  "LCML",
  "LFML",
  "LSML",
  "MOML",
  "NLML",
  "RVML",
  "SFML",
  "VGML",
  "VJML",
  "VLML",
  "VOML",
] as const;
/** IATA assistance codes: wheelchairs, sight, hearing, an unaccompanied minor, a passenger needing help. */
export const ASSISTANCE_SSRS = ["WCHR", "WCHS", "WCHC", "BLND", "DEAF", "DPNA", "MAAS", "UMNR"] as const;
export const SsrCode = z.enum([...MEAL_SSRS, ...ASSISTANCE_SSRS], {
  error: "must be an IATA special-service code such as VGML or WCHR",
});
export type SsrCode = z.infer<typeof SsrCode>;

/** A passenger's loyalty numbers (one per carrier) and standing SSRs (at most one meal). */
const unique = <T>(values: readonly T[]) => new Set(values).size === values.length;
export const LoyaltyNumbers = z
  .array(LoyaltyNumber)
  .max(10)
  .refine((numbers) => unique(numbers.map((n) => n.carrier)), "must name each carrier once");
export const SsrCodes = z
  .array(SsrCode)
  .max(6)
  .refine(unique, "must name each code once")
  .refine(
    (codes) => codes.filter((c) => (MEAL_SSRS as readonly string[]).includes(c)).length <= 1,
    "may hold one meal",
  );

export const TravellerContacts = z.object({
  email: Email.optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "must be an international number such as +380441234567")
    .optional(),
});

/** Everything personal about a traveller: what is sealed in the traveller's events. */
export const TravellerProfile = z.object({
  first_name: PassengerName,
  last_name: PassengerName,
  date_of_birth: IsoDate,
  gender: z.enum(["M", "F"]),
  documents: z
    .array(TravelDocument)
    .max(5)
    .refine((docs) => unique(docs.map((d) => `${d.type}:${d.number}`)), "must list each document once")
    .default([]),
  contacts: TravellerContacts.default({}),
  loyalty: LoyaltyNumbers.default([]),
  ssrs: SsrCodes.default([]),
});
export type TravellerProfile = z.infer<typeof TravellerProfile>;

/** POST /travellers. An agent's company is its own when it has one; others name it. */
export const CreateTravellerRequest = z.object({
  company_id: z.string().min(1).max(100).optional(),
  traveller: TravellerProfile,
  /** Save even though a traveller of the same name and date of birth exists (a different person). */
  allow_duplicate: z.boolean().optional(),
});
export type CreateTravellerRequest = z.infer<typeof CreateTravellerRequest>;

/** PUT /travellers/{id}: the whole profile, as it is to be kept. */
export const UpdateTravellerRequest = z.object({ traveller: TravellerProfile });

/** GET /travellers: find by name or document number as the agent types; one company, or every one in scope. */
export const TravellersQuery = z.object({
  q: z.string().trim().max(60).optional(),
  company_id: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/** Personal fields sealed with the traveller's own key (AES-256-CBC): unreadable once the key is destroyed. */
export const SealedPersonalData = z.object({
  alg: z.literal("aes-256-cbc"),
  iv: z.base64(),
  ciphertext: z.base64(),
});
export type SealedPersonalData = z.infer<typeof SealedPersonalData>;

export const TravellerRegistered = z.object({
  traveller_id: z.string(),
  company_id: z.string(),
  agency_id: z.string(),
  /** The demo user who keeps it in its sandbox; null for a real traveller of the company. */
  demo_owner: z.string().nullable(),
  personal: SealedPersonalData,
});
export const TravellerUpdated = z.object({ traveller_id: z.string(), personal: SealedPersonalData });
/** Right to erasure: the key is destroyed with it, so the sealed fields of every event before stay unreadable. */
export const TravellerErased = z.object({ traveller_id: z.string() });

/** The traveller stream's events (`traveller-{id}`). */
export const TravellerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("TravellerRegistered"), data: TravellerRegistered }),
  z.object({ type: z.literal("TravellerUpdated"), data: TravellerUpdated }),
  z.object({ type: z.literal("TravellerErased"), data: TravellerErased }),
]);
export type TravellerEvent = z.infer<typeof TravellerEvent>;
export const TRAVELLER_EVENT_TYPES = TravellerEvent.options.map((o) => o.shape.type.value);

export type TravellerCommand =
  | {
      type: "RegisterTraveller";
      traveller_id: string;
      company_id: string;
      agency_id: string;
      demo_owner: string | null;
      personal: SealedPersonalData;
    }
  /** `personal` is null only when the key is already gone: decided as an erased traveller's change. */
  | { type: "UpdateTraveller"; personal: SealedPersonalData | null }
  | { type: "EraseTraveller" };

/** A traveller as readers see it; an erased one is a placeholder whose personal fields are all null. */
export const Traveller = z.object({
  id: z.string(),
  company_id: z.string(),
  agency_id: z.string(),
  erased: z.boolean(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  date_of_birth: IsoDate.nullable(),
  gender: z.enum(["M", "F"]).nullable(),
  documents: z.array(TravelDocument),
  contacts: TravellerContacts,
  loyalty: z.array(LoyaltyNumber),
  ssrs: z.array(SsrCode),
  updated_at: z.string(),
});
export type Traveller = z.infer<typeof Traveller>;

/** POST /travellers, PUT /travellers/{id}, DELETE /travellers/{id}. */
export const TravellerAnswer = z.object({ traveller: Traveller, position: z.string().nullable() });
/** GET /travellers/{id}. */
export const TravellerDetails = z.object({ traveller: Traveller });
/** GET /travellers. */
export const TravellerList = z.object({ data: z.array(Traveller) });
