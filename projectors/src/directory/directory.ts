import {
  type AgencyRegistered,
  type CompanyRegistered,
  DIRECTORY_EVENT_TYPES,
  DirectoryEvent,
  type UserRegistered,
} from "@skyward/contracts/directory";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { deterministicId } from "@skyward/infra/ids";
import { defineProjection } from "@skyward/infra/projections/projection";

/** The id of an agent's work for a company (DELETE /agent_company_relationships/{id}). */
export const relationshipId = (userId: string, companyId: string) =>
  deterministicId(`relationship:${userId}:${companyId}`);

/** A line of the partner and company change history. */
interface HistoryLine {
  event_id: string;
  position: string;
  stream_id: string;
  agency_id: string | null;
  company_id: string | null;
  type: string;
  data: unknown;
  actor_id: string | null;
  actor_role: string;
  source: string;
  at: string;
}

const historyLine = (
  e: StoredEvent,
  scope: { agency_id: string | null; company_id: string | null },
): HistoryLine => ({
  event_id: e.eventId,
  position: e.globalPosition.toString(),
  stream_id: e.streamId,
  ...scope,
  type: e.type,
  data: e.data,
  actor_id: e.metadata.actor.user_id,
  actor_role: e.metadata.actor.role,
  source: e.metadata.source,
  at: e.recordedAt.toISOString(),
});

/** What a batch changed on one user's row; a field changed twice in the batch keeps its last value. */
interface UserChange {
  id: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  language?: string;
  email?: string;
  onboarding?: "privacy" | "done";
  terms_version?: string;
  api_token?: boolean;
}

/**
 * Who exists and where they belong: agencies (partners) with their settings, companies, users (no secrets), who
 * works for which company, connection requests, and the partner and company change history.
 */
export const directory = defineProjection({
  name: "directory",
  version: 7,
  eventTypes: DIRECTORY_EVENT_TYPES,
  tables: [
    "agencies",
    "companies",
    "users",
    "agent_company_relationships",
    "join_agency_requests",
    "directory_history",
  ],
  setup: (t) => `
    CREATE TABLE ${t.agencies} (
      id text PRIMARY KEY, name text NOT NULL, registered_at timestamptz NOT NULL,
      production_api_on boolean NOT NULL DEFAULT false, corporate_number_on boolean NOT NULL DEFAULT false,
      ghost_segments_remarks_on boolean NOT NULL DEFAULT false, markups jsonb NOT NULL DEFAULT '[]',
      auto_cancel_held_on boolean NOT NULL DEFAULT false, time_zone text NOT NULL DEFAULT 'UTC',
      transaction_fee jsonb, gate_active boolean NOT NULL DEFAULT true, deleted boolean NOT NULL DEFAULT false
    );
    CREATE TABLE ${t.companies} (
      id text PRIMARY KEY, agency_id text NOT NULL, name text NOT NULL, currency text NOT NULL,
      shared_bookings boolean NOT NULL, registered_at timestamptz NOT NULL, markups jsonb NOT NULL DEFAULT '[]',
      gate_active boolean NOT NULL DEFAULT true, deleted boolean NOT NULL DEFAULT false
    );
    CREATE INDEX ON ${t.companies} (agency_id);
    CREATE TABLE ${t.users} (
      id text PRIMARY KEY, email text NOT NULL, first_name text NOT NULL, last_name text NOT NULL,
      user_type text NOT NULL, phone text, language text NOT NULL, agency_id text, company_ids text[] NOT NULL,
      demo_user boolean NOT NULL, auth_method text NOT NULL, onboarding text NOT NULL DEFAULT 'initial',
      terms_version text, api_token boolean NOT NULL DEFAULT false, registered_at timestamptz NOT NULL,
      active boolean NOT NULL DEFAULT true
    );
    CREATE INDEX ON ${t.users} (agency_id);
    CREATE INDEX ON ${t.users} (lower(email));
    CREATE TABLE ${t.agent_company_relationships} (
      id text PRIMARY KEY, user_id text NOT NULL, company_id text NOT NULL, since timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.agent_company_relationships} (company_id);
    CREATE TABLE ${t.join_agency_requests} (
      id text PRIMARY KEY, user_id text NOT NULL, agency_id text NOT NULL, company_id text, status text NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.join_agency_requests} (agency_id);
    CREATE TABLE ${t.directory_history} (
      event_id uuid PRIMARY KEY, position bigint NOT NULL, stream_id text NOT NULL, agency_id text,
      company_id text, type text NOT NULL, data jsonb NOT NULL, actor_id text, actor_role text NOT NULL,
      source text NOT NULL, at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.directory_history} (agency_id, position DESC);
    CREATE INDEX ON ${t.directory_history} (company_id, position DESC);
    -- An administrator's whole history, newest first, a page at a time (version 7).
    CREATE INDEX ON ${t.directory_history} (position DESC);
  `,
  async apply(writer, stored, t) {
    // Registrations and profile changes fold into one set-based statement per table and kind of change; the rarer
    // administration events run one statement each, after what the batch collected before them (flushed first),
    // so every statement sees the rows the events before it made.
    let agencies = new Map<string, AgencyRegistered & { at: string }>();
    let companies: (CompanyRegistered & { at: string })[] = [];
    let users: (UserRegistered & { at: string })[] = [];
    let changes = new Map<string, UserChange>();
    const history: HistoryLine[] = [];
    const change = (id: string, patch: Omit<UserChange, "id">) =>
      changes.set(id, { ...changes.get(id), id, ...patch });
    const flush = async () => {
      await writeCollected(writer, t, { agencies, companies, users, changes });
      agencies = new Map();
      companies = [];
      users = [];
      changes = new Map();
    };
    const run = async (sql: string, params: unknown[]) => {
      await flush();
      await writer.query(sql, params);
    };
    for (const e of stored) {
      const event = parseEvent(DirectoryEvent, e);
      const at = e.recordedAt.toISOString();
      const userId = e.streamId.slice("user-".length);
      const agencyId = e.streamId.startsWith("agency-") ? e.streamId.slice("agency-".length) : null;
      const companyId = e.streamId.startsWith("company-") ? e.streamId.slice("company-".length) : null;
      if (agencyId) history.push(historyLine(e, { agency_id: agencyId, company_id: null }));
      switch (event.type) {
        case "AgencyRegistered":
          agencies.set(event.data.agency_id, { ...event.data, at });
          break;
        case "CompanyRegistered":
          companies.push({ ...event.data, at });
          history.push(
            historyLine(e, { agency_id: event.data.agency_id, company_id: event.data.company_id }),
          );
          break;
        case "AgencyUpdated":
          await run(`UPDATE ${t.agencies} SET name = $2 WHERE id = $1`, [
            event.data.agency_id,
            event.data.name,
          ]);
          break;
        case "AgencyPricingSet":
          await run(
            `UPDATE ${t.agencies} SET markups = $2::jsonb, transaction_fee = $3::jsonb WHERE id = $1`,
            [
              event.data.agency_id,
              JSON.stringify(event.data.markups),
              JSON.stringify(event.data.transaction_fee),
            ],
          );
          break;
        case "AgencyFlagSet":
          // The column name comes from the contract's enum, never from input text.
          await run(`UPDATE ${t.agencies} SET ${event.data.flag} = $2 WHERE id = $1`, [
            event.data.agency_id,
            event.data.on,
          ]);
          break;
        case "AgencyTimeZoneSet":
          await run(`UPDATE ${t.agencies} SET time_zone = $2 WHERE id = $1`, [
            event.data.agency_id,
            event.data.time_zone,
          ]);
          break;
        case "AgencyGateToggled":
          await run(`UPDATE ${t.agencies} SET gate_active = $2 WHERE id = $1`, [agencyId, event.data.active]);
          break;
        case "AgencyDeleted":
          await run(`UPDATE ${t.agencies} SET deleted = true WHERE id = $1`, [event.data.agency_id]);
          break;
        case "CompanyMarkupsSet":
          await run(`UPDATE ${t.companies} SET markups = $2::jsonb WHERE id = $1`, [
            event.data.company_id,
            JSON.stringify(event.data.markups),
          ]);
          history.push(companyLine(e, event.data.company_id));
          break;
        case "CompanyGateToggled":
          await run(`UPDATE ${t.companies} SET gate_active = $2 WHERE id = $1`, [
            companyId,
            event.data.active,
          ]);
          history.push(companyLine(e, companyId));
          break;
        case "CompanySharedBookingsSet":
          await run(`UPDATE ${t.companies} SET shared_bookings = $2 WHERE id = $1`, [
            event.data.company_id,
            event.data.shared_bookings,
          ]);
          history.push(companyLine(e, event.data.company_id));
          break;
        case "CompanyDeleted":
          await run(
            `WITH gone AS (UPDATE ${t.companies} SET deleted = true WHERE id = $1)
             DELETE FROM ${t.agent_company_relationships} WHERE company_id = $1`,
            [event.data.company_id],
          );
          await writer.query(
            `UPDATE ${t.users} SET company_ids = array_remove(company_ids, $1) WHERE $1 = ANY(company_ids)`,
            [event.data.company_id],
          );
          history.push(companyLine(e, event.data.company_id));
          break;
        case "JoinAgencyRequested":
          await run(
            `INSERT INTO ${t.join_agency_requests} (id, user_id, agency_id, company_id, status, updated_at)
             VALUES ($1, $2, $3, $4, 'sent', $5)
             ON CONFLICT (id) DO UPDATE SET company_id = EXCLUDED.company_id, status = 'sent',
               updated_at = EXCLUDED.updated_at`,
            [event.data.request_id, event.data.user_id, event.data.agency_id, event.data.company_id, at],
          );
          history.push(
            historyLine(e, { agency_id: event.data.agency_id, company_id: event.data.company_id }),
          );
          break;
        case "JoinAgencyRequestAccepted":
          await run(
            `UPDATE ${t.join_agency_requests} SET status = 'accepted', company_id = $2, updated_at = $3 WHERE id = $1`,
            [event.data.request_id, event.data.company_id, at],
          );
          break;
        case "JoinAgencyRequestRejected":
        case "JoinAgencyRequestReset":
          await run(`UPDATE ${t.join_agency_requests} SET status = $2, updated_at = $3 WHERE id = $1`, [
            event.data.request_id,
            event.type === "JoinAgencyRequestRejected" ? "rejected" : "reset",
            at,
          ]);
          break;
        case "UserConnectedToCompany":
          await run(
            `WITH rel AS (
               INSERT INTO ${t.agent_company_relationships} (id, user_id, company_id, since) VALUES ($1, $2, $3, $5)
               ON CONFLICT (id) DO NOTHING
             )
             UPDATE ${t.users} SET agency_id = $4,
                    company_ids = CASE WHEN $3 = ANY(company_ids) THEN company_ids ELSE company_ids || $3 END
              WHERE id = $2`,
            [
              relationshipId(event.data.user_id, event.data.company_id),
              event.data.user_id,
              event.data.company_id,
              event.data.agency_id,
              at,
            ],
          );
          history.push(
            historyLine(e, { agency_id: event.data.agency_id, company_id: event.data.company_id }),
          );
          break;
        case "UserDisconnectedFromCompany":
          await run(
            `WITH rel AS (DELETE FROM ${t.agent_company_relationships} WHERE id = $1)
             UPDATE ${t.users} SET company_ids = array_remove(company_ids, $3) WHERE id = $2`,
            [
              relationshipId(event.data.user_id, event.data.company_id),
              event.data.user_id,
              event.data.company_id,
            ],
          );
          history.push(companyLine(e, event.data.company_id));
          break;
        case "UserActivationSet":
          await run(`UPDATE ${t.users} SET active = $2 WHERE id = $1`, [
            event.data.user_id,
            event.data.active,
          ]);
          break;
        case "UserRemoved":
          // The row goes: sessions of a removed user resolve to nobody (the events keep who it was).
          await run(
            `WITH rel AS (DELETE FROM ${t.agent_company_relationships} WHERE user_id = $1)
             DELETE FROM ${t.users} WHERE id = $1`,
            [event.data.user_id],
          );
          break;
        case "SellingCompanyChosen":
          await run(
            `UPDATE ${t.users} SET company_ids = CASE WHEN user_type IN ('Admin', 'Support') THEN ARRAY[$2]
                    ELSE array_prepend($2, array_remove(company_ids, $2)) END
              WHERE id = $1`,
            [event.data.user_id, event.data.company_id],
          );
          break;
        case "UserRegistered":
          users.push({ ...event.data, at });
          break;
        case "AccountInfoCompleted":
          change(userId, { ...event.data, onboarding: "privacy" });
          break;
        case "AccountDetailsUpdated":
          change(userId, event.data);
          break;
        case "TermsAccepted":
          change(userId, { onboarding: "done", terms_version: event.data.terms_version });
          break;
        case "LocaleChanged":
          change(userId, { language: event.data.language });
          break;
        case "PhoneChanged":
          change(userId, { phone: event.data.phone });
          break;
        case "EmailChanged":
          change(userId, { email: event.data.email });
          break;
        case "ApiTokenIssued":
          change(userId, { api_token: true });
          break;
        case "ApiTokenRevoked":
          change(userId, { api_token: false });
          break;
        default:
          unhandledEvent(event);
      }
    }
    await flush();
    if (history.length > 0)
      await writer.query(
        `INSERT INTO ${t.directory_history} (event_id, position, stream_id, agency_id, company_id, type, data, actor_id,
           actor_role, source, at)
         SELECT event_id, position, stream_id, coalesce(x.agency_id, c.agency_id), x.company_id, type, data, actor_id,
                actor_role, source, at
           FROM jsonb_to_recordset($1::jsonb) AS x(event_id uuid, position bigint, stream_id text, agency_id text,
                company_id text, type text, data jsonb, actor_id text, actor_role text, source text, at timestamptz)
           LEFT JOIN ${t.companies} c ON c.id = x.company_id
         ON CONFLICT (event_id) DO NOTHING`,
        [JSON.stringify(history)],
      );
  },
});

const companyLine = (e: StoredEvent, companyId: string | null) =>
  historyLine(e, { agency_id: null, company_id: companyId });

/** The registrations and profile changes a batch collected, one set-based statement per table and kind. */
async function writeCollected(
  writer: { query(text: string, values?: readonly unknown[]): Promise<unknown> },
  t: Record<"agencies" | "companies" | "users" | "agent_company_relationships", string>,
  collected: {
    agencies: Map<string, AgencyRegistered & { at: string }>;
    companies: (CompanyRegistered & { at: string })[];
    users: (UserRegistered & { at: string })[];
    changes: Map<string, UserChange>;
  },
): Promise<void> {
  const { agencies, companies, users, changes } = collected;
  if (agencies.size > 0)
    await writer.query(
      `INSERT INTO ${t.agencies} (id, name, registered_at)
         SELECT agency_id, name, at FROM jsonb_to_recordset($1::jsonb) AS x(agency_id text, name text, at timestamptz)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`,
      [JSON.stringify([...agencies.values()])],
    );
  if (companies.length > 0)
    await writer.query(
      `INSERT INTO ${t.companies} (id, agency_id, name, currency, shared_bookings, registered_at)
         SELECT company_id, agency_id, name, currency, shared_bookings, at
           FROM jsonb_to_recordset($1::jsonb) AS x(company_id text, agency_id text, name text, currency text,
                shared_bookings boolean, at timestamptz)
         ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(companies)],
    );
  if (users.length > 0)
    await writer.query(
      `INSERT INTO ${t.users} (id, email, first_name, last_name, user_type, phone, language, agency_id,
           company_ids, demo_user, auth_method, registered_at)
         SELECT user_id, email, first_name, last_name, user_type, phone, language, agency_id, company_ids,
                demo_user, auth_method, at
           FROM jsonb_to_recordset($1::jsonb) AS x(user_id text, email text, first_name text, last_name text,
                user_type text, phone text, language text, agency_id text, company_ids text[], demo_user boolean,
                auth_method text, at timestamptz)
         ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(users)],
    );
  const relationships = users.flatMap((u) =>
    u.company_ids.map((c) => ({
      id: relationshipId(u.user_id, c),
      user_id: u.user_id,
      company_id: c,
      at: u.at,
    })),
  );
  if (relationships.length > 0)
    await writer.query(
      `INSERT INTO ${t.agent_company_relationships} (id, user_id, company_id, since)
         SELECT id, user_id, company_id, at
           FROM jsonb_to_recordset($1::jsonb) AS x(id text, user_id text, company_id text, at timestamptz)
         ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(relationships)],
    );
  if (changes.size > 0)
    await writer.query(
      `UPDATE ${t.users} u
            SET first_name = coalesce(x.first_name, u.first_name), last_name = coalesce(x.last_name, u.last_name),
                phone = coalesce(x.phone, u.phone), language = coalesce(x.language, u.language),
                email = coalesce(x.email, u.email), onboarding = coalesce(x.onboarding, u.onboarding),
                terms_version = coalesce(x.terms_version, u.terms_version),
                api_token = coalesce(x.api_token, u.api_token)
           FROM jsonb_to_recordset($1::jsonb) AS x(id text, first_name text, last_name text, phone text,
                language text, email text, onboarding text, terms_version text, api_token boolean)
          WHERE u.id = x.id`,
      [JSON.stringify([...changes.values()])],
    );
}
