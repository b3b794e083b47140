import { randomUUID } from "node:crypto";
import { stampVersion } from "@skyward/contracts/event-versions";
import { eventFixtures } from "@skyward/infra/event-store/fixtures";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { Skyward } from "../src/app.ts";

/** The locator alphabet (contracts' Locator: no 0, 1, I, L, O). */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const LAST_NAMES = [
  "PETRENKO",
  "KOVALENKO",
  "BONDARENKO",
  "TKACHENKO",
  "SHEVCHENKO",
  "MELNYK",
  "KRAVCHUK",
  "NOWAK",
];
const FIRST_NAMES = ["OLENA", "TARAS", "IRYNA", "ANDRII", "MARTA", "OSTAP"];
const ROUTES = ["KBP-WAW", "LWO-VIE", "KBP-LHR", "WAW-BCN", "ODS-IST"];
const BATCH = 500;
const DAY = 86_400_000;

/** The n-th bench locator: "Q" and five letters, so none meets a locator the sandbox gives. */
function locatorOf(n: number): string {
  let rest = n;
  let text = "";
  for (let i = 0; i < 5; i++) {
    text = (ALPHABET[rest % ALPHABET.length] ?? "2") + text;
    rest = Math.floor(rest / ALPHABET.length);
  }
  return `Q${text}`;
}

/**
 * `count` bookings of the company of the user `email`, booked by that user, appended straight to the event store
 * (es.append, BATCH streams a call) as the hold's current event shape (its golden fixture, with the company's ids, a
 * locator, a passenger and a day of the last year), one in four then cancelled; waits until the bookings projection
 * lists them all. The bench's way to 10,000 bookings in seconds instead of 10,000 searches and holds.
 */
export async function seedBookings(app: Skyward, email: string, count: number): Promise<void> {
  const { rows } = await app.pool.query<{ id: string; agency_id: string; company_ids: string[] }>(
    "SELECT id, agency_id, company_ids FROM read.users WHERE lower(email) = lower($1)",
    [email],
  );
  const user = rows[0];
  const company = user?.company_ids[0];
  if (!user || !company) throw new Error(`no agent ${email} with a company in the demo world`);
  const held = eventFixtures("BookingHeld").at(-1);
  const cancelled = eventFixtures("BookingCancelled").at(-1);
  if (!held || !cancelled) throw new Error("no BookingHeld or BookingCancelled fixture");
  const metadata = systemMetadata("bench-seed-bookings");
  const now = Date.now();
  const { rows: before } = await app.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM read.bookings WHERE company_id = $1",
    [company],
  );
  for (let start = 0; start < count; start += BATCH) {
    const streams = [];
    for (let n = start; n < Math.min(count, start + BATCH); n++) {
      const locator = locatorOf(n);
      const heldAt = new Date(now - (n % 365) * DAY - n * 1000).toISOString();
      const data = {
        ...held.data,
        locator,
        company_id: company,
        agency_id: user.agency_id,
        agent_id: user.id,
        fare: {
          ...(held.data.fare as Record<string, unknown>),
          route: ROUTES[n % ROUTES.length],
          departure_at: new Date(now + ((n % 200) + 2) * DAY).toISOString().slice(0, 19).concat("+02:00"),
        },
        passengers: (held.data.passengers as Record<string, unknown>[]).map((p) => ({
          ...p,
          first_name: FIRST_NAMES[n % FIRST_NAMES.length],
          last_name: `${LAST_NAMES[n % LAST_NAMES.length]}${n}`,
        })),
        // Far enough ahead that no sweep expires them while the bench runs.
        time_limit: new Date(now + 30 * DAY).toISOString(),
        held_at: heldAt,
      };
      const events: { type: string; data: Record<string, unknown> }[] = [{ type: held.type, data }];
      if (n % 4 === 3) events.push({ type: cancelled.type, data: { ...cancelled.data, at: heldAt } });
      streams.push({
        stream_id: `booking-${locator}`,
        stream_type: "booking",
        expected: "no_stream",
        events: events.map((e) => ({
          event_id: randomUUID(),
          event_type: e.type,
          data: e.data,
          metadata: stampVersion(e.type, metadata),
        })),
      });
    }
    await app.pool.query("SELECT * FROM es.append($1::jsonb)", [JSON.stringify(streams)]);
  }
  const wanted = (before[0]?.n ?? 0) + count;
  for (let waited = 0; ; waited += 250) {
    const { rows: now } = await app.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM read.bookings WHERE company_id = $1",
      [company],
    );
    if ((now[0]?.n ?? 0) >= wanted) return;
    if (waited > 300_000)
      throw new Error(`the bookings projection listed ${now[0]?.n} of ${wanted} bookings`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
