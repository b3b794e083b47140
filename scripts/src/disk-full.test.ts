// Issue 29, faults 2 and 4: the database's disk fills up under a running app. Commands answer 503 storage_full with
// Retry-After, /ready turns 503 with the reason while reads keep working, nothing acknowledged is lost, and a seat
// hold the supplier granted for a booking whose append failed is cancelled by the reconcile job.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { holdBooking, until } from "./testing/bookings.ts";
import { type SmallDisk, smallDisk } from "./testing/disk-full.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let agent: HttpClient;
let disk: SmallDisk;

beforeAll(async () => {
  t = await startTestApp();
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
});
