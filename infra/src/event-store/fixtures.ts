import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

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
export function eventFixture(type: string, version: number): EventFixture {
  const found = eventFixtures(type).find((f) => f.version === version);
  if (!found) throw new Error(`no fixture of ${type} version ${version}`);
  return found;
}

/** The types that have fixtures. */
export const fixtureTypes = (): string[] => readdirSync(ROOT).sort();
