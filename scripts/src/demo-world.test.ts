import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { demoAgencies, demoCompanies, demoUsers } from "@skyward/command-service/world/demo-world";
import { seedDemoWorld } from "@skyward/command-service/world/seed";
import { waitForReadModels } from "@skyward/infra/projections/read-your-writes";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { type Skyward, startSkyward } from "./app.ts";

describe("the demo world", () => {
  let db: TestDatabase;
  let app: Skyward;
  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startSkyward({ databaseUrl: db.url, port: 0, seedDemo: true, logLevel: "silent" });
  });
  afterAll(async () => {
    await app.stop();
    await db.drop();
  });

  it("when the app starts, then agencies, companies and users exist as events and in the directory", async () => {
    const head = await app.store.headPosition();
    expect(head).not.toBeNull();
    if (head) expect(await waitForReadModels(db.pool, ["directory"], head, 5000)).toBe(true);
    const agencies = await db.pool.query("SELECT name FROM read.agencies ORDER BY name");
    expect(agencies.rows.map((r) => r.name)).toEqual(demoAgencies.map((a) => a.name).sort());
    const companies = await db.pool.query("SELECT count(*)::int AS n FROM read.companies");
    expect(companies.rows[0].n).toBe(demoCompanies.length);
    const users = await db.pool.query("SELECT email, user_type FROM read.users ORDER BY email");
    expect(users.rows).toHaveLength(demoUsers.length);
    const types = await db.pool.query("SELECT DISTINCT event_type FROM es.events ORDER BY 1");
    expect(types.rows.map((r) => r.event_type)).toEqual(
      expect.arrayContaining(["AgencyRegistered", "CompanyRegistered", "EmailClaimed", "UserRegistered"]),
    );
  });

  it("when the world is seeded again, then no event is written twice", async () => {
    const before = await db.pool.query("SELECT count(*)::int AS n FROM es.events");
    await seedDemoWorld(app.store, db.pool);
    const after = await db.pool.query("SELECT count(*)::int AS n FROM es.events");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
