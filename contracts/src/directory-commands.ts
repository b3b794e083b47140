import { z } from "zod";
import { AgencyFlag } from "./directory.ts";
import { Currency, Money } from "./money.ts";
import { Charge, MarkupRule } from "./pricing.ts";
import { TimeZone } from "./time-zone.ts";

/**
 * The commands of partner (`agency-`), company (`company-`), connection request (`joinagency-`) streams and the
 * administrators' balance commands, each a discriminated union on `type`. Facts a decider needs from other
 * streams or read models (open bookings, companies with money) come with the command.
 */
const cmd = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });

export const AgencyCommand = z.discriminatedUnion("type", [
  cmd("RegisterAgency", {
    agency_id: z.string(),
    name: z.string().min(1).max(200),
    duplicated_from: z.string().optional(),
    markups: z.array(MarkupRule),
    transaction_fee: Charge.nullable(),
    flags: z.partialRecord(AgencyFlag, z.boolean()),
    time_zone: TimeZone.optional(),
  }),
  cmd("UpdateAgency", {
    name: z.string().min(1).max(200).optional(),
    markups: z.array(MarkupRule).optional(),
    time_zone: TimeZone.optional(),
  }),
  cmd("SetAgencyFlag", { flag: AgencyFlag, on: z.boolean().optional() }),
  cmd("SetAgencyTransactionFee", { transaction_fee: Charge.nullable() }),
  cmd("DeleteAgency", {
    /** Companies of the partner with money on their balance (or owing it). */
    companies_with_money: z.array(z.string()),
    open_bookings: z.number().int(),
  }),
]);
export type AgencyCommand = z.infer<typeof AgencyCommand>;

export const CompanyCommand = z.discriminatedUnion("type", [
  cmd("RegisterCompany", {
    company_id: z.string(),
    agency_id: z.string(),
    name: z.string().min(1).max(200),
    currency: Currency,
    shared_bookings: z.boolean(),
    markups: z.array(MarkupRule),
  }),
  cmd("SetCompanyMarkups", { markups: z.array(MarkupRule) }),
  cmd("SetSharedBookings", { shared_bookings: z.boolean() }),
  cmd("DeleteCompany", { open_bookings: z.number().int(), balance: Money.nullable() }),
]);
export type CompanyCommand = z.infer<typeof CompanyCommand>;

export const JoinAgencyCommand = z.discriminatedUnion("type", [
  cmd("SendJoinRequest", {
    request_id: z.string(),
    user_id: z.string(),
    agency_id: z.string(),
    company_id: z.string().nullable(),
  }),
  cmd("AcceptJoinRequest", { company_id: z.string().nullable() }),
  cmd("RejectJoinRequest", {}),
  cmd("ResetJoinRequest", {}),
]);
export type JoinAgencyCommand = z.infer<typeof JoinAgencyCommand>;

/** What administrators do to a balance besides top-ups (BalanceCommand's TopUpBalance). */
export const BalanceAdminCommand = z.discriminatedUnion("type", [
  cmd("CorrectBalance", { company_id: z.string(), amount: Money, reason: z.string().min(1).max(500) }),
  cmd("SetCreditLimit", { company_id: z.string(), credit_limit: Money }),
  cmd("CloseBalance", { company_id: z.string() }),
]);
export type BalanceAdminCommand = z.infer<typeof BalanceAdminCommand>;
