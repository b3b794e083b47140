// Issue 29, faults 2 and 4: the database's disk fills up under a running app. Commands answer 503 storage_full with
// Retry-After, /ready turns 503 with the reason while reads keep working, nothing acknowledged is lost, and a seat
// hold the supplier granted for a booking whose append failed is cancelled by the reconcile job.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { contacts, holdBooking, passenger, search, until } from "./testing/bookings.ts";
import { type SmallDisk, smallDisk } from "./testing/disk-full.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let agent: HttpClient;
let disk: SmallDisk;

beforeAll(async () => {
  // Reconciliation (operations, orphan holds) looks at what is 2 s old rather than a minute.
  t = await startTestApp({ env: { OPERATION_STALE_AFTER_MS: "2000", STORAGE_PROBE_EVERY_MS: "200" } });
  agent = t.client();
  await agent.signIn("agent@dnipro.test");
  // The event log (and the readiness probe's table) on a small disk; the read models and the WAL are elsewhere.
  disk = await smallDisk(t.db.pool, ["es.events", "app.storage_probe"]);
});
afterAll(async () => {
  await disk?.free();
  await t?.stop();
  await disk?.close();
});

describe(`a full disk (${process.env.SKYWARD_DISK_FULL === "trigger" ? "trigger" : "tmpfs, or a trigger where mounting is refused"})`, () => {
  it("when the database's disk fills up, then commands answer 503 storage_full with Retry-After and /ready 503 with the reason, reads still answer, and once freed both recover with nothing acknowledged lost", async () => {
    const locator = await holdBooking(agent);
    const acknowledged: string[] = [];
    const comment = (n: number) => agent.post("/bookings/comment", { locator, comment: `note ${n}` });

    await disk.fill();
    // Readiness finds out by a write of its own, before any command meets the full disk.
    const first = await until(
      async () => {
        const res = await agent.get("/ready");
        return res.status === 503 ? res : undefined;
      },
      5_000,
      "not ready once the disk is full",
      100,
    );
    expect(first.body.errors[0].detail).toMatch(/database cannot write \(disk full\)/);
    // Rows that still fit in a page already allocated are written; the first that needs a new block is refused.
    let refused = null;
    for (let n = 0; n < 500 && !refused; n++) {
      const res = await comment(n);
      if (res.status === 200) acknowledged.push(`note ${n}`);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.headers.get("retry-after")).toBe("30");
    expect(refused?.body.errors[0]).toMatchObject({ status: "503", code: "storage_full" });

    const ready = await agent.get("/ready");
    expect(ready.status).toBe(503);
    expect(ready.body.errors[0].detail).toMatch(/database cannot write \(disk full\)/);
    expect(ready.body.meta.storage).toMatchObject({ ok: false });
    expect(ready.body.meta.database.ok).toBe(true);
    // Reads do not write: they keep answering.
    expect((await agent.get(`/bookings/${locator}`)).status).toBe(200);
    expect((await agent.get("/bookings")).status).toBe(200);
    // Still full: still refused, still not ready.
    expect((await comment(1000)).status).toBe(503);
    expect((await agent.get("/ready")).status).toBe(503);

    await disk.free();
    const readyAgain = await until(
      async () => ((await agent.get("/ready")).status === 200 ? true : undefined),
      10_000,
      "ready once the disk is freed",
      100,
    );
    expect(readyAgain).toBe(true);
    const after = await comment(2000);
    expect(after.status).toBe(200);
    acknowledged.push("note 2000");

    const comments = (await t.events(`booking-${locator}`))
      .filter((e) => e.type === "BookingCommented")
      .map((e) => e.data.comment);
    expect(comments).toEqual(acknowledged);
  }, 60_000);

  it("when our booking's append fails after the supplier held the seats, then the booking answers 503 and the reconcile job cancels that hold at the supplier, leaving the acknowledged bookings' holds alone", async () => {
    // A booking recorded whose hold's record was not forgotten (that delete failed): the job must leave it held.
    const recorded = await holdBooking(agent);
    const [recordedHeld] = await t.events(`booking-${recorded}`);
    const recordedHold = recordedHeld?.data.supplier_booking as { supplier_locator: string };
    await t.db.pool.query(
      `INSERT INTO app.supplier_holds (attempt_id, company_id, channel_id, supplier_booking)
       VALUES (gen_random_uuid(), $1, $2, $3)`,
      [recordedHeld?.data.company_id, recordedHeld?.data.channel_id, JSON.stringify(recordedHold)],
    );
    const result = await search(agent);
    const fare = result.origin_destinations[0].fares.find(
      (f: { instant_payment: boolean }) => !f.instant_payment,
    );
    const book = (n: number) =>
      agent.post("/bookings", {
        search_result_id: result.id,
        fare_id: fare.fare_id,
        passengers: [
          passenger(`Orphan${"ABCDEFGHIJ"[n % 10]}${"KLMNOPQRST"[Math.floor(n / 10) % 10]}`, "Petrenko"),
        ],
        contacts,
      });

    await disk.fill();
    const acknowledged: string[] = [];
    let refused = null;
    for (let n = 0; n < 100 && !refused; n++) {
      const res = await book(n);
      if (res.status === 201) acknowledged.push(res.body.locator);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body.errors[0].code).toBe("storage_full");
    // The airline held seats for it: the hold is on record, as ours are not (their appends committed).
    const { rows: holds } = await t.db.pool.query<{
      attempt_id: string;
      supplier_booking: { supplier_locator: string; status: string };
    }>(
      "SELECT attempt_id, supplier_booking FROM app.supplier_holds WHERE supplier_booking->>'supplier_locator' <> $1",
      [recordedHold.supplier_locator],
    );
    expect(holds).toHaveLength(1);
    const orphan = holds[0] as (typeof holds)[number];
    expect(orphan.supplier_booking.status).toBe("held");

    await disk.free();
    await until(
      async () => ((await agent.get("/ready")).status === 200 ? true : undefined),
      10_000,
      "ready once the disk is freed",
      100,
    );
    // Once stale, the job (as its cron line queues it each minute, here on demand) releases it.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await t.db.pool.query(
      "SELECT graphile_worker.add_job('reconcile-operations', '{}'::json, job_key => 'reconcile-operations', job_key_mode => 'preserve_run_at')",
    );
    await until(
      async () => {
        const { rowCount } = await t.db.pool.query("SELECT 1 FROM app.supplier_holds");
        return rowCount === 0 ? true : undefined;
      },
      10_000,
      "the orphan hold released",
      100,
    );
    // The airline's own record: that booking cancelled under the attempt's id, and no other.
    const { rows: cancelled } = await t.db.pool.query<{
      operation_id: string;
      locator: string;
      status: string;
    }>(
      `SELECT operation_id::text, entry->'result'->'booking'->>'supplier_locator' AS locator,
              entry->'result'->'booking'->>'status' AS status
         FROM sandbox.operations WHERE entry->'result' ? 'cancelled_at'`,
    );
    expect(cancelled).toEqual([
      {
        operation_id: orphan.attempt_id,
        locator: orphan.supplier_booking.supplier_locator,
        status: "cancelled",
      },
    ]);
    // Nothing acknowledged was lost.
    for (const locator of [recorded, ...acknowledged])
      expect((await t.events(`booking-${locator}`)).map((e) => e.type)).toEqual(["BookingHeld"]);
  }, 60_000);

  it("when even the hold's record cannot be written, then the booking answers 503 and the hold is released at once", async () => {
    const holdsDisk = await smallDisk(t.db.pool, ["app.supplier_holds"], { mode: "trigger" });
    const result = await search(agent);
    const fare = result.origin_destinations[0].fares.find(
      (f: { instant_payment: boolean }) => !f.instant_payment,
    );
    const bookingsHeld = async () =>
      (await t.db.pool.query("SELECT 1 FROM es.events WHERE event_type = 'BookingHeld'")).rowCount;
    const heldBefore = await bookingsHeld();
    await holdsDisk.fill();
    try {
      const res = await agent.post("/bookings", {
        search_result_id: result.id,
        fare_id: fare.fare_id,
        passengers: [passenger("Unrecorded", "Petrenko")],
        contacts,
      });
      expect(res.status).toBe(503);
      expect(res.body.errors[0].code).toBe("storage_full");
    } finally {
      await holdsDisk.free();
    }
    const { rows } = await t.db.pool.query<{ status: string }>(
      `SELECT entry->'result'->'booking'->>'status' AS status FROM sandbox.operations
        WHERE entry->'result' ? 'cancelled_at'
          AND entry->'result'->'booking'->'passengers'->0->>'first_name' = 'Unrecorded'`,
    );
    expect(rows).toEqual([{ status: "cancelled" }]);
    expect(await bookingsHeld()).toBe(heldBefore);
  }, 30_000);
});
