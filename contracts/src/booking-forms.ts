import { z } from "zod";
import { CommentRequest } from "./bookings.ts";
import { BookingContacts } from "./supplier.ts";

/**
 * The booking drawer's forms (contacts, comments), built on the request schemas: each issue's message is a catalogue
 * key (the booking form's `booking.errors`) rather than the server's English, and one issue per field.
 */

/** "+38 (050) 111-22-33" → "+380501112233": the separators people type, which the contract's format has not. */
export const cleanPhone = (phone: string) => phone.replace(/[\s().-]/g, "");

/** A field tidied as typed, required, then held to the contract's format (`wrong` names the format's message). */
const typed = (tidy: (value: string) => string, format: z.ZodType, wrong: string) =>
  z
    .string()
    .transform(tidy)
    .pipe(
      z
        .string()
        .min(1, { error: "required", abort: true })
        .refine((value) => format.safeParse(value).success, { error: wrong }),
    );

/** The traveller's contacts as typed; parses to what `POST /bookings/modify` accepts as `contacts`. */
export const ContactsForm = z.object({
  email: typed((email) => email.trim(), BookingContacts.shape.email, "email"),
  phone: typed(cleanPhone, BookingContacts.shape.phone, "phone"),
});
export type ContactsFormValues = z.input<typeof ContactsForm>;

/** A note on a booking, held to the comment request's rule (trimmed, at most 2000 characters). */
export const CommentForm = z.object({
  comment: typed((comment) => comment.trim(), CommentRequest.shape.comment, "too_long"),
});
export type CommentFormValues = z.input<typeof CommentForm>;

/** The booking page's itinerary e-mail: an address, an optional note, the mail's language. */
export const ItineraryMailForm = z.object({
  to: typed((email) => email.trim(), BookingContacts.shape.email, "email"),
  note: z
    .string()
    .transform((note) => note.trim())
    .pipe(z.string().max(1000, { error: "too_long" })),
  language: z.enum(["en", "ua", "pl", "fr", "es"]),
});
export type ItineraryMailFormValues = z.input<typeof ItineraryMailForm>;
