// The tamper-evident log against a real PostgreSQL: rows edited, deleted or inserted behind the app's back are found.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "@jest/globals";
import { EventStore } from "../event-store/event-store.ts";
import { systemMetadata } from "../event-store/metadata.ts";
import { createTestDatabase, holdingPool, type TestDatabase } from "../testing.ts";
import { canonicalJson, linkHash, verifyExportLines } from "./canonical.ts";
import {
  anchorNow,
  CHAIN_BATCH,
  Chainer,
  canonicalOf,
  chainAll,
  type EventRow,
  linkRows,
  listAnchors,
  verifyChain,
} from "./chain.ts";
import { exportLines } from "./export.ts";

const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

/** A fresh database holding `streams` booking streams of 3 events each, all chained. */
async function loggedDatabase(streams = 5): Promise<{ db: TestDatabase; store: EventStore; ids: string[] }> {
  const db = await createTestDatabase();
  databases.push(db);
  const store = new EventStore(db.pool);
  const ids: string[] = [];
  for (let s = 0; s < streams; s++) {
    const locator = `L${s}${randomUUID().slice(0, 5)}`;
    ids.push(`booking-${locator}`);
    await store.append({
      streamId: `booking-${locator}`,
      expected: "no_stream",
      events: [1, 2, 3].map((n) => ({
        type: "Noted",
        data: { locator, n, amount: 1000 * n, note: "zażółć \u00e9 \u{1F600}" },
        metadata: systemMetadata(`trace-${s}`),
      })),
    });
  }
  await chainAll(db.pool, { anchorEvery: 4, batchSize: 2 });
  return { db, store, ids };
}

/** A fresh database whose log is one booking stream of `count` events, none chained yet. */
async function oneStreamLog(locator: string, count: number): Promise<TestDatabase> {
  const db = await createTestDatabase();
  databases.push(db);
  await new EventStore(db.pool).append({
    streamId: `booking-${locator}`,
    expected: "no_stream",
    events: Array.from({ length: count }, (_, n) => ({
      type: "Noted",
      data: { locator, n },
      metadata: systemMetadata(`trace-${locator}`),
    })),
  });
  return db;
}

/** The n-th event of the log in global order (1-based). */
async function nth(db: TestDatabase, n: number): Promise<{ gp: string; event_id: string; tx: string }> {
  const { rows } = await db.pool.query<{ gp: string; event_id: string; tx: string }>(
    `SELECT global_position::text AS gp, event_id::text, transaction_id::text AS tx FROM es.events
      ORDER BY transaction_id, global_position OFFSET $1 LIMIT 1`,
    [n - 1],
  );
  return rows[0] as { gp: string; event_id: string; tx: string };
}

describe("tamper-evident log", () => {
  it("chains every event in global order and verifies clean, anchors included", async () => {
    const { db } = await loggedDatabase();
    const report = await verifyChain(db.pool);
    expect(report).toMatchObject({ ok: true, checked: 15, head: { seq: 15 }, unchained: 0, problem: null });
    expect(report.anchors_checked).toBeGreaterThanOrEqual(3);
    const ranged = await verifyChain(db.pool, { fromSeq: 6, toSeq: 10 });
    expect(ranged).toMatchObject({ ok: true, checked: 5, from_seq: 6, to_seq: 10 });
  });

  it("names an event edited in place", async () => {
    const { db } = await loggedDatabase();
    const target = await nth(db, 7);
    await db.pool.query(
      `UPDATE es.events SET data = jsonb_set(data, '{amount}', '999999') WHERE global_position = $1`,
      [target.gp],
    );
    const report = await verifyChain(db.pool);
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({ kind: "edited", seq: 7, event_id: target.event_id });
    expect(report.checked).toBe(6);
  });

  it("names an edit of the metadata or the time alone", async () => {
    const { db } = await loggedDatabase();
    const target = await nth(db, 3);
    await db.pool.query(
      `UPDATE es.events SET recorded_at = recorded_at + interval '1 microsecond' WHERE global_position = $1`,
      [target.gp],
    );
    expect((await verifyChain(db.pool)).problem).toMatchObject({ kind: "edited", seq: 3 });
  });

  it("names a deleted event", async () => {
    const { db } = await loggedDatabase();
    const target = await nth(db, 11);
    await db.pool.query("DELETE FROM es.events WHERE global_position = $1", [target.gp]);
    const report = await verifyChain(db.pool);
    expect(report.problem).toMatchObject({ kind: "deleted", seq: 11, global_position: target.gp });
  });

  it("names an event inserted into the chained part of the log", async () => {
    const { db } = await loggedDatabase();
    const before = await nth(db, 4);
    const eventId = randomUUID();
    // Slipped in with an old transaction id: it sorts between chained events, where no append could put it.
    await db.pool.query(
      `INSERT INTO es.events (transaction_id, stream_id, stream_position, event_id, event_type, data, metadata)
       VALUES ($1::xid8, 'booking-FORGED', 1, $2, 'Noted', '{"amount": 1}', $3)`,
      [before.tx, eventId, JSON.stringify(systemMetadata())],
    );
    const report = await verifyChain(db.pool);
    expect(report.problem).toMatchObject({ kind: "inserted", event_id: eventId });
  });

  it("an edit whose chain was rewritten to match is caught by an anchor kept outside", async () => {
    const { db } = await loggedDatabase();
    const outside = (await listAnchors(db.pool)).map((a) => ({ seq: a.seq, hash: a.hash }));
    const target = await nth(db, 2);
    await db.pool.query(`UPDATE es.events SET data = '{"amount": 0}' WHERE global_position = $1`, [
      target.gp,
    ]);
    // The forger rechains from the edit on and drops the database's anchors.
    await db.pool.query("DELETE FROM es.chain_anchors");
    await db.pool.query("DELETE FROM es.chain WHERE seq >= 2");
    await chainAll(db.pool, { anchorEvery: 1_000_000, anchorEveryMs: 1e12 });
    await db.pool.query("DELETE FROM es.chain_anchors");
    expect((await verifyChain(db.pool)).ok).toBe(true); // the database alone cannot tell
    const report = await verifyChain(db.pool, { anchors: outside });
    expect(report.ok).toBe(false);
    expect(report.problem?.kind).toBe("anchor_mismatch");
    expect(report.problem?.seq).toBe(Math.min(...outside.map((a) => a.seq).filter((s) => s >= 2)));
  });

  it("a chain cut back below an outside anchor is caught", async () => {
    const { db } = await loggedDatabase();
    const anchor = await anchorNow(db.pool);
    await db.pool.query("DELETE FROM es.events WHERE (transaction_id, global_position) > ($1::xid8, 0)", [
      (await nth(db, 13)).tx,
    ]);
    await db.pool.query("DELETE FROM es.chain WHERE seq >= 13");
    const report = await verifyChain(db.pool, { anchors: anchor ? [anchor] : [] });
    expect(report.problem).toMatchObject({ kind: "anchor_mismatch", seq: 15 });
  });

  it("concurrent appends are all chained once, in the feed's order, by competing chainers", async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const store = new EventStore(db.pool);
    const chainers = [new Chainer(db.pool, { pollMs: 5 }), new Chainer(db.pool, { pollMs: 5 })];
    for (const c of chainers) c.start();
    try {
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 25; i++)
            await store.append({
              streamId: `load-${w}`,
              expected: "any",
              events: [{ type: "Noted", data: { w, i }, metadata: systemMetadata() }],
            });
        }),
      );
    } finally {
      await Promise.all(chainers.map((c) => c.stop()));
    }
    await chainAll(db.pool);
    const report = await verifyChain(db.pool);
    expect(report).toMatchObject({ ok: true, checked: 200, unchained: 0 });
    const { rows } = await db.pool.query<{ gp: string }>(
      "SELECT c.global_position::text AS gp FROM es.chain c ORDER BY c.seq",
    );
    const { rows: feed } = await db.pool.query<{ gp: string }>(
      "SELECT global_position::text AS gp FROM es.events ORDER BY transaction_id, global_position",
    );
    expect(rows).toEqual(feed);
  });

  it("a chainer links a backlog in short transactions of CHAIN_BATCH links each", async () => {
    const total = CHAIN_BATCH * 3 + 7;
    const db = await oneStreamLog("BACKLG", total);
    const chainer = new Chainer(db.pool, { minIntervalMs: 400, pollMs: 60_000 });
    chainer.start();
    try {
      const deadline = Date.now() + 20_000;
      let linked = 0;
      while (linked < total && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM es.chain");
        linked = rows[0]?.n ?? 0;
      }
      expect(linked).toBe(total);
    } finally {
      await chainer.stop();
    }
    // The links of each transaction (its xmin): none holds more than a batch, so none holds the feed back for long.
    const { rows: sizes } = await db.pool.query<{ links: number }>(
      "SELECT count(*)::int AS links FROM es.chain GROUP BY xmin::text ORDER BY links DESC",
    );
    expect(sizes.map((r) => r.links)).toEqual([CHAIN_BATCH, CHAIN_BATCH, CHAIN_BATCH, 7]);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: total, unchained: 0 });
  });

  it("a chainer held back by a running transaction links the backlog soon after it ends, without a wake-up", async () => {
    // A transaction with an id older than the backlog's, open while the backlog commits: from another database, as
    // any other transaction of the cluster would (the tests' other databases, a long report elsewhere).
    const other = await createTestDatabase();
    databases.push(other);
    const holder = await other.pool.connect();
    try {
      await holder.query("BEGIN; SELECT pg_current_xact_id()");
      const db = await oneStreamLog("HELDBK", 5);
      const chainer = new Chainer(db.pool, { minIntervalMs: 10, pollMs: 60_000 });
      chainer.start();
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const linkedCount = async () =>
          (await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM es.chain")).rows[0]?.n ?? 0;
        expect(await linkedCount()).toBe(0);
        await holder.query("COMMIT");
        const deadline = Date.now() + 10_000;
        while ((await linkedCount()) < 5 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await linkedCount()).toBe(5);
      } finally {
        await chainer.stop();
      }
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      holder.release();
    }
  });

  it("a chainer stopped while it looks behind the head stops at once, not after its poll", async () => {
    const db = await oneStreamLog("STOPLK", 1);
    await chainAll(db.pool);
    // Its look behind the head (the only statements the chainer sends on the pool itself) is held until it is stopped.
    const holding = holdingPool(db.pool);
    const chainer = new Chainer(holding.pool, { pollMs: 60_000 });
    const look = holding.hold();
    chainer.start();
    await look.sent;
    const stopping = chainer.stop();
    look.release();
    const outcome = await Promise.race([
      stopping.then(() => "stopped"),
      new Promise((resolve) => setTimeout(resolve, 5_000, "still running")),
    ]);
    expect(outcome).toBe("stopped");
  });

  it("chainAll links a log of more batches than its limit of looks that link nothing", async () => {
    const db = await oneStreamLog("LONGLG", 1003);
    await chainAll(db.pool, { batchSize: 1 });
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 1003, unchained: 0 });
  });

  it("an export of one stream verifies offline, and fails on an edited line", async () => {
    const { db, ids } = await loggedDatabase();
    const lines: string[] = [];
    for await (const line of exportLines(db.pool, { stream_id: ids[2] })) lines.push(line.trimEnd());
    expect(lines).toHaveLength(4);
    expect(verifyExportLines(lines)).toEqual({ ok: true, events: 3, problem: null });
    const forged = JSON.parse(lines[2] as string);
    forged.event.data.amount = 1;
    const bad = [...lines];
    bad[2] = JSON.stringify(forged);
    expect(verifyExportLines(bad)).toMatchObject({
      ok: false,
      problem: { line: 3, problem: { kind: "edited" } },
    });
  });

  it("a batch's links each hash their event onto the one before, from the chain's head", () => {
    const rows: EventRow[] = Array.from({ length: 250 }, (_, i) => ({
      gp: String(i + 1),
      tx: "900",
      stream_id: `booking-LNK${i}`,
      sp: "1",
      event_id: randomUUID(),
      event_type: "Noted",
      data: { n: i },
      metadata: systemMetadata("trace-links"),
      recorded_at: "2026-11-29T08:00:00.000000Z",
    }));
    const head = { seq: 7, hash: "f".repeat(64) };
    const { json, last } = linkRows(rows, head);
    const links = JSON.parse(json) as { seq: number; hash: string; locator: string | null }[];
    expect(links).toHaveLength(rows.length);
    let prev = head.hash;
    links.forEach((link, i) => {
      prev = linkHash(prev, canonicalOf(rows[i] as EventRow));
      expect(link).toMatchObject({ seq: head.seq + i + 1, hash: prev, locator: `LNK${i}` });
    });
    expect(last).toMatchObject({ seq: head.seq + rows.length, hash: prev });
  });

  it("a batch of many links (chainAll's batchSize) chains and verifies clean in a real log", async () => {
    const db = await oneStreamLog("MANYLK", 403);
    await chainAll(db.pool, { batchSize: 5000 });
    const report = await verifyChain(db.pool);
    expect(report).toMatchObject({ ok: true, checked: 403 });
  });

  it("canonical JSON does not depend on key order", () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: "é" }] })).toBe(
      canonicalJson({ a: [{ c: "é", d: null }], b: 1 }),
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    // UTF-16 order (upper case first, "é" after "z"), no undefined member, arrays kept in order, strings escaped.
    expect(canonicalJson({ é: [], z: [2, { y: '"', B: true }], a: undefined, Z: [[]] })).toBe(
      '{"Z":[[]],"z":[2,{"B":true,"y":"\\""}],"é":[]}',
    );
  });
});
