import type { ExportedEvent, ExportHeader } from "@skyward/contracts/audit";
import type pg from "pg";
import { type ChainFilter, chainHead, listAnchors, readChained } from "./chain.ts";

/**
 * A stream or a time range as JSON Lines: a header (filter, chain head, anchors), then one line per chained event
 * with its link and the link before it, so that an auditor checks it with the file alone (verifyExportLines).
 */
export async function* exportLines(
  db: Pick<pg.Pool, "query">,
  filter: ChainFilter,
  scope?: (offset: number) => { sql: string; params: unknown[] },
  now: () => Date = () => new Date(),
): AsyncGenerator<string> {
  const head = await chainHead(db);
  const described: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && key !== "after_seq") described[key] = String(value);
  const header: ExportHeader = {
    kind: "header",
    format: "skyward-event-log/1",
    exported_at: now().toISOString(),
    filter: described,
    head: { seq: head.seq, hash: head.hash },
    anchors: await listAnchors(db),
  };
  yield `${JSON.stringify(header)}\n`;
  let after = filter.after_seq ?? 0;
  for (;;) {
    const page = await readChained(db, { ...filter, after_seq: after }, 1000, scope);
    for (const c of page) {
      const line: ExportedEvent = {
        kind: "event",
        seq: c.seq,
        prev_hash: c.prevHash,
        hash: c.hash,
        event: c.event,
      };
      yield `${JSON.stringify(line)}\n`;
    }
    const last = page.at(-1);
    if (!last || page.length < 1000) return;
    after = last.seq;
  }
}
