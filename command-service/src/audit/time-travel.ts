import {
  AsOfKind,
  AsOfQuery,
  type AsOfResponse,
  type AsOfState,
  type StateChange,
} from "@skyward/contracts/audit";
import { Locator } from "@skyward/contracts/bookings";
import { storedVersion, upcastEvent } from "@skyward/contracts/event-versions";
import { type SealedPersonalData, type TravellerAsOf, TravellerProfile } from "@skyward/contracts/travellers";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { requirePrincipal } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { travellerKey, unseal } from "@skyward/infra/travellers/personal-data";
import { Router } from "express";
import type pg from "pg";
import { balanceStream, evolveBalance, initialBalance } from "../balances/balance.ts";
import { assertMayActOn } from "../bookings/access.ts";
import { evolveBooking, initialBooking } from "../bookings/booking.ts";
import type { CommandDeps } from "../deps.ts";
import { channelStream, evolveChannel, initialChannel } from "../ticketing/channel.ts";
import {
  evolveTraveller,
  noTraveller,
  type TravellerState,
  travellerStream,
} from "../travellers/traveller.ts";

/** Read-only callers who see every stream's past (administrators; auditors read everything too). */
const SEES_ALL: readonly string[] = ["Admin", "Support", "Auditor"];

/** A stream's events recorded up to `at`, in order (the write model's own fold, stopped at a moment). */
async function eventsUntil(pool: pg.Pool, streamId: string, at: string): Promise<StoredEvent[]> {
  const { rows } = await pool.query<{
    global_position: string;
    transaction_id: string;
    stream_position: number;
    event_id: string;
    event_type: string;
    data: unknown;
    metadata: StoredEvent["metadata"];
    recorded_at: Date;
  }>(
    `SELECT global_position::text, transaction_id::text, stream_position, event_id, event_type, data, metadata,
            recorded_at
       FROM es.events WHERE stream_id = $1 AND recorded_at <= $2::timestamptz ORDER BY stream_position`,
    [streamId, at],
  );
  return rows.map((r) => ({
    globalPosition: BigInt(r.global_position),
    transactionId: BigInt(r.transaction_id),
    streamId,
    streamPosition: Number(r.stream_position),
    eventId: r.event_id,
    type: r.event_type,
    data: upcastEvent(r.event_type, r.data, storedVersion(r.metadata)),
    metadata: r.metadata,
    recordedAt: r.recorded_at,
  }));
}

/** Every difference between two JSON values, by path ("/tickets/0/number"). */
export function diffStates(before: unknown, after: unknown, path = ""): StateChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (isObject(before) && isObject(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => diffStates(before[k], after[k], `${path}/${k}`));
  }
  return [{ path: path || "/", before: before ?? null, after: after ?? null }];
}

interface Folder {
  streamId: string;
  fold(events: readonly StoredEvent[]): unknown | Promise<unknown>;
  /** Refuses (404) a caller who may not see this stream today. */
  authorize(p: Principal): Promise<void>;
}

const redactChannel = (state: unknown): unknown => {
  const s = state as { ticketing_card?: { id: string; token: string } | null };
  // The card's payment token is a secret even in the past.
  return s.ticketing_card ? { ...s, ticketing_card: { id: s.ticketing_card.id, token: "redacted" } } : s;
};

function folder(deps: CommandDeps, kind: AsOfKind, id: string): Folder {
  const { pool, store } = deps;
  const notFound = () => new NotFound(`No such ${kind}`, `${kind}_not_found`);
  switch (kind) {
    case "booking": {
      if (!Locator.safeParse(id).success) throw notFound();
      const streamId = `booking-${id}`;
      return {
        streamId,
        fold: (events) => events.reduce(evolveBooking, initialBooking),
        async authorize(p) {
          const { state } = await store.fold(streamId, evolveBooking, initialBooking);
          if (SEES_ALL.includes(p.userType) && !p.demo && state.status !== "none") return;
          await assertMayActOn(store, p, state);
        },
      };
    }
    case "balance": {
      const streamId = balanceStream(id);
      return {
        streamId,
        fold: (events) => events.reduce(evolveBalance, initialBalance),
        async authorize(p) {
          const { rows } = await pool.query<{ agency_id: string }>(
            "SELECT agency_id FROM read.companies WHERE id = $1",
            [id],
          );
          const company = rows[0];
          const allowed =
            company &&
            !p.demo &&
            (SEES_ALL.includes(p.userType) ||
              (p.userType === "Supervisor" && company.agency_id === p.agencyId) ||
              (p.userType === "Agent" && p.companyIds.includes(id)));
          if (!allowed) throw notFound();
        },
      };
    }
    case "traveller": {
      const streamId = travellerStream(id);
      return {
        streamId,
        fold: async (events) => travellerAsOf(events, await travellerKey(pool, id)),
        async authorize(p) {
          const { state } = await store.fold(streamId, evolveTraveller, noTraveller);
          if (state.status === "none" || !mayReadTraveller(p, state)) throw notFound();
        },
      };
    }
    case "channel": {
      const streamId = channelStream(id);
      return {
        streamId,
        fold: (events) => redactChannel(events.reduce(evolveChannel, initialChannel)),
        async authorize(p) {
          const { state } = await store.fold(streamId, evolveChannel, initialChannel);
          const allowed =
            state.status !== "none" &&
            !p.demo &&
            (SEES_ALL.includes(p.userType) ||
              (p.userType === "Supervisor" && state.agency_id !== null && state.agency_id === p.agencyId));
          if (!allowed) throw notFound();
        },
      };
    }
  }
}

/** Who sees a traveller's past: whoever sees the traveller today (query-service's travellerScope). */
function mayReadTraveller(p: Principal, t: Exclude<TravellerState, { status: "none" }>): boolean {
  if (p.demo) return t.demo_owner === p.userId;
  if (t.demo_owner !== null) return false;
  if (SEES_ALL.includes(p.userType)) return true;
  if (p.userType === "Supervisor") return t.agency_id === p.agencyId;
  return p.userType === "Agent" && p.companyIds.includes(t.company_id);
}

/**
 * A traveller folded up to a moment, its personal fields unsealed with the key kept today: none once erased (every
 * moment, the ones before the erasure too), which the state says in `personal_erased`.
 */
export function travellerAsOf(events: readonly StoredEvent[], key: Buffer | null): TravellerAsOf {
  const state = events.reduce(evolveTraveller, noTraveller);
  if (state.status === "none") return state;
  const sealed = events
    .map((e) => (e.data as { personal?: SealedPersonalData }).personal)
    .filter((personal) => personal !== undefined)
    .at(-1);
  const personal = key && sealed ? TravellerProfile.parse(unseal(key, sealed)) : null;
  return { ...state, personal_erased: key === null, personal };
}

/**
 * Time travel (issue 14): a booking, a company balance or a channel's settings as they were at a moment, folded by
 * the write model's own evolve from the events recorded up to it, and the difference with another moment.
 */
export function timeTravelRoutes(deps: CommandDeps): Router {
  const router = Router();
  router.get("/audit/as_of/:kind/:id", async (req, res) => {
    const p = requirePrincipal(req);
    const kind = AsOfKind.safeParse(req.params.kind);
    if (!kind.success) throw new NotFound(`No route for ${req.method} ${req.path}`, "route_not_found");
    const id = String(req.params.id);
    // Ids are short printable words: anything else (a NUL, a megabyte) names nothing and never reaches the database.
    if (!/^[\w.:-]{1,200}$/.test(id)) throw new NotFound(`No such ${kind.data}`, `${kind.data}_not_found`);
    const query = parseInput(AsOfQuery, req.query, "query");
    const f = folder(deps, kind.data, id);
    await f.authorize(p);
    const at = async (moment: string): Promise<AsOfState & { raw: unknown }> => {
      const events = await eventsUntil(deps.pool, f.streamId, moment);
      const last = events.at(-1);
      const state = await f.fold(events);
      return {
        at: new Date(moment).toISOString(),
        version: last?.streamPosition ?? 0,
        last_event: last ? { type: last.type, recorded_at: last.recordedAt.toISOString() } : null,
        state,
        raw: state,
      };
    };
    const { raw: before, ...asOf } = await at(query.at);
    const compared = query.compare ? await at(query.compare) : null;
    const body: AsOfResponse = {
      kind: kind.data,
      id,
      stream_id: f.streamId,
      as_of: asOf,
      compared: compared
        ? {
            at: compared.at,
            version: compared.version,
            last_event: compared.last_event,
            state: compared.state,
          }
        : null,
      changes: compared ? diffStates(before, compared.raw) : [],
    };
    res.json({ data: body });
  });
  return router;
}
