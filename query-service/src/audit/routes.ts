import { setTimeout as sleep } from "node:timers/promises";
import {
  type AuditNames,
  AuditNamesQuery,
  type HistoryPage,
  HistoryQuery,
  VerifyQuery,
} from "@skyward/contracts/audit";
import type { UserType } from "@skyward/contracts/metadata";
import { comparePositions, Position, parsePosition } from "@skyward/contracts/position";
import { SealedPersonalData } from "@skyward/contracts/travellers";
import {
  type ChainFilter,
  chainHead,
  listAnchors,
  readChained,
  verifyChain,
} from "@skyward/infra/audit/chain";
import { exportLines } from "@skyward/infra/audit/export";
import { requirePrincipal, requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { parseInput } from "@skyward/infra/http/validate";
import { unseal } from "@skyward/infra/travellers/personal-data";
import { type Request, type Response, Router } from "express";
import type pg from "pg";
import type { QueryDeps } from "../deps.ts";
import { bookingScope } from "../scope.ts";

/** Who reads the whole log and checks it: the administrators (and, read-only, auditors). */
export const LOG_READERS: readonly UserType[] = ["Admin", "Support", "Auditor"];

/**
 * The history a caller may see, as a condition on alias `c` (es.chain): everything for the log's readers, their
 * agency's events and bookings for a supervisor, the events of the bookings an agent may see for an agent.
 */
export function historyScope(p: Principal, offset: number): { sql: string; params: unknown[] } {
  if (!p.demo && LOG_READERS.includes(p.userType)) return { sql: "true", params: [] };
  const bookings = bookingScope(p, offset);
  const ofBookings = `c.locator IN (SELECT b.locator FROM read.bookings b WHERE ${bookings.sql})`;
  if (!p.demo && p.userType === "Supervisor")
    return {
      sql: `(c.agency_id = $${offset + bookings.params.length + 1} OR ${ofBookings})`,
      params: [...bookings.params, p.agencyId],
    };
  return { sql: ofBookings, params: bookings.params };
}

/** The names of the users who acted in a page of history (an actor is shown by name, not by id). */
async function actorNames(pool: pg.Pool, ids: (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; name: string | null }>(
    `SELECT id, nullif(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), '') AS name
       FROM read.users WHERE id = ANY($1::text[])`,
    [wanted],
  );
  return new Map(rows.flatMap((row) => (row.name ? [[row.id, row.name] as const] : [])));
}

/**
 * Read-your-writes for the history: with `X-Min-Position` (the caller's last command), wait until the chainer has
 * linked that place in the feed (about a second behind the appends), or answer flagged `x-stale` after 2 s.
 */
async function chainedUpTo(pool: pg.Pool, req: Request, res: Response): Promise<void> {
  const header = req.get("x-min-position");
  if (!header) return;
  const min = parsePosition(parseInput(Position, header, "header"));
  const deadline = Date.now() + 2000;
  for (;;) {
    const head = await chainHead(pool);
    if (comparePositions({ tx: BigInt(head.tx), gp: BigInt(head.gp) }, min) >= 0) return;
    if (Date.now() > deadline) {
      res.setHeader("x-stale", "true");
      return;
    }
    await sleep(50);
  }
}

const filterOf = (q: HistoryQuery): ChainFilter => ({
  stream_id: q.stream_id,
  locator: q.locator,
  company_id: q.company_id,
  agency_id: q.agency_id,
  actor_id: q.actor_id,
  trace_id: q.trace_id,
  from: q.from,
  to: q.to,
  after_seq: q.after_seq,
});

type TravellerNames = NonNullable<HistoryPage["events"][number]["traveller"]>;

/**
 * The names each traveller event of a page sealed, read with the keys kept today (one query): an erased traveller's
 * events say `erased` and show no name.
 */
async function travellerNames(
  pool: pg.Pool,
  events: readonly { event_id: string; stream_id: string; data: unknown }[],
): Promise<Map<string, TravellerNames>> {
  const sealedEvents = events.flatMap((e) => {
    const personal = (e.data as { personal?: unknown } | null)?.personal;
    const sealed = SealedPersonalData.safeParse(personal);
    return e.stream_id.startsWith("traveller-") && sealed.success
      ? [{ id: e.event_id, traveller: e.stream_id.slice("traveller-".length), sealed: sealed.data }]
      : [];
  });
  if (sealedEvents.length === 0) return new Map();
  const { rows } = await pool.query<{ traveller_id: string; key: Buffer }>(
    "SELECT traveller_id, key FROM app.traveller_keys WHERE traveller_id = ANY($1)",
    [[...new Set(sealedEvents.map((e) => e.traveller))]],
  );
  const keys = new Map(rows.map((r) => [r.traveller_id, r.key]));
  return new Map(
    sealedEvents.map(({ id, traveller, sealed }): [string, TravellerNames] => {
      const key = keys.get(traveller);
      if (!key) return [id, { erased: true, first_name: null, last_name: null }];
      const profile = unseal(key, sealed) as { first_name?: string; last_name?: string };
      return [
        id,
        { erased: false, first_name: profile.first_name ?? null, last_name: profile.last_name ?? null },
      ];
    }),
  );
}

/** The event history, its export and the tamper-evident log's verifier (issue 14). Reads es.chain and es.events. */
export function auditRoutes({ pool }: QueryDeps): Router {
  const router = Router();

  /** Events by stream, booking, company, agency, actor, trace or time range, each with its link in the chain. */
  router.get("/audit/events", async (req, res) => {
    const p = requirePrincipal(req);
    const query = parseInput(HistoryQuery, req.query, "query");
    await chainedUpTo(pool, req, res);
    const page = await readChained(pool, filterOf(query), query.limit, (offset) => historyScope(p, offset));
    const travellers = await travellerNames(
      pool,
      page.map((c) => c.event),
    );
    const actors = await actorNames(
      pool,
      page.map((c) => (c.event.metadata as HistoryPage["events"][number]["metadata"]).actor?.user_id),
    );
    const body: HistoryPage = {
      events: page.map((c) => ({
        seq: c.seq,
        global_position: c.event.global_position,
        stream_id: c.event.stream_id,
        stream_position: Number(c.event.stream_position),
        event_id: c.event.event_id,
        type: c.event.event_type,
        recorded_at: c.event.recorded_at,
        data: c.event.data,
        metadata: c.event.metadata as HistoryPage["events"][number]["metadata"],
        actor_name:
          actors.get((c.event.metadata as HistoryPage["events"][number]["metadata"]).actor?.user_id ?? "") ??
          null,
        hash: c.hash,
        ...(travellers.has(c.event.event_id) ? { traveller: travellers.get(c.event.event_id) } : {}),
      })),
      next_after_seq: page.length === query.limit ? (page.at(-1)?.seq ?? null) : null,
    };
    res.json({ data: body });
  });

  /**
   * The history's pickers: people and companies found by name (or e-mail, or their id: a picker's value read back
   * from the address), within what the caller's history shows: everyone for the log's readers, the agency's for a
   * supervisor, an agent's own self and companies.
   */
  router.get("/audit/names", async (req, res) => {
    const p = requirePrincipal(req);
    const { q } = parseInput(AuditNamesQuery, req.query, "query");
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const everything = !p.demo && LOG_READERS.includes(p.userType);
    const agency = !p.demo && p.userType === "Supervisor" ? p.agencyId : null;
    const [people, companies] = await Promise.all([
      pool.query<{ id: string; name: string; role: string }>(
        `SELECT id, trim(first_name || ' ' || last_name) AS name, user_type AS role FROM read.users
          WHERE ((first_name || ' ' || last_name) ILIKE $1 OR email ILIKE $1 OR id = $5)
            AND ($2::boolean OR ($3::text IS NOT NULL AND agency_id = $3) OR id = $4)
          ORDER BY last_name, first_name LIMIT 20`,
        [pattern, everything, agency, p.userId, q],
      ),
      pool.query<{ id: string; name: string }>(
        `SELECT id, name FROM read.companies
          WHERE NOT deleted AND (name ILIKE $1 OR id = $5)
            AND ($2::boolean OR ($3::text IS NOT NULL AND agency_id = $3) OR id = ANY($4::text[]))
          ORDER BY name LIMIT 20`,
        [pattern, everything, agency, [...p.companyIds], q],
      ),
    ]);
    res.json({ data: { people: people.rows, companies: companies.rows } satisfies AuditNames });
  });

  /** The same selection as JSON Lines, with the chain hashes to check it offline (npm run verify-log -- --file). */
  router.get("/audit/export", async (req, res) => {
    const p = requirePrincipal(req);
    const query = parseInput(HistoryQuery, req.query, "query");
    await chainedUpTo(pool, req, res);
    const lines = exportLines(pool, filterOf(query), (offset) => historyScope(p, offset));
    // A client that asks for JSON only gets the same lines as one JSON document: {data: [header, ...events]}.
    if (req.accepts(["application/x-ndjson", "application/json"]) === "application/json") {
      const entries: unknown[] = [];
      for await (const line of lines) entries.push(JSON.parse(line));
      res.json({ data: entries });
      return;
    }
    res.type("application/x-ndjson");
    res.setHeader("content-disposition", 'attachment; filename="skyward-events.jsonl"');
    for await (const line of lines)
      if (!res.write(line)) await new Promise((resolve) => res.once("drain", resolve));
    res.end();
  });

  /** Checks the whole log or a range of links; names the first event that does not match. */
  router.get("/audit/verify", async (req, res) => {
    requireUserType(req, ...LOG_READERS);
    const query = parseInput(VerifyQuery, req.query, "query");
    res.json({ data: await verifyChain(pool, { fromSeq: query.from_seq, toSeq: query.to_seq }) });
  });

  /** Every anchor (the chain head at moments), to keep outside the database. */
  router.get("/audit/anchors", async (req, res) => {
    requireUserType(req, ...LOG_READERS);
    res.json({ anchors: await listAnchors(pool) });
  });

  return router;
}
