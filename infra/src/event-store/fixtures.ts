import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stampVersion } from "@skyward/contracts/event-versions";
import type pg from "pg";
import { systemMetadata } from "./metadata.ts";

/**
 * Golden stored events (contracts/test-fixtures/events/<Type>/v<N>.json), for tests: one per event type and version, as a
 * store holds them. Never edit one once written: an older version is history, and the current one is the shape a
 * change must keep or give a new version (README, "Changing an event").
 */
export interface EventFixture {
  type: string;
  version: number;
  data: Record<string, unknown>;
}

const ROOT = join(
  fileURLToPath(new URL(".", import.meta.url)),
  "..",
  "..",
  "..",
  "contracts",
  "test-fixtures",
  "events",
);

/** Every fixture of a type, oldest version first. */
export function eventFixtures(type: string): EventFixture[] {
  return readdirSync(join(ROOT, type))
    .filter((name) => /^v\d+\.json$/.test(name))
    .map((name) => JSON.parse(readFileSync(join(ROOT, type, name), "utf8")) as EventFixture)
    .sort((a, b) => a.version - b.version);
}

/** The fixture of a type at a version; throws when there is none. */
/** The newest version's fixture of an event type (its current shape). */
export const currentFixture = (type: string): EventFixture => eventFixtures(type).at(-1) as EventFixture;

/** A booking held by `agentId` and issued: its two events, the current shapes with this locator and agent. */
export function heldAndIssuedBy(locator: string, agentId: string): EventFixture[] {
  const held = currentFixture("BookingHeld");
  return [{ ...held, data: { ...held.data, locator, agent_id: agentId } }, currentFixture("TicketsIssued")];
}

export function eventFixture(type: string, version: number): EventFixture {
  const found = eventFixtures(type).find((f) => f.version === version);
  if (!found) throw new Error(`no fixture of ${type} version ${version}`);
  return found;
}

/**
 * Further examples of a version beside its twin (`v<N>.<what>.json`: the same version with an optional field set),
 * so the current shape's every field is pinned.
 */
export function eventExamples(type: string): EventFixture[] {
  return readdirSync(join(ROOT, type))
    .filter((name) => /^v\d+\.[a-z-]+\.json$/.test(name))
    .map((name) => JSON.parse(readFileSync(join(ROOT, type, name), "utf8")) as EventFixture);
}

/** The types that have fixtures. */
export const fixtureTypes = (): string[] => readdirSync(ROOT).sort();

/** Booking streams as older code stored them: each event a fixture of the type and version named. */
export const OLD_BOOKING_STREAMS: Record<string, readonly (readonly [string, number])[]> = {
  issueFailedRetriedIssuedVoided: [
    ["BookingHeld", 1],
    ["TicketingStarted", 1],
    ["TicketingFailed", 1],
    ["TicketingStarted", 2],
    ["TicketsIssued", 1],
    ["BookingVoided", 1],
  ],
  ancillariesHeldThenCancelled: [
    ["BookingHeld", 1],
    ["AncillariesStarted", 1],
    ["BookingCancelled", 1],
  ],
  issuedThenExchanging: [
    ["BookingHeld", 1],
    ["TicketingStarted", 2],
    ["TicketsIssued", 1],
    ["ExchangeStarted", 1],
  ],
};

/** A stream of OLD_BOOKING_STREAMS as stored then (`old`), or each event's current-shape twin (`current`). */
export function bookingStreamFixtures(name: string, shape: "old" | "current"): EventFixture[] {
  return (OLD_BOOKING_STREAMS[name] ?? []).map(([type, version]) =>
    shape === "old" ? eventFixture(type, version) : currentFixture(type),
  );
}

/**
 * Streams appended in one call of es.append: an old-shaped event as the code of its time wrote it (no version in its
 * metadata), a current one stamped as the store's append stamps it. Every event is then given the same recorded
 * time (a projection writes it), so twin streams project to rows that differ only in their stream ids.
 */
export async function appendFixtures(
  pool: Pick<pg.Pool, "query">,
  streams: { streamId: string; events: EventFixture[]; stamped: boolean }[],
): Promise<void> {
  const metadata = systemMetadata("event-fixtures");
  await pool.query("SELECT * FROM es.append($1::jsonb)", [
    JSON.stringify(
      streams.map((s) => ({
        stream_id: s.streamId,
        stream_type: s.streamId.split("-")[0],
        expected: "no_stream",
        events: s.events.map((e) => ({
          event_id: randomUUID(),
          event_type: e.type,
          data: e.data,
          metadata: s.stamped ? stampVersion(e.type, metadata) : metadata,
        })),
      })),
    ),
  ]);
  await pool.query("UPDATE es.events SET recorded_at = $2 WHERE stream_id = ANY($1)", [
    streams.map((s) => s.streamId),
    "2026-11-20T12:30:00.000Z",
  ]);
}
