import { randomUUID } from "node:crypto";
import { unhandledEvent } from "@skyward/contracts/events";
import { Language } from "@skyward/contracts/ids";
import {
  companyMailStream,
  ItineraryEvent,
  type ItineraryMail,
  type ItineraryMailed,
  itineraryStream,
  type ScheduleChangeMailed,
  type SendItineraryRequest,
} from "@skyward/contracts/itinerary";
import type { EventMetadata } from "@skyward/contracts/metadata";
import { formatPosition } from "@skyward/contracts/position";
import { decidedAppends, runCommand } from "@skyward/infra/event-store/command";
import type { Folded, FoldRequest } from "@skyward/infra/event-store/event-store";
import { metadataFor, systemMetadata } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { IllegalState } from "@skyward/infra/http/errors";
import { assertMayActOn } from "../bookings/access.ts";
import {
  type ActiveBooking,
  type BookingState,
  bookingStream,
  evolveBooking,
  initialBooking,
} from "../bookings/booking.ts";
import type { CommandDeps } from "../deps.ts";
import { evolveCompanyMail, noCompanyMail } from "./settings.ts";

/**
 * The traveller's itinerary e-mails (issue 24, item 1). Each send is first recorded (`ItineraryMailed` on the
 * booking's `itinerary-{locator}` stream: who, to whom, when), then queued as a `send-itinerary` job together with
 * its row in app.itinerary_mails in one transaction (the mails on issue of a sweep's batch: one `send-itineraries`
 * job for them all, batch.ts); the mail sweep queues any recorded mail whose process died before that. The job
 * writes the mail from the booking as it stands and sends it through the mail transport.
 */

export interface ItineraryState {
  mails: ItineraryMailed[];
  /** The traveller's schedule-change mails (issue 24.3), one per change. */
  changeMails: ScheduleChangeMailed[];
}
export const noMails: ItineraryState = { mails: [], changeMails: [] };

export function evolveItinerary(state: ItineraryState, stored: StoredEvent): ItineraryState {
  const event = ItineraryEvent.parse({ type: stored.type, data: stored.data });
  switch (event.type) {
    case "ItineraryMailed":
      return { ...state, mails: [...state.mails, event.data] };
    case "ScheduleChangeMailed":
      return { ...state, changeMails: [...state.changeMails, event.data] };
    default:
      return unhandledEvent(event);
  }
}

/** The traveller is told of a change once. */
export function decideScheduleChangeMail(
  mail: ScheduleChangeMailed,
  state: ItineraryState,
): ItineraryEvent[] {
  if (state.changeMails.some((m) => m.change_id === mail.change_id)) return [];
  return [{ type: "ScheduleChangeMailed", data: mail }];
}

/** A mail is recorded once by its id; the on-issue mail once per booking. */
export function decideItineraryMail(mail: ItineraryMailed, state: ItineraryState): ItineraryEvent[] {
  if (state.mails.some((m) => m.mail_id === mail.mail_id)) return [];
  if (mail.reason === "issued" && state.mails.some((m) => m.reason === "issued")) return [];
  return [{ type: "ItineraryMailed", data: mail }];
}

/** Whether a company mails travellers their itinerary on issue: on unless its supervisor turned it off. */
export async function itineraryOnIssue(deps: CommandDeps, companyId: string): Promise<boolean> {
  const { state } = await deps.store.fold(companyMailStream(companyId), evolveCompanyMail, noCompanyMail);
  return state.itinerary_on_issue;
}

/** The booking's default mail language: its agent's (agencies have no language of their own on file). */
async function defaultLanguage(deps: CommandDeps, booking: ActiveBooking): Promise<Language> {
  const { rows } = await deps.pool.query<{ language: string }>(
    "SELECT language FROM read.users WHERE id = $1",
    [booking.agent_id],
  );
  return Language.catch("en").parse(rows[0]?.language);
}

export const asItineraryMail = (m: ItineraryMailed): ItineraryMail => ({
  mail_id: m.mail_id,
  to: m.to,
  note: m.note,
  language: m.language,
  reason: m.reason,
  by_email: m.by?.email ?? null,
  at: m.at,
});

/**
 * Records a mail once (decideItineraryMail). `read`: the booking's mail stream as the caller has just folded it,
 * decided on without a read of its own; a conflict (appended meanwhile) decides again on the stream read afresh.
 */
async function recordMail(
  deps: CommandDeps,
  mail: ItineraryMailed,
  metadata: EventMetadata,
  read?: Folded<ItineraryState>,
): Promise<{ recorded: boolean; position: string | null }> {
  const stream = itineraryStream(mail.locator);
  let first: Folded<ItineraryState> | null = read ?? null;
  const { result, append } = await runCommand(deps.store, async (cmd) => {
    const { state, version } = first ?? (await cmd.load(stream, evolveItinerary, noMails));
    first = null;
    const events = decideItineraryMail(mail, state);
    return {
      appends: decidedAppends(stream, version, events, metadata),
      result: events.length > 0,
    };
  });
  return { recorded: result, position: append.position ? formatPosition(append.position) : null };
}

/**
 * Records the traveller's schedule-change mail once per change (ScheduleChangeMailed on the booking's mail stream,
 * shown in its history); answers the one recorded, this or the one before.
 */
export async function recordScheduleChangeMail(
  deps: CommandDeps,
  mail: ScheduleChangeMailed,
  traceId: string,
): Promise<ScheduleChangeMailed> {
  const stream = itineraryStream(mail.locator);
  const metadata = {
    ...systemMetadata(traceId),
    scope: { agency_id: mail.agency_id, company_id: mail.company_id },
  };
  const { result } = await runCommand(deps.store, async (cmd) => {
    const { state, version } = await cmd.load(stream, evolveItinerary, noMails);
    const events = decideScheduleChangeMail(mail, state);
    return {
      appends: decidedAppends(stream, version, events, metadata),
      result: state.changeMails.find((m) => m.change_id === mail.change_id) ?? mail,
    };
  });
  return result;
}

/**
 * Queues a recorded mail's job at most once (app.itinerary_mails): the claim, the job and its id in one statement
 * (app.queue_itinerary_mail); false when it was queued already. `onIssue`: the same statement marks the booking's
 * on-issue mail decided (app.itinerary_on_issue).
 */
export async function queueItineraryMail(
  deps: Pick<CommandDeps, "pool" | "jobs">,
  mail: ItineraryMailed,
  traceId: string,
  options: { onIssue?: boolean } = {},
): Promise<boolean> {
  const job = deps.jobs.spec("send-itinerary", { locator: mail.locator, mail_id: mail.mail_id }, { traceId });
  const { rows } = await deps.pool.query<{ job_id: string | null }>(
    "SELECT app.queue_itinerary_mail($1, $2, $3::jsonb, $4) AS job_id",
    [mail.mail_id, mail.locator, JSON.stringify(job), options.onIssue ?? false],
  );
  return rows[0]?.job_id != null;
}

/** A batch's mail as its send-itineraries job names it. */
export interface BatchMail {
  locator: string;
  mail_id: string;
}

/**
 * Marks `decided` bookings' on-issue mail decided, claims `mails` (those not claimed before) and queues one
 * send-itineraries job for those it claimed, all in one statement (app.queue_itinerary_mail_batch, migration 111: a
 * statement per mail was, issue 26); answers how many mails it queued.
 */
export async function queueItineraryMailBatch(
  deps: Pick<CommandDeps, "pool" | "jobs">,
  decided: readonly string[],
  mails: readonly ItineraryMailed[],
  traceId: string,
): Promise<number> {
  if (decided.length === 0 && mails.length === 0) return 0;
  const batch: BatchMail[] = mails.map((m) => ({ locator: m.locator, mail_id: m.mail_id }));
  const job = deps.jobs.spec("send-itineraries", { mails: batch }, { traceId });
  const { rows } = await deps.pool.query<{ job_id: string | null; queued: number }>(
    "SELECT job_id, queued FROM app.queue_itinerary_mail_batch($1::text[], $2::text[], $3::text[], $4::jsonb)",
    [decided, batch.map((m) => m.mail_id), batch.map((m) => m.locator), JSON.stringify(job)],
  );
  return rows[0]?.queued ?? 0;
}

/** POST /bookings/{locator}/itinerary_mails: an agent sends the itinerary to any address, with a note. */
export async function sendItinerary(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  request: SendItineraryRequest["itinerary"],
): Promise<{ data: ItineraryMail; position: string | null }> {
  const { state } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
  const booking = await assertMayActOn(deps.store, principal, state);
  if (booking.tickets.length === 0)
    throw new IllegalState(
      "The booking has no tickets yet: its itinerary is sent once it is issued",
      "itinerary_not_issued",
    );
  // A demo sandbox mails nobody outside: its bookings are not real.
  if (booking.fake_booking)
    throw new IllegalState("A demo booking's itinerary is not e-mailed", "itinerary_demo_booking");
  const { rows } = await deps.pool.query<{ email: string }>("SELECT email FROM read.users WHERE id = $1", [
    principal.userId,
  ]);
  const mail: ItineraryMailed = {
    mail_id: randomUUID(),
    locator,
    agency_id: booking.agency_id,
    company_id: booking.company_id,
    to: request.to,
    note: request.note ? request.note : null,
    language: request.language ?? (await defaultLanguage(deps, booking)),
    reason: "on_demand",
    by: { user_id: principal.userId, email: rows[0]?.email ?? null },
    at: deps.now().toISOString(),
  };
  const metadata = metadataFor(context, { agency_id: booking.agency_id, company_id: booking.company_id });
  const { position } = await recordMail(deps, mail, metadata);
  await queueItineraryMail(deps, mail, context.traceId);
  return { data: asItineraryMail(mail), position };
}

/** Issued bookings a sweep's batch takes at most: one batch's reads, appends and job, bounded. */
export const ON_ISSUE_BATCH = 50;
/** Batches a sweep takes at most (10,000 bookings); the next sweep goes on where it stopped. */
const ON_ISSUE_BATCHES = 200;

/**
 * Run by the mail sweep: every booking issued since the last sweep gets its on-issue itinerary, to the booking's
 * contact address, when its company mails them (the default). Decided once per booking (app.itinerary_on_issue);
 * the event's decider keeps a second sweep from recording a second mail. Batch after batch until none is left, so
 * the mails keep up with the bookings issued however many a sweep finds (one batch of 50 a sweep was: 10 mails a
 * second at most, issue 26). Returns how many were mailed.
 */
export async function mailItinerariesOnIssue(
  deps: CommandDeps,
  traceId: string,
  options: { batch?: number } = {},
): Promise<number> {
  const size = options.batch ?? ON_ISSUE_BATCH;
  let mailed = 0;
  for (let batches = 0; batches < ON_ISSUE_BATCHES; batches++) {
    const { found, queued } = await mailBatchOnIssue(deps, traceId, size);
    mailed += queued;
    if (found < size) break;
  }
  return mailed;
}

/**
 * One batch of the sweep: the bookings (one statement), their streams and their mails' streams (one), each company's
 * setting, the mails recorded side by side (their appends go together: group commit), then the batch decided, its
 * mails claimed and one job queued for them (one statement).
 */
async function mailBatchOnIssue(
  deps: CommandDeps,
  traceId: string,
  size: number,
): Promise<{ found: number; queued: number }> {
  // The bookings issued after the sweep's place in the log and not yet decided, in the log's order (the feed's
  // index, from that place: not every booking ever issued), the place moved in the same statement and snapshot to
  // just before the first of them, or to the head when there are none (migration 114). Each booking's agent and that
  // agent's language come with it, so a mail needs no read of its own for them (none when the bookings read model
  // does not have the booking yet).
  const { rows } = await deps.pool.query<{
    locator: string;
    agent_id: string | null;
    language: string | null;
  }>(
    `WITH issued AS (
       SELECT substr(e.stream_id, 9) AS locator, e.transaction_id AS tx, e.global_position AS gp FROM es.events e
        WHERE (e.transaction_id, e.global_position) >
              (SELECT c.transaction_id, c.global_position FROM app.itinerary_on_issue_cursor c)
          AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          AND e.event_type = 'TicketsIssued' AND e.stream_id LIKE 'booking-%'
          AND NOT EXISTS (SELECT 1 FROM app.itinerary_on_issue d WHERE d.locator = substr(e.stream_id, 9))
        ORDER BY e.transaction_id, e.global_position LIMIT $1),
     place AS (
       (SELECT i.tx, i.gp - 1 AS gp FROM issued i ORDER BY i.tx, i.gp LIMIT 1)
       UNION ALL
       (SELECT e.transaction_id, e.global_position FROM es.events e
         WHERE e.transaction_id < pg_snapshot_xmin(pg_current_snapshot()) AND NOT EXISTS (SELECT FROM issued)
         ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1)),
     moved AS (
       UPDATE app.itinerary_on_issue_cursor c SET transaction_id = p.tx, global_position = p.gp FROM place p
        WHERE (c.transaction_id, c.global_position) < (p.tx, p.gp) RETURNING 1)
     SELECT i.locator, b.agent_id, u.language FROM issued i
       LEFT JOIN read.bookings b ON b.locator = i.locator LEFT JOIN read.users u ON u.id = b.agent_id
      ORDER BY i.tx, i.gp`,
    [size],
  );
  if (rows.length === 0) return { found: 0, queued: 0 };
  // Every booking's stream and its mails' stream folded in one statement (two per booking were, issue 26), and kept
  // in this process's fold cache for the send job, which then reads only what came since; the bookings' mails are
  // then recorded side by side, so their appends go together (group commit).
  const requests = new Map(rows.map(({ locator }) => [locator, foldRequests(locator)]));
  const folded = await deps.store.foldStreams(
    [...requests.values()].flatMap(({ booking, mails }) => [booking, mails]),
  );
  // A company's setting read once per batch, however many of its bookings the batch mails.
  const onIssue = new Map<string, Promise<boolean>>();
  const companyMails = (companyId: string) => {
    let known = onIssue.get(companyId);
    if (!known) {
      known = itineraryOnIssue(deps, companyId);
      onIssue.set(companyId, known);
    }
    return known;
  };
  const recorded = await Promise.all(
    rows.map(async ({ locator, agent_id, language }): Promise<ItineraryMailed | null> => {
      const request = requests.get(locator) as ReturnType<typeof foldRequests>;
      const { state } = folded(request.booking);
      if (
        state.status === "none" ||
        state.fake_booking ||
        state.tickets.length === 0 ||
        !(await companyMails(state.company_id))
      )
        return null;
      const mail: ItineraryMailed = {
        mail_id: `issued-${locator}`,
        locator,
        agency_id: state.agency_id,
        company_id: state.company_id,
        to: state.contacts.email,
        note: null,
        language:
          agent_id === state.agent_id
            ? Language.catch("en").parse(language)
            : await defaultLanguage(deps, state),
        reason: "issued",
        by: null,
        at: deps.now().toISOString(),
      };
      const metadata = {
        ...systemMetadata(traceId),
        scope: { agency_id: state.agency_id, company_id: state.company_id },
      };
      // Recorded before: an earlier sweep died before its claim, and the drain queues it.
      const { recorded } = await recordMail(deps, mail, metadata, folded(request.mails));
      return recorded ? mail : null;
    }),
  );
  const mails = recorded.filter((m): m is ItineraryMailed => m !== null);
  const queued = await queueItineraryMailBatch(
    deps,
    rows.map((r) => r.locator),
    mails,
    traceId,
  );
  return { found: rows.length, queued };
}

/** Recorded mails of the last day never queued (their process died between the two): queued now. */
export async function drainItineraryMails(deps: CommandDeps, traceId: string): Promise<number> {
  const { rows } = await deps.pool.query<{ locator: string }>(
    `SELECT DISTINCT m.locator FROM read.itinerary_mails m
      WHERE m.at > $1::timestamptz - interval '1 day'
        AND NOT EXISTS (SELECT 1 FROM app.itinerary_mails q WHERE q.mail_id = m.mail_id)
      LIMIT 100`,
    [deps.now()],
  );
  let queued = 0;
  for (const { locator } of rows) {
    const { state } = await deps.store.fold(itineraryStream(locator), evolveItinerary, noMails);
    for (const mail of state.mails) if (await queueItineraryMail(deps, mail, traceId)) queued++;
  }
  return queued;
}

/**
 * Recorded mails and their bookings as they stand, by mail id, every stream folded in one statement (a batch's mails,
 * issue 26; their sweep folded them in this process before, so only what came since is read); an unknown mail or
 * booking is left out.
 */
export async function mailsAndBookings(
  deps: Pick<CommandDeps, "store">,
  wanted: readonly { locator: string; mail_id: string }[],
): Promise<Map<string, { mail: ItineraryMailed; booking: ActiveBooking }>> {
  const requests = new Map([...new Set(wanted.map((w) => w.locator))].map((l) => [l, foldRequests(l)]));
  const folded = await deps.store.foldStreams(
    [...requests.values()].flatMap(({ booking, mails }) => [booking, mails]),
  );
  const found = new Map<string, { mail: ItineraryMailed; booking: ActiveBooking }>();
  for (const [locator, request] of requests) {
    const { state: mails } = folded(request.mails);
    const { state: booking } = folded(request.booking);
    if (booking.status === "none") continue;
    for (const w of wanted) {
      const mail = w.locator === locator ? mails.mails.find((m) => m.mail_id === w.mail_id) : undefined;
      if (mail) found.set(mail.mail_id, { mail, booking });
    }
  }
  return found;
}

/**
 * A recorded mail and its booking as they stand, both streams folded in one statement (the send-itinerary job's
 * read: two folds were two statements per mail, issue 26); null for an unknown mail or booking.
 */
export async function mailAndBooking(
  deps: Pick<CommandDeps, "store">,
  locator: string,
  mailId: string,
): Promise<{ mail: ItineraryMailed; booking: ActiveBooking } | null> {
  const found = await mailsAndBookings(deps, [{ locator, mail_id: mailId }]);
  return found.get(mailId) ?? null;
}

/** What folds a booking's stream and its mails' stream. */
function foldRequests(locator: string): {
  booking: FoldRequest<BookingState>;
  mails: FoldRequest<ItineraryState>;
} {
  return {
    booking: { streamId: bookingStream(locator), evolve: evolveBooking, initial: initialBooking },
    mails: { streamId: itineraryStream(locator), evolve: evolveItinerary, initial: noMails },
  };
}
