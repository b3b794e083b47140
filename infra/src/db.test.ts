// The pool's query() against a real PostgreSQL: failed statements keep their session, prepared statements
// survive a view's change of shape.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type pg from "pg";
import { createPool, StatementBatch, Where } from "./db.ts";
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

describe("StatementBatch", () => {
  /** Sends a batch on one client of the pool, as the projection runtime does. */
  async function send(batch: StatementBatch): Promise<void> {
    const client = await pool.connect();
    try {
      await batch.send(client);
    } finally {
      client.release();
    }
  }

  it("when values with quotes, backslashes and other scripts are sent, then the server reads them back unchanged", async () => {
    await pool.query("CREATE TABLE odd (text text, json jsonb, list text[], n int, none text)");
    const text = `O'Brien \\ "Ж" \\n ' ' 😀 $1 -- not a comment`;
    const json = { name: text, nested: { path: "C:\\x\\y", quote: "it's" } };
    const list = [text, "plain", 'a "b" c'];
    const batch = new StatementBatch();
    batch.add("INSERT INTO odd VALUES ($1, $2, $3, $4, $5)", [text, JSON.stringify(json), list, 7, null]);
    await send(batch);
    expect((await pool.query("SELECT * FROM odd")).rows).toEqual([{ text, json, list, n: 7, none: null }]);
  });

  it("when a negative amount is subtracted, then it adds, and the statement's WHERE clause still holds", async () => {
    // Pasted as text, `amount - $1` with -500 read `amount --500 WHERE ...`: a comment that dropped the WHERE.
    await pool.query("CREATE TABLE accounts (id text PRIMARY KEY, amount bigint NOT NULL)");
    await pool.query("INSERT INTO accounts VALUES ('a', 1000), ('b', 1000)");
    const batch = new StatementBatch();
    batch.add("UPDATE accounts SET amount = amount -$1 WHERE id = $2", [-500, "a"]);
    batch.add("UPDATE accounts SET amount = amount - $1 WHERE id = $2", [-500, "a"]);
    await send(batch);
    expect((await pool.query("SELECT id, amount FROM accounts ORDER BY id")).rows).toEqual([
      { id: "a", amount: 2000 },
      { id: "b", amount: 1000 },
    ]);
  });

  it("when a statement of a transaction fails, then its error is thrown, nothing is written and the client runs the next query", async () => {
    await pool.query("CREATE TABLE ledger (id int PRIMARY KEY)");
    const batch = new StatementBatch();
    batch.add("BEGIN");
    batch.add("INSERT INTO ledger VALUES ($1)", [1]);
    batch.add("INSERT INTO ledger VALUES ($1)", [1]);
    batch.add("INSERT INTO ledger VALUES ($1)", [2]);
    batch.add("COMMIT");
    const client = await pool.connect();
    try {
      await expect(batch.send(client)).rejects.toMatchObject({ code: "23505" });
      expect(client.pipeline).toBe(false);
      expect((await client.query("SELECT count(*)::int AS n FROM ledger")).rows).toEqual([{ n: 0 }]);
    } finally {
      client.release();
    }
  });

  it("when a statement repeats within and across batches, then it runs prepared, parsed once per session", async () => {
    await pool.query("CREATE TABLE tally (n int NOT NULL)");
    const text = "INSERT INTO tally VALUES ($1::int)";
    const client = await pool.connect();
    try {
      for (const round of [1, 2]) {
        const batch = new StatementBatch();
        batch.add(text, [round]);
        batch.add(text, [round * 10]);
        await batch.send(client);
      }
      const { rows } = await client.query(
        "SELECT count(*)::int AS prepared FROM pg_prepared_statements WHERE statement = $1",
        [text],
      );
      expect(rows).toEqual([{ prepared: 1 }]);
    } finally {
      client.release();
    }
    expect((await pool.query("SELECT n FROM tally ORDER BY n")).rows).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 10 },
      { n: 20 },
    ]);
  });

  it("when a projection's own batch is run into another writer, then its statements follow in order with their values", async () => {
    const inner = new StatementBatch();
    inner.add("SELECT $1::int", [1]);
    inner.add("SELECT 2");
    const outer = new StatementBatch();
    await inner.run(outer);
    expect(outer.statements).toEqual([
      { text: "SELECT $1::int", values: [1] },
      { text: "SELECT 2", values: [] },
    ]);
  });
});

describe("Where", () => {
  const rows = `(VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'a', 'y'), (4, 'b', 'y')) AS r(n, k, s)`;
  const select = (where: Where, limit: number) =>
    pool.query<{ n: number }>(
      `SELECT n FROM ${rows} WHERE ${where.sql} ORDER BY n LIMIT ${where.param(limit)}`,
      where.params,
    );

  it("when filters are given or left out, then only the given ones are in the text, numbered with their values in order", async () => {
    const some = new Where()
      .when("a", (n) => `r.k = ${n}`)
      .when(null, (n) => `r.s = ${n}`)
      .scope((offset) => ({ sql: `r.n >= $${offset + 1}`, params: [2] }))
      .and((low, high) => `r.n BETWEEN ${low} AND ${high}`, 1, 4);
    expect(some.sql).toBe("r.k = $1 AND r.n >= $2 AND r.n BETWEEN $3 AND $4");
    expect((await select(some, 10)).rows).toEqual([{ n: 3 }]);
    expect(some.params).toEqual(["a", 2, 1, 4, 10]);
  });

  it("when no filter is given, then the condition is true and nothing is left of the filters", async () => {
    const none = new Where().when(undefined, (n) => `r.k = ${n}`).when(null, (n) => `r.s = ${n}`);
    expect(none.sql).toBe("true");
    expect((await select(none, 2)).rows).toEqual([{ n: 1 }, { n: 2 }]);
    expect(none.params).toEqual([2]);
  });
});
