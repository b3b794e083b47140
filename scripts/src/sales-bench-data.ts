import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { createPool, withDatabase } from "@skyward/infra/db";
import { startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { migrate } from "@skyward/infra/migrate";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { directory } from "@skyward/projectors/directory/directory";
import { sales } from "@skyward/projectors/sales/sales";

/**
 * A database for the sales benchmarks (scripts/bench/sales-*.ts): migrated, the directory and sales read models
 * created (empty generations put in service), then filled with generated sales lines and their day aggregates in
 * set-based SQL: a million lines take a minute instead of the hours their events would take through the booking flow.
 */

export const AGENCIES = 10;
export const COMPANIES_PER_AGENCY = 5;
export const AGENTS_PER_COMPANY = 10;
export const DAYS = 365;

type Pool = ReturnType<typeof createPool>;

export interface BenchDatabase {
  pool: Pool;
  label: string;
  /** A kept database seeded by an earlier run. */
  reused: boolean;
  drop(): Promise<void>;
  /** Closes the connections and leaves the database (and server) as they are. */
  release(): Promise<void>;
}

/**
 * DATABASE_URL's server, or a fresh embedded one; a database of its own either way. With `keep` (a database name,
 * DATABASE_URL only) a database seeded by an earlier run is reused.
 */
export async function benchDatabase(keep?: string): Promise<BenchDatabase> {
  const external = process.env.DATABASE_URL;
  if (keep && !external) throw new Error("--keep needs DATABASE_URL: an embedded server ends with the run");
  if (keep && !/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error("--keep names a database: a-z, 0-9 and _");
  const dataDir = external ? null : await mkdtemp(join(os.tmpdir(), "skyward-bench-pg-"));
  const server = dataDir ? await startEmbeddedPostgres({ dataDir }) : null;
  const serverUrl = external ?? (server?.url as string);
  const name = keep ?? `skyward_bench_sales_${randomBytes(4).toString("hex")}`;
  const admin = createPool(serverUrl, { max: 1 });
  const exists = keep
    ? (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [keep])).rowCount === 1
    : false;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  const pool = createPool(withDatabase(serverUrl, name), { max: 8, applicationName: "skyward-bench" });
  const reused =
    exists &&
    (await pool.query("SELECT 1 FROM read.sales LIMIT 1").catch(() => ({ rowCount: 0 }))).rowCount === 1;
  if (!reused) {
    await migrate(pool);
    const store = new EventStore(pool);
    await rebuildProjection(pool, store, directory);
    await rebuildProjection(pool, store, sales);
  }
  return {
    pool,
    label: external ? "DATABASE_URL" : "embedded",
    reused,
    async release() {
      await pool.end();
      await admin.end();
    },
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
      await server?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Ids of the generated world: agency a, company a.c, agent a.c.n. */
export const agencyId = (a: number) => `agency-${a}`;
export const companyId = (a: number, c: number) => `company-${a}-${c}`;
export const agentId = (a: number, c: number, n: number) => `agent-${a}-${c}-${n}`;

/**
 * `lines` sales lines over the last DAYS days, spread over the agents, 300 routes and 20 carriers; one line in 20 is
 * a void of the ticket before it. Agencies 0-5 sell in UAH, 6-7 in PLN, 8-9 in EUR. Day aggregates follow.
 */
export async function seedSales(pool: Pool, lines: number): Promise<void> {
  await pool.query(
    `INSERT INTO read.agencies (id, name, registered_at)
     SELECT 'agency-' || a, 'Agency ' || a, now() FROM generate_series(0, $1 - 1) a`,
    [AGENCIES],
  );
  await pool.query(
    `INSERT INTO read.companies (id, agency_id, name, currency, shared_bookings, registered_at)
     SELECT 'company-' || a || '-' || c, 'agency-' || a, 'Company ' || a || '-' || c, 'UAH', c % 2 = 0, now()
       FROM generate_series(0, $1 - 1) a, generate_series(0, $2 - 1) c`,
    [AGENCIES, COMPANIES_PER_AGENCY],
  );
  await pool.query(
    `INSERT INTO read.users (id, email, first_name, last_name, user_type, language, agency_id, company_ids, demo_user,
       auth_method, registered_at)
     SELECT 'agent-' || a || '-' || c || '-' || n, 'agent' || a || c || n || '@bench.test', 'Agent', a::text || c || n,
            'Agent', 'en', 'agency-' || a, ARRAY['company-' || a || '-' || c], false, 'otp', now()
       FROM generate_series(0, $1 - 1) a, generate_series(0, $2 - 1) c, generate_series(0, $3 - 1) n`,
    [AGENCIES, COMPANIES_PER_AGENCY, AGENTS_PER_COMPANY],
  );
  // In chunks of 200,000 lines: one statement of a million rows holds a lot of memory for no gain.
  for (let from = 0; from < lines; from += 200_000) {
    const to = Math.min(lines, from + 200_000) - 1;
    await pool.query(
      `INSERT INTO read.sales (id, kind, status, locator, document_number, original_document, passenger_name, carrier,
         route, departure_at, sold_at, sale_date, agent_id, company_id, agency_id, channel_id, fake_booking, base_fare,
         taxes, agency_markup, company_markup, transaction_fee, penalty, total, currency, search)
       SELECT doc || CASE WHEN void THEN '-void' ELSE '-ticket' END, CASE WHEN void THEN 'void' ELSE 'ticket' END,
              CASE WHEN void THEN 'voided' ELSE 'issued' END, locator, doc, CASE WHEN void THEN doc END, passenger,
              carrier, route, NULL, sold_at, (sold_at AT TIME ZONE 'UTC')::date,
              'agent-' || a || '-' || c || '-' || ag, 'company-' || a || '-' || c, 'agency-' || a, 'channel-' || a, false,
              sign * fare, sign * 9000, sign * 1500, sign * 1000, sign * 500, 0, sign * (fare + 12000), currency,
              upper(doc || ' ' || locator || ' ' || passenger || ' ' || route)
         FROM (
           SELECT n, (n % 20 = 19) AS void, CASE WHEN n % 20 = 19 THEN -1 ELSE 1 END AS sign,
                  lpad((n - (n % 20 = 19)::int)::text, 13, '0') AS doc,
                  upper(substr(md5(((n - (n % 20 = 19)::int) / 2)::text), 1, 6)) AS locator,
                  'PASSENGER' || (n % 5000) || '/NAME' AS passenger,
                  'C' || chr(65 + (n % 20)) AS carrier,
                  'R' || (n % 300) || '-X' || ((n / 300) % 7) AS route,
                  now() - ((n::bigint * 7919) % ($3::int * 86400)) * interval '1 second' AS sold_at,
                  (n / 7) % $4::int AS a, (n / 3) % $5::int AS c, n % $6::int AS ag,
                  20000 + (n * 37) % 500000 AS fare,
                  CASE WHEN (n / 7) % $4::int < 6 THEN 'UAH' WHEN (n / 7) % $4::int < 8 THEN 'PLN' ELSE 'EUR' END AS currency
             FROM generate_series($1::int, $2::int) n
         ) g`,
      [from, to, DAYS, AGENCIES, COMPANIES_PER_AGENCY, AGENTS_PER_COMPANY],
    );
  }
  await pool.query(
    `INSERT INTO read.sales_daily SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency, count(*),
       count(*) FILTER (WHERE kind = 'ticket'), count(*) FILTER (WHERE kind = 'void'), 0, 0, 0,
       coalesce(sum(total) FILTER (WHERE kind = 'ticket'), 0), sum(base_fare), sum(taxes), sum(agency_markup),
       sum(company_markup), sum(transaction_fee), sum(penalty), sum(total)
       FROM read.sales GROUP BY 1, 2, 3, 4, 5, 6`,
  );
  await pool.query(
    `INSERT INTO read.sales_route_daily SELECT sale_date, agency_id, company_id, agent_id, fake_booking, currency,
       route, carrier, count(*) FILTER (WHERE kind = 'ticket') - count(*) FILTER (WHERE kind = 'void'), sum(total)
       FROM read.sales GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`,
  );
  // The rollups, as the projection keeps them (projectors/src/sales): per agency and for all (''), by day and month.
  await pool.query(
    `INSERT INTO read.sales_rollup
     SELECT g.grain, date_trunc(g.grain, d.sale_date::timestamp)::date, CASE WHEN l.everyone THEN '' ELSE d.agency_id END,
       d.fake_booking, d.currency, sum(lines), sum(tickets_issued), sum(tickets_voided), sum(tickets_refunded),
       sum(tickets_exchanged), sum(emds_issued), sum(issued_total), sum(base_fare), sum(taxes), sum(agency_markup),
       sum(company_markup), sum(transaction_fee), sum(penalty), sum(total)
       FROM read.sales_daily d CROSS JOIN (VALUES ('day'), ('month')) g(grain) CROSS JOIN (VALUES (false), (true)) l(everyone)
      GROUP BY 1, 2, 3, 4, 5`,
  );
  await pool.query(
    `INSERT INTO read.sales_top (grain, period, dimension, agency_id, fake_booking, currency, key, tickets, total)
     SELECT g.grain, date_trunc(g.grain, r.sale_date::timestamp)::date, x.dimension, x.agency_id, r.fake_booking,
       r.currency, x.key, sum(r.tickets), sum(r.total)
       FROM read.sales_route_daily r CROSS JOIN (VALUES ('day'), ('week'), ('month')) g(grain)
       CROSS JOIN LATERAL (VALUES ('route', r.route, r.agency_id), ('route', r.route, ''),
         ('carrier', r.carrier, r.agency_id), ('carrier', r.carrier, ''), ('agent', r.agent_id, r.agency_id),
         ('company', r.company_id, r.agency_id)) x(dimension, key, agency_id)
      GROUP BY 1, 2, 3, 4, 5, 6, 7`,
  );
  await pool.query("VACUUM ANALYZE");
}

/** p50/p95/p99 of samples in milliseconds. */
export function percentiles(samples: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

export function option(args: readonly string[], name: string, fallback: number): number {
  const value = args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  return value ? Number(value) : fallback;
}
