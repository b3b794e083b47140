// The lists people page through stay on their indexes under generic plans (issue 26). The pool prepares every
// statement with parameters (infra/src/db.ts) and PostgreSQL may keep a statement's generic plan, planned without
// the values. Filters written as `($n IS NULL OR col = $n)` and scopes as `($n::boolean OR col = $m)` can use no
// index in such a plan: a line of the balance or directory history by its event id, a company's movements, a
// supervisor's bookings list each became a sequential scan of the whole table (an audit over seeded tables of
// 40,000-300,000 rows saw it switch after five views of a list). The app here plans every statement generically from
// its first run, over tables seeded large enough for a scan to cost more than an index.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { HttpClient } from "./testing/http-client.ts";
import { explainedNodes, type PlanNode } from "./testing/plans.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const ROWS = 20_000;
/** A test that takes counts (readsOf). */
const COUNTED_TIMEOUT = 60_000;
const dnipro = demoId("agency", "dnipro");
const kyiv = demoId("company", "dnipro-kyiv");
let t: TestApp;
let admin: HttpClient;
let supervisor: HttpClient;
let agent: HttpClient;
let movement: string;
let change: string;
const previousOptions = process.env.PGOPTIONS;

beforeAll(async () => {
  // Every connection of the app (node-postgres reads PGOPTIONS) plans generically from a statement's first run.
  process.env.PGOPTIONS = "-c plan_cache_mode=force_generic_plan";
  // No background jobs: their sweeps read the bookings too (operations in flight, EMDs waiting), and would be
  // counted with the requests'.
  t = await startTestApp({ roles: ["command", "query", "projectors"] });
  const seed = t.db.pool;
  // Other partners' rows, many, and a few of the demo partner's (one in 12 bookings; dates over three years).
  await seed.query(
    `INSERT INTO read.bookings (locator, status, list, company_id, agency_id, agent_id, fake_booking, provider_status,
       route, carrier, passenger_names, ticket_numbers, price_amount, currency, time_limit, held, created_at,
       updated_at, issued_at)
     SELECT (SELECT string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 1 + (n / 31 ^ k)::int % 31, 1), '' ORDER BY k)
               FROM generate_series(0, 5) k), s, CASE s WHEN 'held' THEN 'new' ELSE s END,
            CASE WHEN n % 50 < 4 THEN $2 ELSE 'seed-company-' || (n % 300) END,
            CASE WHEN n % 50 < 4 THEN $1 ELSE 'seed-agency-' || (n % 30) END,
            'seed-agent', false, 'confirmed', 'KBP-WAW', 'PS', 'DOE/JOHN', '', 10000, 'UAH',
            CASE WHEN s = 'held' THEN now() + interval '1 day' END, '{}'::jsonb,
            now() - n * interval '50 minutes', now() - n * interval '50 minutes',
            CASE WHEN s = 'issued' THEN now() - n * interval '50 minutes' END
       FROM generate_series(1, $3::int) n,
            LATERAL (SELECT (ARRAY['held', 'issued', 'issued', 'cancelled'])[1 + n % 4] AS s) x
     ON CONFLICT DO NOTHING`,
    [dnipro, kyiv, ROWS],
  );
  await seed.query(
    `INSERT INTO read.balance_history (event_id, position, company_id, kind, amount, currency, balance_after, locator,
       actor_id, actor_role, at, tx)
     SELECT gen_random_uuid(), 1000000 + n, CASE WHEN n % 100 = 0 THEN $1 ELSE 'seed-company-' || (n % 300) END,
            'top_up', 1000, 'UAH', n, NULL, 'seed-agent', 'Agent', now() - n * interval '20 minutes', n::text
       FROM generate_series(1, $2::int) n`,
    [kyiv, ROWS],
  );
  await seed.query(
    `INSERT INTO read.directory_history (event_id, position, stream_id, agency_id, company_id, type, data, actor_id,
       actor_role, source, at)
     SELECT gen_random_uuid(), 1000000 + n, 'company-seed' || n, 'seed-agency-' || (n % 30),
            'seed-company-' || (n % 300), 'CompanyRenamed', '{}'::jsonb, 'seed-admin', 'Admin', 'web',
            now() - n * interval '20 minutes'
       FROM generate_series(1, $1::int) n`,
    [ROWS],
  );
  await seed.query(
    `INSERT INTO read.travellers (id, company_id, agency_id, demo_owner, erased, profile, first_name, last_name,
       date_of_birth, search, created_at, updated_at)
     SELECT 'seed-traveller-' || n, 'seed-company-' || (n % 300), 'seed-agency-' || (n % 30), NULL, false, '{}'::jsonb,
            'FIRST' || n, 'LAST' || n, date '1980-01-01' + n % 9000, 'FIRST' || n || ' LAST' || n, now(), now()
       FROM generate_series(1, $1::int) n`,
    [ROWS],
  );
  // The log: other partners' events, one in 12 the demo partner's, half of them of its bookings and recorded by the
  // system (no agency of their own), all chained by the app's chainer as any event.
  await seed.query(
    `INSERT INTO es.events (stream_id, stream_position, event_id, event_type, data, metadata)
     SELECT 'seed-' || n, 1, gen_random_uuid(), 'SeedRecorded',
            CASE WHEN n % 50 >= 4 THEN jsonb_build_object('agency_id', 'seed-agency-' || (n % 30))
                 WHEN n % 2 = 0 THEN jsonb_build_object('agency_id', $1::text)
                 ELSE jsonb_build_object('locator', (SELECT b.locator FROM read.bookings b
                                                      WHERE b.agency_id = $1 ORDER BY b.locator LIMIT 1)) END,
            '{}'::jsonb
       FROM generate_series(1, $2::int) n`,
    [dnipro, ROWS],
  );
  for (let waited = 0; ; waited += 200) {
    const { rows } = await seed.query<{ unchained: boolean }>(
      `SELECT (SELECT count(*) FROM es.events) > (SELECT count(*) FROM es.chain) AS unchained`,
    );
    if (!rows[0]?.unchained) break;
    if (waited > 60_000) throw new Error("the chainer did not chain the seeded events");
    await sleep(200);
  }
  await seed.query(
    "ANALYZE read.bookings_g1, read.balance_history_g1, read.directory_history_g1, read.travellers_g1, es.events, es.chain",
  );
  movement = (
    await seed.query("SELECT event_id FROM read.balance_history WHERE company_id = $1 LIMIT 1", [kyiv])
  ).rows[0].event_id;
  change = (await seed.query("SELECT event_id FROM read.directory_history WHERE position > 1000000 LIMIT 1"))
    .rows[0].event_id;
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  supervisor = t.client();
  await supervisor.signInWithPassword("supervisor@dnipro.test", DEMO_PASSWORD);
  agent = t.client();
  await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
}, 240_000);

afterAll(async () => {
  if (previousOptions === undefined) delete process.env.PGOPTIONS;
  else process.env.PGOPTIONS = previousOptions;
  await t?.stop();
});

/**
 * What reading `tables` cost while `work` ran: their sequential scans, and the rows read (by those scans and fetched
 * through indexes), summed. A read model is named by its name (every generation of it counts), a table of the event
 * store by its schema-qualified name.
 */
async function readsOf(
  tables: string | readonly string[],
  work: () => Promise<unknown>,
): Promise<{ scans: number; rows: number }> {
  const relations = (typeof tables === "string" ? [tables] : tables).map((table) =>
    table.startsWith("es.") ? `es.${table.slice(3)}` : `read.${table}\\_g%`,
  );
  const read = async () => {
    const { rows } = await t.db.pool.query<{ scans: string; rows: string }>(
      `SELECT coalesce(sum(seq_scan), 0)::text AS scans,
              coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::text AS rows
         FROM pg_stat_user_tables WHERE schemaname || '.' || relname LIKE ANY ($1::text[])`,
      [relations],
    );
    return { scans: Number(rows[0]?.scans), rows: Number(rows[0]?.rows) };
  };
  // A server process reports its counts when it goes idle, unless it reported less than a second before: then it
  // reports once it has been idle for 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL), and a count taken sooner can miss what
  // a request read, so that a check of "no scan" would pass whatever the plan. So every idle connection of the app's
  // pool (the one its requests, projectors and chainer use; those it keeps checked out hold the projectors' advisory
  // locks and read no table) is asked to report as it next goes idle, which is at the end of that very statement
  // (pg_stat_force_next_flush), and the count is read after; then again, until two agree.
  const flushed = async () => {
    const pool = t.app.pool;
    const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
    try {
      await Promise.all(clients.map((client) => client.query("SELECT pg_stat_force_next_flush()")));
    } finally {
      for (const client of clients) client.release();
    }
    return read();
  };
  const count = async () => {
    let last = await flushed();
    for (let tries = 0; tries < 20; tries++) {
      await sleep(200);
      const now = await flushed();
      if (now.scans === last.scans && now.rows === last.rows) return now;
      last = now;
    }
    return last;
  };
  const before = await count();
  await work();
  const after = await count();
  return { scans: after.scans - before.scans, rows: after.rows - before.rows };
}
const scansOf = async (table: string, work: () => Promise<unknown>) => (await readsOf(table, work)).scans;

/** The statements with parameters the app's pool sends while `work` runs, with their values, as sent. */
async function caught(work: () => Promise<unknown>): Promise<{ text: string; values: unknown[] }[]> {
  const pool = t.app.pool;
  const query = pool.query;
  const sent: { text: string; values: unknown[] }[] = [];
  pool.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === "string" && Array.isArray(values)) sent.push({ text, values });
    return Reflect.apply(query, pool, args);
  }) as typeof pool.query;
  try {
    await work();
  } finally {
    pool.query = query;
  }
  return sent;
}

/** The most rows any node of a statement's plan handles (rows times loops), run again under EXPLAIN ANALYZE; the
 * nodes of its subplans (a count of its own, say) left out. */
async function mostRowsHandled(statement: { text: string; values: unknown[] }): Promise<number> {
  const [root] = await explainedNodes(t.db.pool, statement.text, statement.values);
  if (!root) throw new Error("no plan");
  let most = 0;
  const walk = (node: PlanNode) => {
    most = Math.max(most, Number(node["Actual Rows"]) * Number(node["Actual Loops"]));
    for (const child of (node.Plans as PlanNode[] | undefined) ?? [])
      if (!["InitPlan", "SubPlan"].includes(String(child["Parent Relationship"]))) walk(child);
  };
  walk(root);
  return most;
}

describe("lists under generic plans", () => {
  it(
    "when the app plans generically, then it does, and a scan of a seeded table is counted",
    async () => {
      const mode = await t.db.pool.query<{ mode: string }>(
        "SELECT current_setting('plan_cache_mode') AS mode",
      );
      expect(mode.rows[0]?.mode).toBe("force_generic_plan");
      // The counter sees a scan of the app's own: an administrator's text search through every list reads every
      // booking.
      expect(
        await scansOf("bookings", () =>
          admin.get("/bookings", { query: { q: "DOE" } }).then((r) => expect(r.status).toBe(200)),
        ),
      ).toBeGreaterThan(0);
    },
    COUNTED_TIMEOUT,
  );

  it(
    "when a supervisor or an agent page through their bookings lists, then they read the list asked for, not every booking",
    async () => {
      let listed = 0;
      const reads = await readsOf("bookings", async () => {
        for (const list of ["new", "issued", "cancelled"]) {
          const page = await supervisor.get("/bookings", { query: { list } });
          expect(page.status).toBe(200);
          // The partner's own (its seeded bookings and the demo world's), no other partner's.
          const companies = new Set(page.body.data.map((b: { company_id: string }) => b.company_id));
          expect(companies.has("seed-company-7")).toBe(false);
          expect(
            page.body.data.filter((b: { company_id: string }) => b.company_id === kyiv).length,
          ).toBeGreaterThan(0);
          listed += page.body.meta.total;
        }
      });
      expect(reads.scans).toBe(0);
      // The count of each list needs every row of it, and the page its rows again (25 by default): nothing else,
      // not the partner's other lists too.
      expect(listed).toBeGreaterThan(1000);
      expect(reads.rows).toBeLessThanOrEqual(listed + 3 * 25);
      expect(
        await scansOf("bookings", async () => {
          expect(
            (await supervisor.get("/bookings", { query: { list: "new", sort: "time_limit" } })).status,
          ).toBe(200);
          expect((await agent.get("/bookings", { query: { list: "issued" } })).status).toBe(200);
        }),
      ).toBe(0);
    },
    COUNTED_TIMEOUT,
  );

  it(
    "when a balance movement is opened by its link or a company's movements listed, then no scan of the history",
    async () => {
      const scans = await scansOf("balance_history", async () => {
        const line = await admin.get(`/balance_history/${movement}`);
        expect(line.status).toBe(200);
        expect(line.body.data.company_id).toBe(kyiv);
        const listed = await admin.get("/balance_history", { query: { company_id: kyiv } });
        expect(listed.status).toBe(200);
        expect(listed.body.meta.total).toBeGreaterThanOrEqual(ROWS / 100);
        expect(listed.body.data.every((r: { company_id: string }) => r.company_id === kyiv)).toBe(true);
        expect((await supervisor.get(`/balance_history/${movement}`)).status).toBe(200);
        // An id of the right length that is no uuid answers as one that does not exist (the cast would refuse it).
        const malformed = await admin.get(`/balance_history/${"-".repeat(36)}`);
        expect([malformed.status, malformed.body.errors?.[0]?.code]).toEqual([
          404,
          "balance_movement_not_found",
        ]);
      });
      expect(scans).toBe(0);
    },
    COUNTED_TIMEOUT,
  );

  it(
    "when a change of the directory is opened by its link or a partner's changes listed, then no scan of the history",
    async () => {
      const scans = await scansOf("directory_history", async () => {
        const line = await admin.get(`/directory_history/${change}`);
        expect(line.status).toBe(200);
        expect(
          (await admin.get("/directory_history", { query: { company_id: "seed-company-7" } })).status,
        ).toBe(200);
        const own = await supervisor.get("/directory_history");
        expect(own.status).toBe(200);
        expect(own.body.data.every((r: { agency_id: string }) => r.agency_id === dnipro)).toBe(true);
        // Another partner's change answers as one that does not exist.
        expect((await supervisor.get(`/directory_history/${change}`)).status).toBe(404);
        const malformed = await admin.get(`/directory_history/${"f".repeat(36)}`);
        expect([malformed.status, malformed.body.errors?.[0]?.code]).toEqual([404, "change_not_found"]);
      });
      expect(scans).toBe(0);
    },
    COUNTED_TIMEOUT,
  );

  it(
    "when a supervisor pages through the partner's history, then the log is read along the chain, not scanned",
    async () => {
      const seen: { stream_id: string; data: { agency_id?: string; locator?: string } }[] = [];
      const work = async () => {
        let after: number | null = null;
        for (let page = 0; page < 3; page++) {
          const res = await supervisor.get("/audit/events", {
            query: { limit: "50", ...(after === null ? {} : { after_seq: String(after) }) },
          });
          expect(res.status).toBe(200);
          seen.push(...res.body.data.events);
          after = res.body.data.next_after_seq;
          expect(after).not.toBeNull();
        }
      };
      const log = await readsOf(["es.chain", "es.events"], work);
      expect(log.scans).toBe(0);
      // Three full pages of the partner's own: its events, and the events of its bookings recorded by the system.
      expect(seen).toHaveLength(150);
      const seeded = seen.filter((e) => e.stream_id.startsWith("seed-"));
      expect(seeded.length).toBeGreaterThan(0);
      expect(seeded.some((e) => e.data.locator !== undefined)).toBe(true);
      expect(seeded.every((e) => e.data.agency_id === dnipro || e.data.locator !== undefined)).toBe(true);
      // Along the chain, one link in 12 the partner's: about 12 links read for each one shown, then its event and the
      // link before it.
      expect(log.rows).toBeLessThanOrEqual(150 * 12 * 2);
    },
    COUNTED_TIMEOUT,
  );

  it("when long lists and histories are paged, then only the page's rows are joined and sorted, the total counted apart", async () => {
    const pages = [
      {
        client: supervisor,
        path: "/bookings",
        query: { list: "issued" },
        from: "FROM read.bookings b",
        size: 25,
      },
      // An administrator's list: every partner's.
      { client: admin, path: "/bookings", query: { list: "new" }, from: "FROM read.bookings b", size: 25 },
      // A company's movements (seeded movements of other companies name none the directory has).
      {
        client: admin,
        path: "/balance_history",
        query: { company_id: kyiv },
        from: "FROM read.balance_history h",
        size: 50,
      },
      {
        client: admin,
        path: "/directory_history",
        query: {},
        from: "FROM read.directory_history h",
        size: 50,
      },
    ];
    for (const { client, path, query, from, size } of pages) {
      const statements = await caught(async () => {
        const page = await client.get(path, { query });
        expect(page.status).toBe(200);
        expect(page.body.data).toHaveLength(size);
        expect(page.body.meta.total).toBeGreaterThan(2 * size);
      });
      const statement = statements.find((s) => s.text.includes(from) && s.text.includes("LIMIT"));
      if (!statement) throw new Error(`${path} sent no statement reading ${from}`);
      // Every node of the page's own plan (not the count, a subplan of its own) handles at most the page's rows:
      // a window over the list, a sort of it or its joins would handle every row of it.
      const rows = await mostRowsHandled(statement);
      // Named, so that a failure says which list.
      expect([path, rows <= size ? "a page" : rows]).toEqual([path, "a page"]);
    }
  });

  it(
    "when an administrator looks up a company's travellers, then only that company's are read",
    async () => {
      const reads = await readsOf("travellers", async () => {
        const found = await admin.get("/travellers", { query: { company_id: "seed-company-7", q: "LAST7" } });
        expect(found.status).toBe(200);
        expect(found.body.data.length).toBeGreaterThan(0);
        expect(found.body.data.every((r: { company_id: string }) => r.company_id === "seed-company-7")).toBe(
          true,
        );
      });
      expect(reads.scans).toBe(0);
      // The company keeps one in 300 of them.
      expect(reads.rows).toBeLessThanOrEqual(ROWS / 300 + 10);
    },
    COUNTED_TIMEOUT,
  );
});
