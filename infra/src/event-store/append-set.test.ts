// Group commit's set-based path (es.append_set, migration 095, issue 26): a group whose commands all pass is
// appended in one pass; any refusal or repeat sends the whole group command by command (es.append_group_each),
// and each command keeps the exact answer it would get alone. Called through es.append_group on one connection, so
// that the test, not the event store's timing, decides which commands share a group.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stampVersion } from "@skyward/contracts/event-versions";
import type pg from "pg";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { systemMetadata } from "./metadata.ts";

const metadata = stampVersion("Noted", systemMetadata("append-set-test"));

interface Appended {
  stream_id: string;
  expected: string;
  events: { event_id: string; event_type: string; data: unknown; metadata: unknown }[];
}
const events = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    event_id: randomUUID(),
    event_type: "Noted",
    data: { n: i + 1 },
    metadata,
  }));
const append = (stream_id: string, expected: string, count = 1): Appended => ({
  stream_id,
  expected,
  events: events(count),
});
const newStream = () => `test-${randomUUID()}`;

interface GroupRow {
  command_index: number;
  stream: string | null;
  stream_version: number | null;
  tx: string | null;
  gp: number | null;
  error_code: string | null;
  error_detail: string | null;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** One es.append_group call on `client`, and which path it took (function calls counted with track_functions). */
async function group(
  client: pg.PoolClient,
  commands: Appended[][],
): Promise<{ rows: GroupRow[]; setBased: number; eachCommand: number }> {
  const calls = async () =>
    (
      await client.query<{ set: number; each: number }>(
        `SELECT coalesce(pg_stat_get_xact_function_calls('es.append_set(jsonb)'::regprocedure), 0)::int AS set,
                coalesce(pg_stat_get_xact_function_calls('es.append_group_each(jsonb)'::regprocedure), 0)::int AS each`,
      )
    ).rows[0] as { set: number; each: number };
  const before = await calls();
  const { rows } = await client.query<GroupRow>(
    `SELECT command_index, stream, stream_version::int, tx::text, gp::int, error_code, error_detail
       FROM es.append_group($1::jsonb)`,
    [
      JSON.stringify(
        commands.map((appends) => ({
          appends: appends.map((a) => ({ ...a, stream_type: "test" })),
          release_hold: null,
        })),
      ),
    ],
  );
  const after = await calls();
  return { rows, setBased: after.set - before.set, eachCommand: after.each - before.each };
}

/** A connection in a transaction that counts PL/pgSQL function calls; committed (or rolled back) by `finish`. */
async function session(): Promise<pg.PoolClient> {
  const client = await db.pool.connect();
  await client.query("BEGIN");
  await client.query("SET LOCAL track_functions = 'pl'");
  return client;
}
async function finish(client: pg.PoolClient, outcome: "COMMIT" | "ROLLBACK" = "COMMIT"): Promise<void> {
  try {
    await client.query(outcome);
  } finally {
    client.release();
  }
}

async function stored(streamId: string): Promise<{ position: number; gp: number; id: string }[]> {
  const { rows } = await db.pool.query<{ position: number; gp: number; id: string }>(
    `SELECT stream_position::int AS position, global_position::int AS gp, event_id::text AS id
       FROM es.events WHERE stream_id = $1 ORDER BY stream_position`,
    [streamId],
  );
  return rows;
}

async function version(streamId: string): Promise<number | undefined> {
  const { rows } = await db.pool.query<{ version: number }>(
    "SELECT version::int FROM es.streams WHERE stream_id = $1",
    [streamId],
  );
  return rows[0]?.version;
}

describe("group commit, set-based", () => {
  it("when every command of a group passes, then the group is appended in one pass: each stream at its version, the events in command order with consecutive global positions", async () => {
    const existing = newStream();
    await db.pool.query("SELECT * FROM es.append($1::jsonb)", [
      JSON.stringify([{ ...append(existing, "no_stream", 2), stream_type: "test" }]),
    ]);
    const fresh = [newStream(), newStream(), newStream()];
    const commands: Appended[][] = [
      [append(fresh[0] as string, "no_stream", 2)],
      [append(existing, "2", 1), append(fresh[1] as string, "any", 1)],
      [append(fresh[2] as string, "0", 3)],
    ];
    const client = await session();
    const { rows, setBased, eachCommand } = await group(client, commands);
    await finish(client);

    expect({ setBased, eachCommand }).toEqual({ setBased: 1, eachCommand: 0 });
    expect(rows.every((r) => r.error_code === null)).toBe(true);
    const answer = (cmd: number, stream: string) =>
      rows.find((r) => r.command_index === cmd && r.stream === stream);
    expect(answer(1, fresh[0] as string)?.stream_version).toBe(2);
    expect(answer(2, existing)?.stream_version).toBe(3);
    expect(answer(2, fresh[1] as string)?.stream_version).toBe(1);
    expect(answer(3, fresh[2] as string)?.stream_version).toBe(3);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    // Positions: each stream from where it was; global order = command order, then stream order, then given order.
    const written = [
      ...(await stored(fresh[0] as string)),
      ...(await stored(existing)).slice(2),
      ...(await stored(fresh[1] as string)),
      ...(await stored(fresh[2] as string)),
    ];
    const sent = commands.flat().flatMap((a) => a.events.map((e) => e.event_id));
    const byStreamOrder = [
      commands[0]?.[0],
      ...[...(commands[1] ?? [])].sort((a, b) => a.stream_id.localeCompare(b.stream_id)),
      commands[2]?.[0],
    ].flatMap((a) => a?.events.map((e) => e.event_id) ?? []);
    expect(new Set(written.map((w) => w.id))).toEqual(new Set(sent));
    const inGlobalOrder = [...written].sort((a, b) => a.gp - b.gp);
    expect(inGlobalOrder.map((w) => w.id)).toEqual(byStreamOrder);
    const first = inGlobalOrder[0]?.gp ?? 0;
    expect(inGlobalOrder.map((w) => w.gp)).toEqual(inGlobalOrder.map((_, i) => first + i));
    expect((await stored(existing)).map((w) => w.position)).toEqual([1, 2, 3]);
    expect((await stored(fresh[2] as string)).map((w) => w.position)).toEqual([1, 2, 3]);
    // Each answer's position is its stream's last event.
    for (const r of rows) {
      const last = (await stored(r.stream as string)).at(-1);
      expect(r.gp).toBe(last?.gp);
    }
    expect(await version(existing)).toBe(3);
  });

  it("when one command of a group has a wrong expected version, then it alone is refused with its stream's actual version, the others are appended, and no global position is skipped", async () => {
    const contested = newStream();
    await db.pool.query("SELECT * FROM es.append($1::jsonb)", [
      JSON.stringify([{ ...append(contested, "no_stream", 2), stream_type: "test" }]),
    ]);
    const [a, b, missing] = [newStream(), newStream(), newStream()];
    const client = await session();
    const { rows, eachCommand } = await group(client, [
      [append(a, "no_stream")],
      [append(contested, "1")],
      [append(b, "no_stream")],
      [append(missing, "stream_exists")],
    ]);
    await finish(client);

    expect(eachCommand).toBe(1);
    const refusal = (cmd: number) => rows.find((r) => r.command_index === cmd);
    expect(refusal(2)?.error_code).toBe("P0001");
    expect(JSON.parse(refusal(2)?.error_detail ?? "{}")).toEqual({
      stream_id: contested,
      expected: "1",
      actual: 2,
    });
    expect(refusal(4)?.error_code).toBe("P0001");
    expect(await version(missing)).toBeUndefined();
    expect(await version(contested)).toBe(2);
    const [wa, wb] = [(await stored(a))[0], (await stored(b))[0]];
    expect(wa?.position).toBe(1);
    expect(wb?.gp).toBe((wa?.gp ?? 0) + 1);
  });

  it("when a grouped command repeats an append already stored, then it answers as the original did and writes nothing, and the rest of the group is appended", async () => {
    const streamId = newStream();
    const original = append(streamId, "no_stream", 2);
    const first = await db.pool.query<{ version: number; gp: number; tx: string }>(
      "SELECT version::int, last_global_position::int AS gp, transaction_id::text AS tx FROM es.append($1::jsonb)",
      [JSON.stringify([{ ...original, stream_type: "test" }])],
    );
    const other = newStream();
    const client = await session();
    const { rows, eachCommand } = await group(client, [[original], [append(other, "no_stream")]]);
    await finish(client);

    expect(eachCommand).toBe(1);
    const retry = rows.find((r) => r.command_index === 1);
    expect({ version: retry?.stream_version, gp: retry?.gp, tx: retry?.tx }).toEqual(first.rows[0]);
    expect(await stored(streamId)).toHaveLength(2);
    expect(await stored(other)).toHaveLength(1);
  });

  it("when a grouped command appends to a stream a newer transaction appended to, then it alone is refused as a stream order conflict", async () => {
    const streamId = newStream();
    const client = await session();
    // The group's transaction is the older one: its id is taken before the other append commits.
    await client.query("SELECT pg_current_xact_id()");
    await db.pool.query("SELECT * FROM es.append($1::jsonb)", [
      JSON.stringify([{ ...append(streamId, "no_stream"), stream_type: "test" }]),
    ]);
    const bystander = newStream();
    const { rows } = await group(client, [[append(streamId, "any")], [append(bystander, "no_stream")]]);
    await finish(client);

    expect(rows.find((r) => r.command_index === 1)?.error_code).toBe("40001");
    expect(rows.find((r) => r.command_index === 2)?.stream_version).toBe(1);
    expect(await stored(streamId)).toHaveLength(1);
  });

  it("when thousands of events are stored, then a group's checks find what they need through indexes, never by scanning every event", async () => {
    await db.pool.query("SELECT * FROM es.append($1::jsonb)", [
      JSON.stringify([{ ...append(newStream(), "no_stream", 3000), stream_type: "test" }]),
    ]);
    const client = await session();
    try {
      const streams = Array.from({ length: 4 }, () => newStream());
      // More calls than the plan cache's five custom plans, so the generic plans are exercised too.
      for (let i = 0; i < 7; i++) {
        const { rows, setBased } = await group(
          client,
          streams.map((s) => [append(s, i === 0 ? "no_stream" : String(i))]),
        );
        expect(setBased).toBe(1);
        expect(rows.every((r) => r.error_code === null)).toBe(true);
      }
      const { rows } = await client.query<{ scans: number }>(
        "SELECT pg_stat_get_xact_numscans('es.events'::regclass)::int AS scans",
      );
      expect(rows[0]?.scans).toBe(0);
    } finally {
      await finish(client, "ROLLBACK");
    }
  });
});

describe("group commit, lock order", () => {
  /** Resolves once the backend `pid` waits for a lock (bounded: the test fails rather than hang). */
  async function waitingForLock(pid: number): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await db.pool.query<{ wait: string | null }>(
        "SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1",
        [pid],
      );
      if (rows[0]?.wait === "Lock") return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`backend ${pid} never waited for a lock`);
  }

  it("when a group appended command by command names streams in the opposite order to an append holding one of them, then neither deadlocks: the group waits before locking anything and both commit", async () => {
    // Stream order: `first` < `second`. The group's first command names `second`, its second `first`, and a third
    // command names `second` again, which sends the group command by command (es.append_group_each).
    const suffix = randomUUID();
    const first = `test-a-${suffix}`;
    const second = `test-b-${suffix}`;
    for (const streamId of [first, second])
      await db.pool.query("SELECT * FROM es.append($1::jsonb)", [
        JSON.stringify([{ ...append(streamId, "no_stream"), stream_type: "test" }]),
      ]);

    // An exchange appended alone, midway: it holds `first` and will want `second`, as es.append locks in order.
    const alone = await db.pool.connect();
    const grouped = await session();
    try {
      await alone.query("BEGIN");
      await alone.query("SET LOCAL deadlock_timeout = '100ms'");
      await alone.query("SELECT * FROM es.append($1::jsonb)", [
        JSON.stringify([{ ...append(first, "any"), stream_type: "test" }]),
      ]);
      await grouped.query("SET LOCAL deadlock_timeout = '100ms'");
      const pid = (await grouped.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]
        ?.pid as number;
      const groupAnswer = group(grouped, [
        [append(second, "any")],
        [append(first, "any")],
        [append(second, "any")],
      ]);
      await waitingForLock(pid);

      // Before the fix the group held `second` here, and this append deadlocked with it.
      const aloneAnswer = await alone.query<{ version: string }>("SELECT version FROM es.append($1::jsonb)", [
        JSON.stringify([{ ...append(second, "any"), stream_type: "test" }]),
      ]);
      await alone.query("COMMIT");
      const { rows, eachCommand } = await groupAnswer;
      await grouped.query("COMMIT");

      expect(Number(aloneAnswer.rows[0]?.version)).toBe(2);
      expect(eachCommand).toBe(1);
      expect(rows.map((r) => [r.command_index, r.stream, r.stream_version, r.error_code])).toEqual([
        [1, second, 3, null],
        [2, first, 3, null],
        [3, second, 4, null],
      ]);
      expect(await stored(first)).toHaveLength(3);
      expect(await stored(second)).toHaveLength(4);
    } finally {
      // Ends a transaction a failed assertion left open; after COMMIT it is only a warning.
      await alone.query("ROLLBACK");
      alone.release();
      await grouped.query("ROLLBACK");
      grouped.release();
    }
  });
});
