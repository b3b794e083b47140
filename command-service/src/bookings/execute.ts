import { type BookingEventInput, StoredBookingEvent } from "@skyward/contracts/booking-events";
import type { EventMetadata } from "@skyward/contracts/metadata";
import { formatPosition } from "@skyward/contracts/position";
import {
  type CommandContext,
  type CommandOptions,
  foldNew,
  runCommand,
} from "@skyward/infra/event-store/command";
import { metadataFor, systemMetadata } from "@skyward/infra/event-store/metadata";
import type { AppendResult, StreamAppend } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import {
  type BalanceCommand,
  balanceStream,
  decide as decideBalance,
  evolveBalance,
  initialBalance,
} from "../balances/balance.ts";
import type { CommandDeps } from "../deps.ts";
import { guardAppends, type StreamVersion } from "../offers/selling-context.ts";
import { assertMayActOn } from "./access.ts";
import {
  type ActiveBooking,
  type BookingCommand,
  type BookingState,
  bookingStream,
  decide,
  evolveBooking,
  initialBooking,
} from "./booking.ts";

export const position = (append: AppendResult) => (append.position ? formatPosition(append.position) : null);

/** Who runs a booking command: a caller (checked against the booking, answered 404 outside its scope) or the system. */
export type Actor = { principal: Principal; context: RequestContext } | { system: EventMetadata };

export interface BookingCommandResult {
  booking: ActiveBooking;
  events: BookingEventInput[];
  append: AppendResult;
  position: string | null;
}

/**
 * Runs one command on a booking in the command runner: read (or trust this process's fold), check the caller may
 * act on it, build the command on that state, decide, and append the booking's events together with what they move
 * on the company balance (a charge at the start of an issue or exchange, a credit when it fails, or a void or refund succeeds). A version
 * conflict re-runs it all on fresh state, and a refusal decided on a remembered state is decided again on a read.
 * `turnAt`: the attempts take turns at that stream (StreamLocks), each until its append is handed to the store.
 */
export async function onBooking(
  deps: CommandDeps,
  actor: Actor,
  locator: string,
  build: (booking: ActiveBooking) => Decision | Promise<Decision>,
  options: { turnAt?: string } = {},
): Promise<BookingCommandResult> {
  const stream = bookingStream(locator);
  const { result, append } = await runCommand(
    deps.store,
    async (cmd) => {
      const loaded = await cmd.load(stream, evolveBooking, initialBooking, { trusted: true });
      const booking = await mayActOn(deps, actor, loaded.state);
      const built = await build(booking);
      const { command, guard } = "command" in built ? built : { command: built, guard: [] };
      const metadata =
        "system" in actor
          ? actor.system
          : metadataFor(actor.context, { agency_id: booking.agency_id, company_id: booking.company_id });
      const events = decide(command, booking);
      const decided = await appendDecided(cmd, {
        stream,
        expected: loaded.version,
        state: booking,
        events,
        metadata,
        locator,
      });
      return { ...decided, appends: [...decided.appends, ...guardAppends(guard)] };
    },
    turnOf(deps, options.turnAt),
  );
  return { ...result, append, position: position(append) };
}

/** runCommand's options for a command that takes turns at `streamId` (a company balance it charges), if any. */
export const turnOf = (deps: CommandDeps, streamId: string | undefined): CommandOptions =>
  streamId ? { turn: () => deps.streamLocks.acquire(streamId) } : {};

/**
 * A command, or a command with the streams besides the booking it was decided on (a selling context's `read`): its
 * append is refused if any moved meanwhile, and the builder runs again (runCommand's retry).
 */
export type Decision = BookingCommand | { command: BookingCommand; guard: readonly StreamVersion[] };

async function mayActOn(deps: CommandDeps, actor: Actor, state: BookingState): Promise<ActiveBooking> {
  if ("principal" in actor) return assertMayActOn(deps.store, actor.principal, state);
  if (state.status === "none") throw new NotFound("No such booking", "booking_not_found");
  return state;
}

/**
 * The appends of decided booking events: the booking's own, and the company balance's when the events move money,
 * decided by the balance decider on the balance's state (so a charge can never take it below zero).
 */
export async function appendDecided(
  cmd: CommandContext,
  decided: {
    stream: string;
    expected: number | "no_stream";
    state: BookingState;
    events: BookingEventInput[];
    metadata: EventMetadata;
    locator: string;
  },
): Promise<{ appends: StreamAppend[]; result: { booking: ActiveBooking; events: BookingEventInput[] } }> {
  const { stream, metadata } = decided;
  // Defaults applied (the deep shapes are the deciders' types, checked in depth by the decider tests): every read
  // of the stream checks the small fields again and takes the large parts as stored.
  const events = decided.events.map((e) => StoredBookingEvent.parse(e));
  const version = (decided.expected === "no_stream" ? 0 : decided.expected) + events.length;
  const booking = foldNew(evolveBooking, decided.state, stream, events.map(withMetadata(metadata)), version);
  if (booking.status === "none") throw new NotFound("No such booking", "booking_not_found");
  const appends: StreamAppend[] = [
    { streamId: stream, expected: decided.expected, events: events.map(withMetadata(metadata)) },
  ];
  const money = moneyMoved(events, booking.company_id, decided.locator);
  if (money.length > 0) {
    const balance = await cmd.load(balanceStream(booking.company_id), evolveBalance, initialBalance, {
      trusted: true,
    });
    appends.push({
      streamId: balanceStream(booking.company_id),
      expected: balance.version,
      events: money.flatMap((c) => decideBalance(c, balance.state)).map(withMetadata(metadata)),
    });
  }
  return { appends, result: { booking, events } };
}

const withMetadata =
  (metadata: EventMetadata) =>
  <E extends { type: string; data: unknown }>(event: E) => ({ ...event, metadata });

/** What booking events move on the company balance: one place, so no path can charge or credit on its own. */
function moneyMoved(
  events: readonly BookingEventInput[],
  companyId: string,
  locator: string,
): BalanceCommand[] {
  const moved: BalanceCommand[] = [];
  for (const e of events) {
    const base = {
      company_id: companyId,
      locator,
      operation_id: ("operation_id" in e.data && e.data.operation_id) || undefined,
    };
    if (e.type === "TicketingStarted" && e.data.charged)
      moved.push({ type: "ChargeBalance", ...base, amount: e.data.charged, reason: "issue" });
    if (e.type === "TicketingFailed" && e.data.credited)
      moved.push({ type: "CreditBalance", ...base, amount: e.data.credited, reason: "issue_failed" });
    if (e.type === "BookingVoided" && e.data.credited)
      moved.push({ type: "CreditBalance", ...base, amount: e.data.credited, reason: "void" });
    if (e.type === "TicketsRefunded" && e.data.credited)
      moved.push({ type: "CreditBalance", ...base, amount: e.data.credited, reason: "refund" });
    if (e.type === "ExchangeStarted" && e.data.charged)
      moved.push({ type: "ChargeBalance", ...base, amount: e.data.charged, reason: "exchange" });
    if (e.type === "ExchangeFailed" && e.data.credited)
      moved.push({ type: "CreditBalance", ...base, amount: e.data.credited, reason: "exchange_failed" });
    if (e.type === "AncillariesStarted" && e.data.charged)
      moved.push({ type: "ChargeBalance", ...base, amount: e.data.charged, reason: "ancillaries" });
    if (e.type === "AncillariesFailed" && e.data.credited)
      moved.push({ type: "CreditBalance", ...base, amount: e.data.credited, reason: "ancillaries_failed" });
    if (e.type === "EmdRefunded" && e.data.credited)
      moved.push({ type: "CreditBalance", ...base, amount: e.data.credited, reason: "emd_refund" });
  }
  return moved;
}

/** Metadata of a command the system runs on its own (reconciliation, expiry, confirmations). */
export const systemActor = (traceId?: string): Actor => ({ system: systemMetadata(traceId) });
