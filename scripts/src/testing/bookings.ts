import { setTimeout as sleep } from "node:timers/promises";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { TestDatabase } from "@skyward/infra/testing";
import { clearOfUtcMidnight } from "./clock.ts";
import type { HttpClient, Json } from "./http-client.ts";

/** Booking steps over HTTP shared by the booking tests: search, book, top up, read money from the event store. */

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export const passenger = (first: string, last: string, type = "adult", dob = "1985-04-12") => ({
  type,
  gender: "M",
  first_name: first,
  last_name: last,
  date_of_birth: dob,
  document: {
    type: "passport",
    number: `FN${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`,
    issuing_country: "UA",
    nationality: "UA",
    expires_on: "2032-01-01",
  },
});
export const contacts = { email: "traveller@example.com", phone: "+380501112233" };

export async function search(client: HttpClient, adults = 1, origin = "KBP", destination = "WAW") {
  const res = await client.post("/offers", {
    origin,
    destination,
    departure_date: inDays(21),
    passengers: { adults, children: 0, infants: 0 },
    // Full-service carriers: low-cost ones allow no void.
    carriers: ["PS", "LO", "LH", "OS", "TK"],
  });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result as Json;
}

/**
 * A last name no other booking of the run has. The sandbox takes an identical booking call (same fare, same names)
 * at the same millisecond for a retry and answers the booking it already made, so bookings held side by side in a
 * race test must not share their names, or two of ours would share one airline booking.
 */
export const distinctLastName = (stem = "Petrenko") =>
  `${stem}${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;

/** A held booking of one passenger per last name; the last name picks a sandbox scenario (SCENARIOS.md). */
export async function holdBooking(client: HttpClient, lastNames: string[] = ["Petrenko"]): Promise<string> {
  await clearOfUtcMidnight(30_000); // the tests issue and void within seconds of holding
  const result = await search(client, lastNames.length);
  const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
  const res = await client.post("/bookings", {
    search_result_id: result.id,
    fare_id: fare.fare_id,
    passengers: lastNames.map((last, i) => passenger(`Ivan${"ABCDEFGHI"[i]}`, last)),
    contacts,
  });
  if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.locator as string;
}

/**
 * A held booking of one adult on a network carrier (PS, LO, LH), departing `departureInDays` after `from` (a test
 * clock ahead of the real one): the answer of POST /bookings (locator, time_limit, provider_status). The last name
 * picks a sandbox scenario (SCENARIOS.md).
 */
export async function holdOneAdult(
  client: HttpClient,
  lastName: string,
  options: { from?: Date; departureInDays?: number } = {},
): Promise<Json> {
  const from = options.from ?? new Date();
  const day = new Date(from.getTime() + (options.departureInDays ?? 21) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const search = await client.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: day,
    passengers: { adults: 1, children: 0, infants: 0 },
    carriers: ["PS", "LO", "LH"],
  });
  if (search.status !== 200)
    throw new Error(`search answered ${search.status}: ${JSON.stringify(search.body)}`);
  const result = search.body.result as Json;
  const booked = await client.post("/bookings", {
    search_result_id: result.id,
    fare_id: result.origin_destinations[0].fares[0].fare_id,
    passengers: [{ ...passenger("Maria", lastName, "adult", "1991-03-03"), gender: "F" }],
    contacts: { email: "maria@example.com", phone: "+380501234567" },
  });
  if (booked.status !== 201)
    throw new Error(`booking answered ${booked.status}: ${JSON.stringify(booked.body)}`);
  return booked.body as Json;
}

/** Asks `read` until it answers something other than undefined; fails after `timeoutMs`, naming `what`. */
export async function until<T>(
  read: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** Tops a company balance up straight in the event store (there is no top-up screen yet). */
export async function topUp(db: TestDatabase, store: EventStore, companyId: string, amount: number) {
  const { rows } = await db.pool.query<{ version: number }>(
    "SELECT version FROM es.streams WHERE stream_id = $1",
    [`balance-${companyId}`],
  );
  await store.append({
    streamId: `balance-${companyId}`,
    expected: rows[0]?.version ?? "no_stream",
    events: [
      {
        type: "BalanceToppedUp",
        data: { company_id: companyId, amount: { amount, currency: "UAH" }, comment: "test top-up" },
        metadata: systemMetadata(),
      },
    ],
  });
}

/**
 * Charges a company balance straight in the event store, outside any booking (a test's setup: what issues elsewhere
 * would have spent), so that what is left is known.
 */
export async function chargeBalance(
  store: EventStore,
  companyId: string,
  amount: { amount: number; currency: string },
): Promise<void> {
  await store.append({
    streamId: `balance-${companyId}`,
    expected: "any",
    events: [
      {
        type: "BalanceCharged",
        data: { company_id: companyId, amount, locator: "SETUP0", reason: "test" },
        metadata: { ...systemMetadata("test"), scope: { agency_id: null, company_id: companyId } },
      },
    ],
  });
}

/** A company balance as the sum of its events (minor units). */
export async function balanceFromEvents(db: TestDatabase, companyId: string): Promise<number> {
  const { rows } = await db.pool.query<{ sum: string | null }>(
    `SELECT sum(CASE event_type WHEN 'BalanceCharged' THEN -1 ELSE 1 END * (data->'amount'->>'amount')::bigint)::text AS sum
       FROM es.events WHERE stream_id = $1`,
    [`balance-${companyId}`],
  );
  return Number(rows[0]?.sum ?? 0);
}

/** What moved on the balance for one booking: charges and credits by reason. */
export async function moneyOf(db: TestDatabase, locator: string) {
  const { rows } = await db.pool.query<{ type: string; reason: string; amount: string }>(
    `SELECT event_type AS type, data->>'reason' AS reason, (data->'amount'->>'amount') AS amount
       FROM es.events WHERE stream_id LIKE 'balance-%' AND data->>'locator' = $1 ORDER BY global_position`,
    [locator],
  );
  return rows.map((r) => ({ type: r.type, reason: r.reason, amount: Number(r.amount) }));
}
