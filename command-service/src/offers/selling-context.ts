import { AgencyEvent, CompanyEvent } from "@skyward/contracts/directory";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { Currency } from "@skyward/contracts/money";
import type { PricingPolicy } from "@skyward/contracts/pricing";
import type { SupplierCredentials } from "@skyward/contracts/supplier";
import type { ChangeNotices } from "@skyward/infra/event-store/change-notices";
import { EventStore } from "@skyward/infra/event-store/event-store";
import type { StoredEvent, StreamAppend } from "@skyward/infra/event-store/types";
import type { Principal } from "@skyward/infra/http/context";
import { IllegalState, InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import {
  type ChannelState,
  channelStream,
  evolveChannel,
  evolveGlobalGates,
  GATES_STREAM,
  type Gates,
  openGlobalGates,
} from "../ticketing/channel.ts";
import { ChannelCredentialStore, ChannelCredentialsCache } from "../ticketing/credentials.ts";

/** Who sells, from which channel, at which markups: everything a supplier call and pricing need. */
export interface SellingContext {
  companyId: string;
  agencyId: string;
  currency: Currency;
  channelId: string;
  channel: ChannelState;
  policy: PricingPolicy;
  gates: Gates;
  credentials: SupplierCredentials;
  /**
   * The streams this context was folded from, at the versions read: a write that depends on it (a search page, an
   * issue's claim) carries them as its guard and is refused if any moved meanwhile (see `guardAppends`), so a gate
   * closed in another process a moment ago is never missed, at no extra round trip.
   */
  read: readonly StreamVersion[];
}

/** A stream at the version a decision read it (0: no stream). */
export interface StreamVersion {
  streamId: string;
  version: number;
}

/** Empty appends that only check their stream is still at the version read (es.append checks expected versions). */
export const guardAppends = (read: readonly StreamVersion[]): StreamAppend[] =>
  read.map(({ streamId, version }) => ({
    streamId,
    expected: version === 0 ? "no_stream" : version,
    events: [],
  }));

interface CompanyFacts {
  agency_id: string | null;
  currency: Currency | null;
  markups: PricingPolicy["company_markups"];
  gate: boolean;
}
interface AgencyFacts {
  markups: PricingPolicy["agency_markups"];
  transaction_fee: PricingPolicy["transaction_fee"];
  gate: boolean;
}

function foldCompany(state: CompanyFacts, stored: StoredEvent): CompanyFacts {
  const event = parseEvent(CompanyEvent, stored);
  switch (event.type) {
    case "CompanyRegistered":
      return { ...state, agency_id: event.data.agency_id, currency: event.data.currency };
    case "CompanyMarkupsSet":
      return { ...state, markups: event.data.markups };
    case "CompanyGateToggled":
      return { ...state, gate: event.data.active };
    case "CompanySharedBookingsSet":
      return state;
    case "CompanyDeleted":
      // A deleted company sells no more: it is answered as if it never existed.
      return { ...state, agency_id: null, currency: null };
    default:
      return unhandledEvent(event);
  }
}

function foldAgency(state: AgencyFacts, stored: StoredEvent): AgencyFacts {
  const event = parseEvent(AgencyEvent, stored);
  switch (event.type) {
    case "AgencyRegistered":
      return state;
    case "AgencyPricingSet":
      return { ...state, markups: event.data.markups, transaction_fee: event.data.transaction_fee };
    case "AgencyGateToggled":
      return { ...state, gate: event.data.active };
    case "AgencyUpdated":
    case "AgencyFlagSet":
    case "AgencyTimeZoneSet":
      return state;
    case "AgencyDeleted":
      return { ...state, gate: false };
    default:
      return unhandledEvent(event);
  }
}

const NO_COMPANY: CompanyFacts = { agency_id: null, currency: null, markups: [], gate: true };
const NO_AGENCY: AgencyFacts = { markups: [], transaction_fee: null, gate: true };
const NO_CHANNEL: ChannelState = { status: "none" };

/**
 * Each cached stream's fold, kept with the events it was folded from (issue 26: every search and booking command
 * parsed its four directory streams' events with zod and folded them again, about a millisecond of the main thread
 * per booking flow). DirectoryCache hands out the same array while an entry lives and a new one once it is read
 * again, so a fold is computed once per read of its stream; the states are shared, and nobody changes them.
 */
const foldsOf = new WeakMap<readonly StoredEvent[], Map<unknown, unknown>>();
let folds = 0;

export function foldOnce<State>(
  events: readonly StoredEvent[],
  evolve: (state: State, event: StoredEvent) => State,
  initial: State,
): State {
  if (events.length === 0) return initial;
  let known = foldsOf.get(events);
  if (!known) {
    known = new Map();
    foldsOf.set(events, known);
  }
  if (known.has(evolve)) return known.get(evolve) as State;
  folds++;
  const state = events.reduce(evolve, initial);
  known.set(evolve, state);
  return state;
}

/** How many directory streams this process has folded (tests: none again while the cache holds them). */
export const directoryFolds = (): number => folds;

/** The company a caller acts for: their own (agents, supervisors) or the one named (supervisors, admins). */
export function companyFor(principal: Principal, requested: string | undefined): string {
  if (requested) {
    if (principal.userType === "Agent" && !principal.companyIds.includes(requested)) {
      throw new NotFound("No such company", "company_not_found");
    }
    return requested;
  }
  const own = principal.companyIds[0];
  if (!own) {
    throw new InvalidInput([
      { pointer: "/company_id", detail: "is required: choose the company you book for" },
    ]);
  }
  return own;
}

/**
 * How long an entry is kept at most: the safety net behind ChangeNotices, which tell this process of another
 * process's change at once (a notice lost to a broken listener connection is covered by this).
 */
export const DIRECTORY_CACHE_MS = 1000;
const CACHED_STREAM_TYPES = new Set(["company", "agency", "channel", GATES_STREAM.split("-")[0]]);

export interface DirectoryCacheOptions {
  ttlMs?: number;
  capacity?: number;
  /** Other processes' changes; without them, their changes are seen within ttlMs. */
  notices?: ChangeNotices;
  /** The key channel credentials are stored with (ticketing/credentials.ts); without it only the sandbox's own. */
  credentialsKey?: Buffer | null;
}

/**
 * The streams a selling context is folded from (company, agency, channel, global gates) and each agency's first
 * active channel, kept in memory: every search and booking command needs them, and they are rarely written. An
 * append of this process (EventStore.onAppend) or of another one (ChangeNotices) drops what it changed at once,
 * so a gate closed anywhere applies to the next request; ttlMs bounds what a lost notice can cost. Reads that a
 * change overtook are not kept.
 */
export class DirectoryCache {
  private readonly streams: LRUCache<string, { events: StoredEvent[] }>;
  private readonly channels: LRUCache<string, { id: string | undefined }>;
  /** Bumped by every change to a cached kind of stream, here or elsewhere. */
  private epoch = 0;
  readonly close: () => void;
  /** Each channel's decrypted supplier credentials, per version of its stream. */
  readonly credentials: ChannelCredentialsCache;

  constructor(
    private readonly store: EventStore,
    private readonly pool: pg.Pool,
    options: DirectoryCacheOptions = {},
  ) {
    const limits = { max: options.capacity ?? 10_000, ttl: options.ttlMs ?? DIRECTORY_CACHE_MS };
    this.streams = new LRUCache(limits);
    this.channels = new LRUCache(limits);
    this.credentials = new ChannelCredentialsCache(
      new ChannelCredentialStore(pool, options.credentialsKey ?? null),
    );
    const stopAppends = EventStore.onAppend((streamIds) => this.changed(streamIds));
    const stopNotices = options.notices?.onChange((keys) => this.changed(keys));
    this.close = () => {
      stopAppends();
      stopNotices?.();
    };
  }

  private changed(streamIds: readonly string[] | "all"): void {
    if (streamIds === "all") {
      this.epoch++;
      this.streams.clear();
      this.channels.clear();
      return;
    }
    for (const id of streamIds) {
      const type = id.slice(0, id.indexOf("-"));
      if (!CACHED_STREAM_TYPES.has(type)) continue;
      this.epoch++;
      this.streams.delete(id);
      if (type === "channel") this.channels.clear();
    }
  }

  /**
   * Several whole streams (EventStore.readStreams), the ones not in memory in one round trip; `fresh`: all of them
   * read now (what moves money decides on gates as they are, not as another process's notice last said).
   */
  async readStreams(
    streamIds: readonly string[],
    options: { fresh?: boolean } = {},
  ): Promise<Map<string, StoredEvent[]>> {
    const found = new Map<string, StoredEvent[]>();
    const missing: string[] = [];
    for (const id of streamIds) {
      const entry = options.fresh ? undefined : this.streams.get(id);
      if (entry) found.set(id, entry.events);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const epoch = this.epoch;
    for (const [id, events] of await this.store.readStreams(missing)) {
      found.set(id, events);
      if (epoch === this.epoch) this.streams.set(id, { events });
    }
    return found;
  }

  /** The agency's oldest channel that is active for both its admin and its supervisor. */
  async firstActiveChannel(agencyId: string): Promise<string | undefined> {
    const entry = this.channels.get(agencyId);
    if (entry) return entry.id;
    const epoch = this.epoch;
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM read.channels WHERE agency_id = $1 AND NOT deleted AND active_by_admin AND active_by_supervisor
        ORDER BY created_at LIMIT 1`,
      [agencyId],
    );
    const id = rows[0]?.id;
    if (epoch === this.epoch) this.channels.set(agencyId, { id });
    return id;
  }
}

/**
 * Folds the company, its agency, the global gates and the channel. For a caller of an agency, every stream is read
 * in one round trip (the agency is known from the caller, then checked against the company's); administrators
 * act across agencies, so theirs takes a second one.
 */
export async function sellingContext(
  deps: { directory: DirectoryCache },
  principal: Principal,
  companyId: string,
  channelId?: string,
  options: { fresh?: boolean } = {},
): Promise<SellingContext> {
  const isAdmin = principal.userType === "Admin" || principal.userType === "Support";
  const companyStream = `company-${companyId}`;
  const guess = isAdmin ? null : principal.agencyId;
  const [streams, guessedChannel] = await Promise.all([
    deps.directory.readStreams(
      [
        companyStream,
        GATES_STREAM,
        ...(guess ? [`agency-${guess}`] : []),
        ...(channelId ? [channelStream(channelId)] : []),
      ],
      options,
    ),
    !channelId && guess ? deps.directory.firstActiveChannel(guess) : undefined,
  ]);
  const company = foldOnce(streams.get(companyStream) ?? [], foldCompany, NO_COMPANY);
  if (!company.agency_id || !company.currency) throw new NotFound("No such company", "company_not_found");
  if (!isAdmin && company.agency_id !== principal.agencyId)
    throw new NotFound("No such company", "company_not_found");
  const agencyId = company.agency_id;

  const id = channelId ?? (guess ? guessedChannel : await deps.directory.firstActiveChannel(agencyId));
  if (!id) throw new IllegalState("Your agency has no active ticketing channel", "no_channel");
  const missing = [`agency-${agencyId}`, channelStream(id)].filter((stream) => !streams.has(stream));
  if (missing.length > 0)
    for (const [stream, events] of await deps.directory.readStreams(missing, options))
      streams.set(stream, events);

  const agency = foldOnce(streams.get(`agency-${agencyId}`) ?? [], foldAgency, NO_AGENCY);
  const global = foldOnce(streams.get(GATES_STREAM) ?? [], evolveGlobalGates, openGlobalGates);
  const channel = foldOnce(streams.get(channelStream(id)) ?? [], evolveChannel, NO_CHANNEL);
  if (channel.status === "none" || channel.agency_id !== agencyId) {
    throw new IllegalState("The ticketing channel of this booking is gone", "channel_missing");
  }
  return {
    companyId,
    agencyId,
    currency: channel.currency,
    channelId: id,
    channel,
    policy: {
      agency_markups: agency.markups,
      company_markups: company.markups,
      transaction_fee: agency.transaction_fee,
    },
    gates: {
      ...global,
      agency: agency.gate,
      company: company.gate,
      company_channel: !channel.companies_off.includes(companyId),
    },
    credentials: await deps.directory.credentials.forChannel({
      id,
      version: streams.get(channelStream(id))?.at(-1)?.streamPosition ?? 0,
      credential_set: channel.credential_set,
    }),
    read: [companyStream, GATES_STREAM, `agency-${agencyId}`, channelStream(id)].map((streamId) => ({
      streamId,
      version: streams.get(streamId)?.at(-1)?.streamPosition ?? 0,
    })),
  };
}

/** What every supplier call carries: the command's moment, the channel's currency and credentials. */
export const supplierCall = (now: Date, ctx: SellingContext) => ({
  now,
  currency: ctx.currency,
  credentials: ctx.credentials,
  // Tickets of a channel that pays by card are paid with its card-vault token, never a card number.
  ...(ctx.channel.status === "active" && ctx.channel.form_of_payment === "card" && ctx.channel.ticketing_card
    ? { card_token: ctx.channel.ticketing_card.token }
    : {}),
});
