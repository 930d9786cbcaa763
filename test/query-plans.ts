// Reading PostgreSQL's plans in tests that pin how a statement reaches its rows (EXPLAIN (FORMAT JSON)).
import type pg from 'pg';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** With EXPLAIN ANALYZE: rows per loop, loops, and rows a filter dropped. */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** A row of an `EXPLAIN (FORMAT JSON)` result. */
export type ExplainRow = { 'QUERY PLAN': Array<{ Plan: PlanNode }> };

/** The plan of an `EXPLAIN (FORMAT JSON)` result's rows. */
export const planOf = (rows: ExplainRow[]): PlanNode => rows[0]!['QUERY PLAN'][0]!.Plan;

/** Every read of `relation` in a plan (its writes left out): node type and index, e.g. "Index Scan transactions_pkey". */
export function scansOf(node: PlanNode, relation: string, found: string[] = []): string[] {
  if (node['Relation Name'] === relation && node['Node Type'] !== 'ModifyTable')
    found.push(`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim());
  for (const child of node.Plans ?? []) scansOf(child, relation, found);
  return found;
}

/**
 * Rows every read of a relation whose name starts with `prefix` (a partitioned table's partitions) returned or filtered
 * out, over all its loops, in an `EXPLAIN (ANALYZE)` plan; its writes left out.
 */
export function rowsRead(node: PlanNode, prefix: string): number {
  const own =
    node['Relation Name']?.startsWith(prefix) && node['Node Type'] !== 'ModifyTable'
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, prefix), 0);
}

/**
 * `text` prepared as `name` on one connection of `pool` with the plan PostgreSQL keeps for a long-lived connection
 * (generic), for `use` to EXPLAIN; deallocated and the connection reset afterwards.
 */
export async function withGenericPlan<T>(
  pool: pg.Pool,
  name: string,
  text: string,
  use: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE ${name} AS ${text}`);
    return await use(client);
  } finally {
    await client.query(`DEALLOCATE ${name}`).catch(() => {});
    await client.query('RESET plan_cache_mode').catch(() => {});
    client.release();
  }
}
