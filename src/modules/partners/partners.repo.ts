import type { Sql } from '../../platform/db/pool.js';
import { likePattern } from '../../platform/http/paging.js';

export interface PartnerRow {
  id: string;
  name: string;
  status_id: number;
  created_at: Date;
  modified_at: Date;
}

export async function insertPartner(sql: Sql, partner: { id: string; name: string; now: Date }): Promise<PartnerRow> {
  const { rows } = await sql.query<PartnerRow>(
    `INSERT INTO partners (id, name, created_at, modified_at) VALUES ($1, $2, $3, $3) RETURNING *`,
    [partner.id, partner.name, partner.now],
  );
  return rows[0]!;
}

export async function findPartner(sql: Sql, id: string): Promise<PartnerRow | undefined> {
  const { rows } = await sql.query<PartnerRow>('SELECT * FROM partners WHERE id = $1', [id]);
  return rows[0];
}

export async function countPartners(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
  return rows[0]!.n;
}

/** The newest partners; `search` matches the name in part. */
export async function listPartners(sql: Sql, search: string | undefined, limit: number): Promise<PartnerRow[]> {
  const { rows } = await sql.query<PartnerRow>(
    `SELECT * FROM partners WHERE $1::text IS NULL OR name ILIKE $1 ORDER BY created_at DESC, id LIMIT $2`,
    [search ? likePattern(search) : null, limit],
  );
  return rows;
}
