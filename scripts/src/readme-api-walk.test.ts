// The README's curl walk of the public API (search → book → issue → refund with an API token) is run as written,
// by bash against a test app, so the README cannot drift from what the API answers.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const run = promisify(execFile);
let t: TestApp;
let folder: string;
beforeAll(async () => {
  t = await startTestApp();
  folder = await mkdtemp(join(tmpdir(), "skyward-walk-"));
}, 240_000);
afterAll(async () => {
  await t.stop();
  await rm(folder, { recursive: true, force: true });
});

/** The shell block that follows the `<!-- api-walk -->` marker in the README. */
async function walkBlock(): Promise<string> {
  const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
  const block = /<!-- api-walk -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README has no api-walk block");
  return block;
}

describe("the README's API walk", () => {
  it("when the walk runs as written, then it keeps a traveller, books them, issues and refunds with the API token, and the history shows each step", async () => {
    const { stdout } = await run(
      "bash",
      ["--norc", "--noprofile", "-euo", "pipefail", "-c", await walkBlock()],
      {
        cwd: folder,
        env: { ...process.env, SKYWARD_URL: t.app.url },
        timeout: 120_000,
      },
    );
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ticket \d{13}$/);
    expect(lines).toContain("refunded");
    // A schedule change learnt from the airline and accepted (issue 24.3).
    expect(lines).toContain("accepted");
    const history = lines.at(-1)?.split(" ") ?? [];
    expect(history).toEqual(expect.arrayContaining(["BookingHeld", "TicketsIssued"]));
    expect(history.some((type) => /Refund/.test(type))).toBe(true);
    // The multi-city search of step 2b: each offer flies the three slices in order, Paris by any of its airports.
    const multiCity = JSON.parse(await readFile(join(folder, "multi-city.json"), "utf8"));
    expect(multiCity.result.origin_destinations.length).toBeGreaterThan(0);
    for (const od of multiCity.result.origin_destinations) {
      const ends = od.flights.map((f: { segments: { from: { code: string }; to: { code: string } }[] }) => [
        f.segments[0]?.from.code,
        f.segments.at(-1)?.to.code,
      ]);
      expect(ends[0]).toEqual(["KBP", "WAW"]);
      expect(["CDG", "ORY", "BVA"]).toContain(ends[1][1]);
      expect(ends[2][1]).toBe("KBP");
    }
    // Every command of it came through the api source, with the token.
    const { rows } = await t.db.pool.query<{ source: string }>(
      "SELECT DISTINCT metadata->>'source' AS source FROM es.events WHERE stream_id LIKE 'booking-%'",
    );
    expect(rows.map((r) => r.source)).toEqual(["api"]);
    // The passenger is the traveller the walk kept (issue 23): their profile filled the booking.
    const { rows: kept } = await t.db.pool.query<{ stream_id: string; source: string }>(
      "SELECT stream_id, metadata->>'source' AS source FROM es.events WHERE event_type = 'TravellerRegistered'",
    );
    expect(kept).toEqual([{ stream_id: expect.stringMatching(/^traveller-/), source: "api" }]);
    const { rows: held } = await t.db.pool.query<{ passenger: Record<string, unknown> }>(
      "SELECT data->'passengers'->0 AS passenger FROM es.events WHERE event_type = 'BookingHeld' ORDER BY global_position",
    );
    expect(held).toEqual([
      {
        passenger: expect.objectContaining({
          first_name: "IVAN",
          last_name: "PETRENKO",
          document: expect.objectContaining({ number: "FN123456" }),
        }),
      },
      // Step 7's booking, whose flight the airline moves (issue 24.3).
      { passenger: expect.objectContaining({ last_name: "Schedmajor" }) },
    ]);
    const { rows: changes } = await t.db.pool.query<{ event_type: string }>(
      "SELECT event_type FROM es.events WHERE event_type LIKE 'ScheduleChange%' ORDER BY global_position",
    );
    expect(changes.map((r) => r.event_type)).toEqual([
      "ScheduleChanged",
      "ScheduleChangeAnswerStarted",
      "ScheduleChangeAccepted",
    ]);
    const { rows: services } = await t.db.pool.query<{ data: unknown }>(
      "SELECT data FROM es.events WHERE event_type = 'PassengerServicesRequested'",
    );
    expect(services).toEqual([
      {
        data: {
          passengers: [{ index: 0, loyalty: { carrier: "LO", number: "92012345678" }, ssrs: ["VGML"] }],
        },
      },
    ]);
  }, 180_000);
});
