import { randomBytes } from "node:crypto";
import type pg from "pg";
import { createPool, withDatabase } from "./db.ts";

export const TEMPLATE_DATABASE = "skyward_template";

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.SKYWARD_TEST_SERVER_URL;
  if (!server)
    throw new Error(
      "SKYWARD_TEST_SERVER_URL is not set: run the tests through jest (infra/test/global-setup)",
    );
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = createPool(server, { max: 1 });
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server, name);
  const pool = createPool(url, { max: 20 });
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      const cleanup = createPool(server, { max: 1 });
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await cleanup.end();
    },
  };
}

/**
 * `pool` as itself, but counting the statements sent through its `query` (and keeping their texts): the statement
 * counts tests assert (group commit, NOTIFYs in the append, the itinerary mail's reads). A statement sent on a client
 * the pool hands out (`connect`) is not counted.
 */
export function countingPool(pool: pg.Pool): { pool: pg.Pool; statements: () => number; texts: string[] } {
  let statements = 0;
  const texts: string[] = [];
  const counting = aroundQuery(pool, (args, query) => {
    statements++;
    texts.push(String((args[0] as { text?: string })?.text ?? args[0]));
    return query();
  });
  return { pool: counting, statements: () => statements, texts };
}

/**
 * `pool` as itself, but a statement sent through its `query` once `hold()` was called waits until the hold is
 * released; `sent` resolves when the first one arrives. What a test needs to act (stop a loop, say) while a statement
 * of the code under test is in flight. A statement sent on a client the pool hands out (`connect`) is not held.
 */
export function holdingPool(pool: pg.Pool): {
  pool: pg.Pool;
  hold(): { sent: Promise<void>; release(): void };
} {
  let held: { arrived(): void; released: Promise<void> } | null = null;
  const holding = aroundQuery(pool, async (_args, query) => {
    const hold = held;
    if (hold) {
      hold.arrived();
      await hold.released;
    }
    return query();
  });
  return {
    pool: holding,
    hold() {
      let arrived!: () => void;
      let release!: () => void;
      const sent = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      held = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { sent, release };
    },
  };
}

/** `pool` as itself, with each `query` call going through `around` (which sends it with `query()`). */
function aroundQuery(pool: pg.Pool, around: (args: unknown[], query: () => unknown) => unknown): pg.Pool {
  return new Proxy(pool, {
    get(target, property) {
      if (property === "query")
        return (...args: unknown[]) =>
          around(args, () => (target.query as (...a: unknown[]) => unknown)(...args));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
