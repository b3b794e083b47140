import type { BookOfferRequest } from "@skyward/contracts/bookings";
import type { PassengerCounts, PassengerType } from "@skyward/contracts/offers";
import type { LoyaltyNumber, SsrCode } from "@skyward/contracts/passenger-services";
import { BookingContacts, BookingPassenger, TravelDocument } from "@skyward/contracts/supplier";
import { z } from "zod";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { ageOn } from "../../../lib/date-format.ts";
import { isOneOf } from "../../../lib/one-of.ts";

export type Gender = "M" | "F";
export type DocumentType = "passport" | "national_id";

export interface PassengerDraft {
  type: PassengerType;
  gender: Gender | null;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  document: {
    type: DocumentType;
    number: string;
    issuing_country: string | null;
    nationality: string | null;
    expires_on: string | null;
  };
  /** From a kept traveller (issue 23): the loyalty number the flights' carriers take, and their standing SSRs. */
  services?: { loyalty: LoyaltyNumber | null; ssrs: SsrCode[] };
}

// A type, not an interface: the form library takes it as a record of values.
export type BookingDraft = {
  passengers: PassengerDraft[];
  contacts: { email: string; phone: string };
};

/** Keys of the search catalogue's `booking.errors`: the draft schema's issues carry them as their message. */
export const DRAFT_ERROR_KEYS = [
  "required",
  "latin",
  "email",
  "phone",
  "birth_future",
  "adult_age",
  "child_age",
  "infant_age",
  "document_number",
  "expired",
] as const;
export type DraftErrorKey = (typeof DRAFT_ERROR_KEYS)[number];
export const isDraftErrorKey = isOneOf(DRAFT_ERROR_KEYS);

/** A field's problem: found here (a catalogue key), or told by the server (its words). */
export type FieldError = { key: DraftErrorKey } | { text: string };
/** Field paths as the server's pointers name them, with dots: "passengers.0.document.number", "contacts.email". */
export type FieldErrors = Record<string, FieldError>;

const emptyPassenger = (type: PassengerType): PassengerDraft => ({
  type,
  gender: null,
  first_name: "",
  last_name: "",
  date_of_birth: null,
  document: { type: "passport", number: "", issuing_country: null, nationality: null, expires_on: null },
});

/** One passenger per searched seat and lap, adults first: the types are fixed by the search. */
export function draftFor(counts: PassengerCounts): BookingDraft {
  return {
    passengers: [
      ...Array.from({ length: counts.adults }, () => emptyPassenger("adult")),
      ...Array.from({ length: counts.children }, () => emptyPassenger("child")),
      ...Array.from({ length: counts.infants }, () => emptyPassenger("infant")),
    ],
    contacts: { email: "", phone: "" },
  };
}

// The formats are the contracts' own (what the server accepts); the form only tidies what was typed first.
const PassengerNameFormat = BookingPassenger.shape.first_name;
const DocumentNumberFormat = TravelDocument.shape.number;
const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

const cleanName = (name: string) => name.trim().replace(/\s+/g, " ");
const cleanDocumentNumber = (number: string) => number.replace(/[\s-]/g, "").toUpperCase();
/** "+38 (050) 111-22-33" → "+380501112233". */
export const cleanPhone = (phone: string) => phone.replace(/[\s().-]/g, "");

const AGE_RULES: Record<PassengerType, { ok: (age: number) => boolean; key: DraftErrorKey }> = {
  adult: { ok: (age) => age >= 12, key: "adult_age" },
  child: { ok: (age) => age >= 2 && age < 12, key: "child_age" },
  infant: { ok: (age) => age >= 0 && age < 2, key: "infant_age" },
};

export interface TripDates {
  departureDate: string;
  lastDate: string;
  today: string;
}

/**
 * The draft as the agent fills it, checked for what the server would refuse: required fields, Latin names, the
 * e-mail and phone formats (the contracts' schemas), each passenger's age for the type searched on the day of
 * departure, and documents that outlast the trip. Each issue's path is the field's ("passengers.0.last_name") and
 * its message the catalogue key that says what to do.
 */
export function bookingDraftSchema(trip: TripDates) {
  return z.custom<BookingDraft>().superRefine((draft, ctx) => {
    const fail = (path: (string | number)[], key: DraftErrorKey) =>
      ctx.addIssue({ code: "custom", path, message: key });
    draft.passengers.forEach((passenger, index) => {
      const at = (...field: string[]) => ["passengers", index, ...field];
      if (!passenger.gender) fail(at("gender"), "required");
      for (const field of ["first_name", "last_name"] as const) {
        const name = cleanName(passenger[field]);
        if (!name) fail(at(field), "required");
        else if (!accepts(PassengerNameFormat, name)) fail(at(field), "latin");
      }
      const born = passenger.date_of_birth;
      if (!born) fail(at("date_of_birth"), "required");
      else if (born > trip.today) fail(at("date_of_birth"), "birth_future");
      else if (!AGE_RULES[passenger.type].ok(ageOn(born, trip.departureDate)))
        fail(at("date_of_birth"), AGE_RULES[passenger.type].key);
      const document = passenger.document;
      const number = cleanDocumentNumber(document.number);
      if (!number) fail(at("document", "number"), "required");
      else if (!accepts(DocumentNumberFormat, number)) fail(at("document", "number"), "document_number");
      if (!document.issuing_country) fail(at("document", "issuing_country"), "required");
      if (!document.nationality) fail(at("document", "nationality"), "required");
      if (!document.expires_on) fail(at("document", "expires_on"), "required");
      else if (document.expires_on < trip.lastDate) fail(at("document", "expires_on"), "expired");
    });
    const email = draft.contacts.email.trim();
    if (!email) fail(["contacts", "email"], "required");
    else if (!accepts(BookingContacts.shape.email, email)) fail(["contacts", "email"], "email");
    const phone = cleanPhone(draft.contacts.phone);
    if (!phone) fail(["contacts", "phone"], "required");
    else if (!accepts(BookingContacts.shape.phone, phone)) fail(["contacts", "phone"], "phone");
  });
}

/** The draft checked (bookingDraftSchema): its errors by field, or the tidy request it makes. */
export function validateDraft(
  draft: BookingDraft,
  trip: TripDates,
): { errors: FieldErrors; request: Omit<BookOfferRequest, "search_result_id" | "fare_id"> | null } {
  const checked = bookingDraftSchema(trip).safeParse(draft);
  if (!checked.success) {
    const errors: FieldErrors = {};
    for (const issue of checked.error.issues)
      if (isDraftErrorKey(issue.message)) errors[issue.path.join(".")] ??= { key: issue.message };
    return { errors, request: null };
  }
  return {
    errors: {},
    request: {
      passengers: draft.passengers.map((p) => ({
        type: p.type,
        gender: p.gender as Gender,
        first_name: cleanName(p.first_name),
        last_name: cleanName(p.last_name),
        date_of_birth: p.date_of_birth as string,
        document: {
          type: p.document.type,
          number: cleanDocumentNumber(p.document.number),
          issuing_country: p.document.issuing_country as string,
          nationality: p.document.nationality as string,
          expires_on: p.document.expires_on as string,
        },
        ...(p.services?.loyalty ? { loyalty: p.services.loyalty } : {}),
        ...(p.services && p.services.ssrs.length > 0 ? { ssrs: p.services.ssrs } : {}),
      })),
      contacts: { email: draft.contacts.email.trim(), phone: cleanPhone(draft.contacts.phone) },
    },
  };
}

/**
 * The server's 400/422 errors by field (`/passengers/0/last_name` → `passengers.0.last_name`); those that name no
 * field of the form (`/passengers`, a sold-out fare) are the general ones.
 */
export function serverErrors(
  error: unknown,
  draft: BookingDraft,
): { fields: FieldErrors; general: string[] } {
  const fields: FieldErrors = {};
  const general: string[] = [];
  if (!(error instanceof ApiError)) return { fields, general };
  for (const item of error.errors) {
    const path = item.source?.pointer?.replace(/^\//, "").replaceAll("/", ".");
    if (path && isFieldOf(draft, path)) fields[path] ??= { text: item.detail ?? item.title };
    else general.push(errorText(item));
  }
  return { fields, general };
}

function isFieldOf(draft: BookingDraft, path: string): boolean {
  let node: unknown = draft;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object" || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return node === null || typeof node !== "object";
}
