import { z } from "zod";
import { Email } from "./ids.ts";
import { IsoDate } from "./offers.ts";
import { LoyaltyNumber, LoyaltyNumbers, SsrCode, SsrCodes, unique } from "./passenger-services.ts";
import { PassengerName, TravelDocument } from "./supplier.ts";

/**
 * Travellers the agency keeps (issue 23, item 4): per company, names, date of birth, gender, travel documents,
 * contacts, loyalty numbers per carrier and standing special-service requests. Their personal fields are stored in
 * events sealed with a key of their own (crypto-shredding, item 6): erasure destroys the key.
 */

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
  /** By name (the default), or the most recently saved or changed first (the booking form's recent travellers). */
  order: z.enum(["name", "recent"]).default("name"),
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

/**
 * A traveller as of a moment (`GET /audit/as_of/traveller/{id}`): where it belongs and its personal fields then,
 * readable while its key is kept; once erased, every moment shows `personal_erased` and no personal field.
 */
export const TravellerAsOf = z.union([
  z.object({ status: z.literal("none") }),
  z.object({
    status: z.enum(["kept", "erased"]),
    traveller_id: z.string(),
    company_id: z.string(),
    agency_id: z.string(),
    demo_owner: z.string().nullable(),
    /** The traveller is erased now: its key is gone, so no moment of its past can be read. */
    personal_erased: z.boolean(),
    personal: TravellerProfile.nullable(),
  }),
]);
export type TravellerAsOf = z.infer<typeof TravellerAsOf>;

/** POST /travellers, PUT /travellers/{id}, DELETE /travellers/{id}. */
export const TravellerAnswer = z.object({ traveller: Traveller, position: z.string().nullable() });
/** GET /travellers/{id}. */
export const TravellerDetails = z.object({ traveller: Traveller });
/** GET /travellers. */
export const TravellerList = z.object({ data: z.array(Traveller) });
