import type pg from "pg";

/** One node of a plan as EXPLAIN (FORMAT JSON) gives it: its relation, loops, buffers and the rest by name. */
export type PlanNode = Record<string, unknown> & { "Relation Name"?: string };

/**
 * Runs a statement the app sent (caught by countingPool) again under EXPLAIN (ANALYZE, BUFFERS) in a transaction
 * rolled back afterwards, so a statement that writes leaves nothing, and answers every node of its plan.
 * `seqscanOff`: sequential scans only where no index can serve the statement, whatever the table's size.
 */
export async function explainedNodes(
  pool: pg.Pool,
  text: string,
  values: unknown[],
  options: { seqscanOff?: boolean } = {},
): Promise<PlanNode[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (options.seqscanOff) await client.query("SET LOCAL enable_seqscan = off");
    const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
      values,
    );
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      for (const child of (node.Plans as PlanNode[] | undefined) ?? []) walk(child);
    };
    const root = rows[0]?.["QUERY PLAN"][0]?.Plan;
    if (root) walk(root);
    return nodes;
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/** The nodes reading a read model's table (any of its generations). */
export const nodesOf = (nodes: readonly PlanNode[], table: string) =>
  nodes.filter((n) => n["Relation Name"]?.startsWith(`${table}_g`));
