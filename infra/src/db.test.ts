// The pool's query() against a real PostgreSQL: failed statements keep their session, prepared statements
// survive a view's change of shape.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type pg from "pg";
import { createPool, inlineParams } from "./db.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url, { max: 1 });
  await pool.query("CREATE TABLE uniq (id int PRIMARY KEY)");
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

const backend = async () =>
  (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;

describe("pool.query", () => {
  it("when a statement fails in the server, then the error reaches the caller and the session is kept", async () => {
    const before = await backend();
    await pool.query("INSERT INTO uniq VALUES ($1)", [1]);
    await expect(pool.query("INSERT INTO uniq VALUES ($1)", [1])).rejects.toMatchObject({ code: "23505" });
    await expect(pool.query("SELECT 1/0")).rejects.toMatchObject({ code: "22012" });
    expect(await backend()).toBe(before);
    expect((await pool.query("SELECT count(*)::int AS n FROM uniq")).rows[0]).toEqual({ n: 1 });
  });

  it("when a text that opened its own transaction fails, then its session is dropped, not left aborted", async () => {
    const before = await backend();
    await expect(pool.query("BEGIN; INSERT INTO uniq VALUES (1); COMMIT")).rejects.toMatchObject({
      code: "23505",
    });
    const after = await backend();
    expect(after).not.toBe(before);
    expect((await pool.query("SELECT count(*)::int AS n FROM uniq")).rows[0]).toEqual({ n: 1 });
  });

  it("when statements with parameters repeat, then they run prepared, once per session", async () => {
    const text = "SELECT $1::int + 1 AS n";
    expect((await pool.query(text, [1])).rows).toEqual([{ n: 2 }]);
    expect((await pool.query(text, [41])).rows).toEqual([{ n: 42 }]);
    const { rows } = await pool.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement = $1",
      [text],
    );
    expect(rows[0]?.count).toBe(1);
  });

  it("when a view changes its columns under a prepared statement, then the statement runs again afresh", async () => {
    await pool.query("CREATE VIEW shape AS SELECT 1 AS a");
    const text = "SELECT * FROM shape WHERE $1::boolean";
    expect((await pool.query(text, [true])).rows).toEqual([{ a: 1 }]);
    await pool.query("DROP VIEW shape");
    await pool.query("CREATE VIEW shape AS SELECT 1 AS a, 2 AS b");
    expect((await pool.query(text, [true])).rows).toEqual([{ a: 1, b: 2 }]);
  });
});

describe("inlineParams", () => {
  it("when values with quotes, backslashes and other scripts are inlined, then the server reads them back unchanged", async () => {
    const text = `O'Brien \\ "Ж" \\n ' ' 😀`;
    const json = { name: text, nested: { path: "C:\\x\\y", quote: "it's" } };
    const list = [text, "plain", 'a "b" c'];
    const { rows } = await pool.query(
      inlineParams(
        "SELECT $1::text AS text, $2::jsonb AS json, $3::text[] AS list, $4::int AS n, $5::text AS none",
        [text, json, list, 7, null],
      ),
    );
    expect(rows[0]).toEqual({ text, json, list, n: 7, none: null });
  });
});
