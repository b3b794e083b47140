import {
  type AgencyRegistered,
  type CompanyRegistered,
  DIRECTORY_EVENT_TYPES,
  DirectoryEvent,
  type UserRegistered,
} from "@skyward/contracts/directory";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { defineProjection } from "@skyward/infra/projections/projection";

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
  api_token?: true;
}

/** Who exists and where they belong: agencies, companies, users (no secrets). */
export const directory = defineProjection({
  name: "directory",
  version: 2,
  eventTypes: DIRECTORY_EVENT_TYPES,
  tables: ["agencies", "companies", "users"],
  setup: (t) => `
    CREATE TABLE ${t.agencies} (
      id text PRIMARY KEY, name text NOT NULL, registered_at timestamptz NOT NULL
    );
    CREATE TABLE ${t.companies} (
      id text PRIMARY KEY, agency_id text NOT NULL, name text NOT NULL, currency text NOT NULL,
      shared_bookings boolean NOT NULL, registered_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.companies} (agency_id);
    CREATE TABLE ${t.users} (
      id text PRIMARY KEY, email text NOT NULL, first_name text NOT NULL, last_name text NOT NULL,
      user_type text NOT NULL, phone text, language text NOT NULL, agency_id text, company_ids text[] NOT NULL,
      demo_user boolean NOT NULL, auth_method text NOT NULL, onboarding text NOT NULL DEFAULT 'initial',
      terms_version text, api_token boolean NOT NULL DEFAULT false, registered_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.users} (agency_id);
    CREATE INDEX ON ${t.users} (lower(email));
  `,
  async apply(writer, stored, t) {
    // A batch folds into one set-based statement per table and kind of change; rows are registered before they
    // change, as each stream registers before anything else.
    const agencies = new Map<string, AgencyRegistered & { at: string }>();
    const companies: (CompanyRegistered & { at: string })[] = [];
    const users: (UserRegistered & { at: string })[] = [];
    const changes = new Map<string, UserChange>();
    const change = (id: string, patch: Omit<UserChange, "id">) =>
      changes.set(id, { ...changes.get(id), id, ...patch });
    for (const e of stored) {
      const event = parseEvent(DirectoryEvent, e);
      const at = e.recordedAt.toISOString();
      const userId = e.streamId.slice("user-".length);
      switch (event.type) {
        case "AgencyRegistered":
          agencies.set(event.data.agency_id, { ...event.data, at });
          break;
        case "CompanyRegistered":
          companies.push({ ...event.data, at });
          break;
        case "AgencyPricingSet":
        case "AgencyGateToggled":
        case "CompanyMarkupsSet":
        case "CompanyGateToggled":
          break; // pricing and gates are read from their streams when selling, not listed here
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
        default:
          unhandledEvent(event);
      }
    }
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
  },
});
