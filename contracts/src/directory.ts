import { z } from "zod";
import { Email, Language } from "./ids.ts";
import { UserType } from "./metadata.ts";
import { Currency } from "./money.ts";

/** Events of agencies (partners), companies and users: who works where, with which role. */
export const AgencyRegistered = z.object({
  agency_id: z.string(),
  name: z.string().min(1).max(200),
});
export const CompanyRegistered = z.object({
  company_id: z.string(),
  agency_id: z.string(),
  name: z.string().min(1).max(200),
  currency: Currency,
  shared_bookings: z.boolean(),
});
export const UserRegistered = z.object({
  user_id: z.string(),
  email: Email,
  first_name: z.string().min(1).max(100),
  last_name: z.string().min(1).max(100),
  user_type: UserType,
  phone: z.string().max(32).nullable(),
  language: Language,
  agency_id: z.string().nullable(),
  company_ids: z.array(z.string()),
  demo_user: z.boolean(),
  /** How the user signs in: by e-mail code, or by password (set separately, never stored in an event). */
  auth_method: z.enum(["otp", "password"]),
});
export type AgencyRegistered = z.infer<typeof AgencyRegistered>;
export type CompanyRegistered = z.infer<typeof CompanyRegistered>;
export type UserRegistered = z.infer<typeof UserRegistered>;

export const AgencyRow = z.object({ id: z.string(), name: z.string(), companies_count: z.number().int() });
export const CompanyRow = z.object({
  id: z.string(),
  agency_id: z.string(),
  name: z.string(),
  currency: Currency,
  shared_bookings: z.boolean(),
});
export type AgencyRow = z.infer<typeof AgencyRow>;
export type CompanyRow = z.infer<typeof CompanyRow>;
