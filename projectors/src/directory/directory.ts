import type { AgencyRegistered, CompanyRegistered, UserRegistered } from "@skyward/contracts/directory";
import { defineProjection } from "@skyward/infra/projections/projection";

/** Who exists and where they belong: agencies, companies, users (no secrets). */
export const directory = defineProjection({
  name: "directory",
  version: 2,
  eventTypes: [
    "AgencyRegistered",
    "CompanyRegistered",
    "UserRegistered",
    "AccountInfoCompleted",
    "AccountDetailsUpdated",
    "TermsAccepted",
    "LocaleChanged",
    "PhoneChanged",
    "EmailChanged",
    "ApiTokenIssued",
  ],
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
  async apply(client, events, t) {
    // Consecutive events of one type go to the database as one set-based statement.
    const agencies = events.filter((e) => e.type === "AgencyRegistered");
    if (agencies.length > 0) {
      await client.query(
        `INSERT INTO ${t.agencies} (id, name, registered_at)
         SELECT x->>'agency_id', x->>'name', (x->>'at')::timestamptz FROM jsonb_array_elements($1::jsonb) x
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`,
        [JSON.stringify(agencies.map((e) => ({ ...(e.data as AgencyRegistered), at: e.recordedAt })))],
      );
    }
    const companies = events.filter((e) => e.type === "CompanyRegistered");
    if (companies.length > 0) {
      await client.query(
        `INSERT INTO ${t.companies} (id, agency_id, name, currency, shared_bookings, registered_at)
         SELECT x->>'company_id', x->>'agency_id', x->>'name', x->>'currency', (x->>'shared_bookings')::boolean,
                (x->>'at')::timestamptz
           FROM jsonb_array_elements($1::jsonb) x
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(companies.map((e) => ({ ...(e.data as CompanyRegistered), at: e.recordedAt })))],
      );
    }
    for (const e of events) {
      const data = e.data as Record<string, unknown>;
      const userId = e.streamId.slice("user-".length);
      switch (e.type) {
        case "UserRegistered": {
          const u = data as UserRegistered;
          await client.query(
            `INSERT INTO ${t.users} (id, email, first_name, last_name, user_type, phone, language, agency_id,
               company_ids, demo_user, auth_method, registered_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) ON CONFLICT (id) DO NOTHING`,
            [
              u.user_id,
              u.email,
              u.first_name,
              u.last_name,
              u.user_type,
              u.phone,
              u.language,
              u.agency_id,
              u.company_ids,
              u.demo_user,
              u.auth_method,
              e.recordedAt,
            ],
          );
          break;
        }
        case "AccountInfoCompleted":
        case "AccountDetailsUpdated":
          await client.query(
            `UPDATE ${t.users} SET first_name = coalesce($2, first_name), last_name = coalesce($3, last_name),
               phone = coalesce($4, phone), language = coalesce($5, language),
               onboarding = CASE WHEN $6 THEN 'privacy' ELSE onboarding END
             WHERE id = $1`,
            [
              userId,
              data.first_name ?? null,
              data.last_name ?? null,
              data.phone ?? null,
              data.language ?? null,
              e.type === "AccountInfoCompleted",
            ],
          );
          break;
        case "TermsAccepted":
          await client.query(`UPDATE ${t.users} SET onboarding = 'done', terms_version = $2 WHERE id = $1`, [
            userId,
            data.terms_version,
          ]);
          break;
        case "LocaleChanged":
          await client.query(`UPDATE ${t.users} SET language = $2 WHERE id = $1`, [userId, data.language]);
          break;
        case "PhoneChanged":
          await client.query(`UPDATE ${t.users} SET phone = $2 WHERE id = $1`, [userId, data.phone]);
          break;
        case "EmailChanged":
          await client.query(`UPDATE ${t.users} SET email = $2 WHERE id = $1`, [userId, data.email]);
          break;
        case "ApiTokenIssued":
          await client.query(`UPDATE ${t.users} SET api_token = true WHERE id = $1`, [userId]);
          break;
      }
    }
  },
});
