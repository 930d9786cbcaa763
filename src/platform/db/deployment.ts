import type { Pool } from './pool.js';

/** This deployment's id (the `deployment` row the first migration writes), the same on every node. */
export async function deploymentId(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ deployment_id: string }>('SELECT deployment_id FROM deployment');
  return rows[0]!.deployment_id;
}
