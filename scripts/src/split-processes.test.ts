import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { type Skyward, startSkyward } from "./app.ts";
import { HttpClient } from "./testing/http-client.ts";

/** The production split: command-service and query-service+projectors as separate apps on one database. */
describe("command and query services in separate processes", () => {
  let db: TestDatabase;
  let command: Skyward;
  let query: Skyward;
  const env = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };
  beforeAll(async () => {
    db = await createTestDatabase();
    // The query app first, as a deployment starts it: its projectors make the read models the command app's jobs read
    // (started before them, every job's first run failed on a missing table). Errors are logged, so that an answer
    // 500 shows its cause in the test's output (a whole CI run once saw update_locale answer 500).
    query = await startSkyward({
      databaseUrl: db.url,
      port: 0,
      logLevel: "error",
      env,
      roles: ["query", "projectors"],
      seedDemo: false,
    });
    command = await startSkyward({
      databaseUrl: db.url,
      port: 0,
      logLevel: "error",
      env,
      roles: ["command", "jobs"],
      seedDemo: true,
    });
    // As a deployment does (readiness probe): traffic once the query app's projectors have built their read models.
    const probe = new HttpClient(query.url);
    const deadline = Date.now() + 30_000;
    while ((await probe.get("/ready")).body?.status !== "ready") {
      if (Date.now() > deadline) throw new Error("the query app was not ready within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    await command.stop();
    await query.stop();
    await db.drop();
  });

  it("when a command is handled by one app, then the other app's projectors are woken and its read shows it", async () => {
    const writer = new HttpClient(command.url);
    const signedIn = await writer.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
    const changed = await writer.put("/account/details/update_locale", { language: "fr" });
    expect(changed.status).toBe(200);
    const reader = new HttpClient(query.url);
    reader.setCookie("skyward_session", writer.cookie("skyward_session") ?? "");
    const details = await reader.get("/account/details", {
      headers: { "x-min-position": changed.body.position },
    });
    expect(details.status).toBe(200);
    expect(details.headers.get("x-stale")).toBeNull();
    expect(details.body.account.language).toBe("fr");
    expect(signedIn.status).toBe(200);
    // Each app only answers its own routes.
    expect((await reader.post("/offers", {})).status).toBe(404);
    expect((await new HttpClient(command.url).get("/bookings")).status).toBe(404);
  });
});
