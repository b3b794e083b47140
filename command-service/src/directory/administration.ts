import type { Company, JoinAgency, Partner, PersonRow } from "@skyward/contracts/administration";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { Money } from "@skyward/contracts/money";
import type { CommandContext } from "@skyward/infra/event-store/command";
import type { StoredEvent, StreamAppend } from "@skyward/infra/event-store/types";
import { forgetSession, isAdministrator } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { DomainError, NotFound } from "@skyward/infra/http/errors";
import type pg from "pg";
import { type BalanceState, balanceStream, evolveBalance, initialBalance } from "../balances/balance.ts";
import { readModelCaughtUp } from "../caught-up.ts";
import type { ActiveAgency } from "./agency.ts";
import type { ActiveCompany } from "./company.ts";
import type { JoinRequestState } from "./join-request.ts";

/** Supervisors act only inside their own partner; administrators everywhere; anyone else is told it does not exist. */
export function assertAgencyScope(p: Principal, agencyId: string, what = "partner"): void {
  if (isAdministrator(p)) return;
  if (p.userType === "Supervisor" && !p.demo && p.agencyId === agencyId) return;
  throw new NotFound(`No such ${what}`, what === "partner" ? "agency_not_found" : `${what}_not_found`);
}

/** A name as people tell names apart: without case, spacing or Unicode form ("Dnipro  travel" is "DNIPRO TRAVEL"). */
export const nameKey = (name: string) => name.normalize("NFKC").toLocaleLowerCase("und").replace(/\s+/gu, "");

/**
 * Refuses a partner name another live partner has (`except`: the partner being renamed). Read from the directory
 * read model, where the names are; compared in code so every script's letters fold alike.
 */
export async function assertPartnerNameFree(pool: pg.Pool, name: string, except?: string): Promise<void> {
  const { rows } = await pool.query<{ id: string; name: string }>(
    "SELECT id, name FROM read.agencies WHERE NOT deleted AND id <> $1",
    [except ?? ""],
  );
  const taken = rows.find((row) => nameKey(row.name) === nameKey(name));
  if (taken)
    throw new DomainError(
      409,
      "partner_name_taken",
      "Conflict",
      `A partner named "${taken.name}" already exists`,
      { pointer: "/name" },
    );
}

/** Refuses a company name another live company of the same partner has. */
export async function assertCompanyNameFree(pool: pg.Pool, agencyId: string, name: string): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    "SELECT name FROM read.companies WHERE agency_id = $1 AND NOT deleted",
    [agencyId],
  );
  const taken = rows.find((row) => nameKey(row.name) === nameKey(name));
  if (taken)
    throw new DomainError(
      409,
      "company_name_taken",
      "Conflict",
      `This partner already has a company named "${taken.name}"`,
      { pointer: "/name" },
    );
}

/** An append of `events` (with metadata) to a stream at the version it was loaded. */
export const appendTo = (
  streamId: string,
  expected: number | "no_stream",
  events: readonly { type: string; data: unknown }[],
  metadata: EventMetadata,
): StreamAppend => ({ streamId, expected, events: events.map((e) => ({ ...e, metadata })) });

/** An event just decided, as a fold reads it (only type and data matter to these folds). */
export function asStored(e: { type: string; data: unknown }) {
  return {
    globalPosition: 0n,
    transactionId: 0n,
    streamId: "",
    streamPosition: 0,
    eventId: "",
    type: e.type,
    data: e.data,
    metadata: undefined as never,
    recordedAt: new Date(0),
  };
}

/** Ends every session of a user switched off or removed, in this process and (by notice) in the others. */
export async function endSessionsOf(pool: pg.Pool, userId: string): Promise<void> {
  const { rows } = await pool.query<{ id_hash: string }>(
    "DELETE FROM app.sessions WHERE user_id = $1 RETURNING id_hash",
    [userId],
  );
  for (const row of rows) forgetSession(row.id_hash);
}

export async function loadBalance(ctx: CommandContext, companyId: string) {
  return ctx.load<BalanceState>(balanceStream(companyId), evolveBalance, initialBalance);
}

/**
 * Bookings that may still move money (held, being issued): a company or partner is not deleted under them. Counted
 * once the bookings read model has passed every event committed so far, so a booking held a moment ago counts.
 */
export async function openBookings(
  pool: pg.Pool,
  where: { company_id: string } | { agency_id: string },
): Promise<number> {
  await readModelCaughtUp(pool, { name: "bookings", streamType: "booking" });
  const [column, id] =
    "company_id" in where ? ["company_id", where.company_id] : ["agency_id", where.agency_id];
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM read.bookings WHERE ${column} = $1 AND status IN ('held', 'ticketing')
        AND NOT fake_booking`,
    [id],
  );
  return rows[0]?.n ?? 0;
}

interface PersonDbRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  user_type: string;
  active: boolean;
  company_ids: string[];
}
const PERSON_COLUMNS = "id, email, first_name, last_name, user_type, active, company_ids";
/** The person as administration shows them: the fields of PersonRow only, never the rest of a user's folded state. */
export const personOf = (u: PersonDbRow): PersonRow => ({
  id: u.id,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  user_type: u.user_type,
  active: u.active,
  company_ids: u.company_ids,
});

interface ChannelDbRow {
  id: string;
  agency_id: string;
  title: string;
  active_by_admin: boolean;
  active_by_supervisor: boolean;
}

/** The partner as the spec lists it: its own state (just decided) and its people and channels (read models). */
export async function partnerOf(pool: pg.Pool, agency: ActiveAgency): Promise<Partner> {
  const [supervisors, channels, companies] = await Promise.all([
    pool.query<PersonDbRow>(
      `SELECT ${PERSON_COLUMNS} FROM read.users WHERE agency_id = $1 AND user_type = 'Supervisor' ORDER BY last_name`,
      [agency.agency_id],
    ),
    pool.query<ChannelDbRow>(
      `SELECT id, agency_id, title, active_by_admin, active_by_supervisor FROM read.channels
        WHERE agency_id = $1 AND NOT deleted ORDER BY created_at`,
      [agency.agency_id],
    ),
    pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM read.companies WHERE agency_id = $1 AND NOT deleted",
      [agency.agency_id],
    ),
  ]);
  return {
    id: agency.agency_id,
    name: agency.name,
    channels: channels.rows.map(({ agency_id: _a, ...c }) => c),
    supervisors: supervisors.rows.map(personOf),
    supervisors_count: supervisors.rows.length,
    companies_count: companies.rows[0]?.n ?? 0,
    agency_transaction_fees: [{ id: agency.agency_id, transaction_fee: agency.transaction_fee }],
    ...agency.flags,
    time_zone: agency.time_zone,
    markups: agency.markups,
    active: agency.gate,
  };
}

/** The company as the spec lists it: its state and balance (just decided), its agents and channels. */
export async function companyOf(
  pool: pg.Pool,
  company: ActiveCompany,
  balance: BalanceState,
): Promise<Company> {
  const [agents, channels] = await Promise.all([
    pool.query<PersonDbRow>(
      `SELECT ${PERSON_COLUMNS} FROM read.users WHERE $1 = ANY(company_ids) AND user_type = 'Agent' ORDER BY last_name`,
      [company.company_id],
    ),
    pool.query<ChannelDbRow>(
      `SELECT id, agency_id, title, active_by_admin, active_by_supervisor FROM read.channels
        WHERE agency_id = $1 AND NOT deleted ORDER BY created_at`,
      [company.agency_id],
    ),
  ]);
  const money = (amount: number): Money => ({ amount, currency: company.currency });
  return {
    id: company.company_id,
    agency_id: company.agency_id,
    name: company.name,
    currency: company.currency,
    balance_amount: balance.amount ?? money(0),
    credit_limit: money(balance.credit_limit),
    shared_bookings: company.shared_bookings,
    avia_managers: agents.rows.map(personOf),
    channels: channels.rows.map(({ agency_id: _a, ...c }) => c),
    markups: company.markups,
    active: company.gate,
  };
}

export function joinAgencyOf(state: JoinRequestState): JoinAgency {
  if (state.status === "none") throw new NotFound("No such connection request", "join_request_not_found");
  return {
    id: state.request_id,
    agency_id: state.agency_id,
    user_id: state.user_id,
    company_id: state.company_id,
    status: state.status,
  };
}

/** The folded state of a stream with no events yet, for streams created in this command. */
export const noEvents: StoredEvent[] = [];
