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
  const counting = new Proxy(pool, {
    get(target, property) {
      if (property === "query")
        return (...args: unknown[]) => {
          statements++;
          texts.push(String((args[0] as { text?: string })?.text ?? args[0]));
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { pool: counting, statements: () => statements, texts };
}
