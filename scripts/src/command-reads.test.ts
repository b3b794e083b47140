import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type pg from "pg";
import { contacts, inDays, passenger, topUp } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { after, demo, type Roles, signInRoles } from "./testing/roles.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * What a command may read (README, "Design: what a command may read"): a decision that guards access or money is
 * taken on event-sourced state, never on a read model that may not have caught up. Each test holds the directory
 * projection back (its table locked against writes; reads go on) while the command runs.
 */

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await startTestApp();
  roles = await signInRoles(t);
}, 240_000);
afterAll(() => t.stop());

/** Runs `work` while the projection cannot write `table` (a read model that lags); the lock ends after it. */
async function whileProjectionLags<T>(table: string, work: () => Promise<T>): Promise<T> {
  const lag: pg.PoolClient = await t.db.pool.connect();
  try {
    await lag.query("BEGIN");
    await lag.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    return await work();
  } finally {
    await lag.query("ROLLBACK").catch(() => undefined);
    lag.release();
  }
}

/** A booking the client holds for `companyId` (a supervisor names the company it sells for). */
async function holdFor(client: HttpClient, companyId: string, lastName: string): Promise<string> {
  const offers = await client.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: inDays(24),
    passengers: { adults: 1, children: 0, infants: 0 },
    carriers: ["PS", "LO"],
    company_id: companyId,
  });
  expect(offers.status).toBe(200);
  const fare = offers.body.result.origin_destinations[0].fares.find(
    (f: { instant_payment: boolean }) => !f.instant_payment,
  );
  const booked = await client.post("/bookings", {
    search_result_id: offers.body.result.id,
    fare_id: fare.fare_id,
    passengers: [passenger("Oksana", lastName)],
    contacts,
  });
  if (booked.status !== 201)
    throw new Error(`booking answered ${booked.status}: ${JSON.stringify(booked.body)}`);
  return booked.body.locator as string;
}

describe("what a command may read", () => {
  it("when a company stops sharing its bookings while the directory projection lags, then a colleague's command on a booking not their own is refused at once", async () => {
    // The supervisor's booking in Kyiv, whose agents share bookings: the Kyiv agent may act on it.
    const locator = await holdFor(roles.supervisor, demo.kyiv, "Sharedby");
    const shared = await roles.agent.post("/bookings/comment", { locator, comment: "seen while shared" });
    expect(shared.status).toBe(200);

    await whileProjectionLags("read.companies", async () => {
      const off = await roles.supervisor.patch(`/ticketing/company_shared_bookings/${demo.kyiv}`, {
        active: false,
      });
      expect(off.status).toBe(200);
      expect(off.body.company.shared_bookings).toBe(false);
      const before = await t.events(`booking-${locator}`);
      const refused = await roles.agent.post("/bookings/comment", {
        locator,
        comment: "after sharing ended",
      });
      expect(refused.status).toBe(404);
      expect(refused.body.errors[0].code).toBe("booking_not_found");
      expect(await t.events(`booking-${locator}`)).toHaveLength(before.length);
    });

    // Sharing again lets the colleague act again; the booking's own agent never lost it.
    const on = await roles.supervisor.patch(`/ticketing/company_shared_bookings/${demo.kyiv}`, {
      active: true,
    });
    expect(on.status).toBe(200);
    expect((await roles.agent.post("/bookings/comment", { locator, comment: "shared again" })).status).toBe(
      200,
    );
  });

  it("when a partner is deleted a moment after a company of it was created, before the directory projection shows the company, then the company's money refuses the deletion, and without money the company goes with it (its balance closed)", async () => {
    const newPartner = async (name: string) => {
      const created = await roles.admin.post("/agencies", { agency: { name } });
      expect(created.status).toBe(201);
      return created.body.partner.id as string;
    };
    const newCompany = async (agencyId: string, name: string) => {
      const created = await roles.admin.post("/companies", {
        company: { agency_id: agencyId, name, currency: "UAH" },
      });
      expect(created.status).toBe(201);
      return created;
    };
    const withMoney = await newPartner("Lagging Partner Travel");
    const withoutMoney = await newPartner("Lagging Partner Tours");

    const registered = await whileProjectionLags("read.companies", async () => {
      const created = await newCompany(withMoney, "Funded Company");
      const funded = created.body.company.id as string;
      await topUp(t.db, t.app.store, funded, 500_00);
      const refused = await roles.admin.delete(`/agencies/${withMoney}`);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].code).toBe("agency_has_money");
      expect((await t.events(`agency-${withMoney}`)).map((e) => e.type)).not.toContain("AgencyDeleted");
      expect((await t.events(`company-${funded}`)).map((e) => e.type)).not.toContain("CompanyDeleted");
      return created;
    });
    // The projection catches up before it is held back again.
    expect((await roles.admin.get(`/agencies/${withMoney}`, after(registered))).status).toBe(200);

    await whileProjectionLags("read.companies", async () => {
      const empty = (await newCompany(withoutMoney, "Lagging Company")).body.company.id as string;
      const deleted = await roles.admin.delete(`/agencies/${withoutMoney}`);
      expect(deleted.status).toBe(200);
      expect((await t.events(`company-${empty}`)).map((e) => e.type)).toContain("CompanyDeleted");
      expect((await t.events(`balance-${empty}`)).map((e) => e.type)).toEqual(["BalanceClosed"]);
    });
  });

  it("when a company is deleted a moment after a booking of it was held, before the bookings projection shows the booking, then the deletion waits for it and is refused", async () => {
    const created = await roles.supervisor.post("/companies", {
      company: { name: "Held Bookings Company", currency: "UAH" },
    });
    expect(created.status).toBe(201);
    const companyId = created.body.company.id as string;
    const lag: pg.PoolClient = await t.db.pool.connect();
    try {
      await lag.query("BEGIN");
      await lag.query("LOCK TABLE read.bookings IN EXCLUSIVE MODE");
      const locator = await holdFor(roles.supervisor, companyId, "Heldopen");
      const deleting = roles.supervisor.delete(`/companies/${companyId}`);
      await sleep(400);
      await lag.query("COMMIT");
      const refused = await deleting;
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].code).toBe("company_has_open_bookings");
      expect((await t.events(`company-${companyId}`)).map((e) => e.type)).not.toContain("CompanyDeleted");
      expect((await t.events(`booking-${locator}`)).map((e) => e.type)).toContain("BookingHeld");
    } finally {
      await lag.query("ROLLBACK").catch(() => undefined);
      lag.release();
    }
  });
});
