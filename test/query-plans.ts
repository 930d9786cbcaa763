// Reading PostgreSQL's plans in tests that pin how a statement reaches its rows (EXPLAIN (FORMAT JSON)).

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
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
