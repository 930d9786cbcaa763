import type { Sql } from '../../platform/db/pool.js';

/** What is kept in the clear of each credential: which version set it, and its last four characters. */
export type CredentialHints = Record<string, { version: number; lastFour: string }>;

export interface CredentialsRow {
  processorId: string;
  version: number;
  merchantId: string;
  dataKeyVersion: number;
  secretSealed: Buffer;
  hints: CredentialHints;
  createdAt: Date;
  supersededAt: Date | null;
  overlapUntil: Date | null;
}

interface Row {
  processor_id: string;
  version: number;
  merchant_id: string;
  data_key_version: number;
  secret_sealed: Buffer;
  hints: CredentialHints;
  created_at: Date;
  superseded_at: Date | null;
  overlap_until: Date | null;
}

function toRow(r: Row): CredentialsRow {
  return {
    processorId: r.processor_id,
    version: r.version,
    merchantId: r.merchant_id,
    dataKeyVersion: r.data_key_version,
    secretSealed: r.secret_sealed,
    hints: r.hints,
    createdAt: r.created_at,
    supersededAt: r.superseded_at,
    overlapUntil: r.overlap_until,
  };
}

/** The current version, and the superseded ones still inside their overlap at `now`, newest first. */
export async function findUsableCredentials(sql: Sql, processorId: string, now: Date): Promise<CredentialsRow[]> {
  const { rows } = await sql.query<Row>({
    name: 'processor-credentials.usable',
    text: `SELECT /* across merchants: a connector's call or a notification names only the processor */ *
           FROM processor_credentials WHERE processor_id = $1 AND (superseded_at IS NULL OR overlap_until > $2)
           ORDER BY version DESC`,
    values: [processorId, now],
  });
  return rows.map(toRow);
}

/** The current version of each of these processors' credentials (what the operator API shows). */
export async function findCurrentCredentials(
  sql: Sql,
  merchantId: string,
  processorIds: readonly string[],
): Promise<CredentialsRow[]> {
  if (processorIds.length === 0) return [];
  const { rows } = await sql.query<Row>(
    `SELECT * FROM processor_credentials
     WHERE merchant_id = $1 AND processor_id = ANY($2::uuid[]) AND superseded_at IS NULL`,
    [merchantId, processorIds],
  );
  return rows.map(toRow);
}

/**
 * Adds a version and supersedes the one before it (whose notification credentials keep working until `overlapUntil`).
 * The caller holds the processor's row lock, so versions are taken one at a time.
 */
export async function insertCredentials(
  sql: Sql,
  row: Omit<CredentialsRow, 'supersededAt' | 'overlapUntil'>,
  previousOverlapUntil: Date,
): Promise<void> {
  await sql.query(
    `UPDATE processor_credentials SET superseded_at = $3, overlap_until = $4
     WHERE merchant_id = $1 AND processor_id = $2 AND superseded_at IS NULL`,
    [row.merchantId, row.processorId, row.createdAt, previousOverlapUntil],
  );
  await sql.query(
    `INSERT INTO processor_credentials
       (processor_id, version, merchant_id, data_key_version, secret_sealed, hints, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.processorId,
      row.version,
      row.merchantId,
      row.dataKeyVersion,
      row.secretSealed,
      JSON.stringify(row.hints),
      row.createdAt,
    ],
  );
}

/** The highest version so far (0: none). */
export async function latestVersion(sql: Sql, merchantId: string, processorId: string): Promise<number> {
  const { rows } = await sql.query<{ v: number | null }>(
    'SELECT max(version) AS v FROM processor_credentials WHERE merchant_id = $1 AND processor_id = $2',
    [merchantId, processorId],
  );
  return rows[0]?.v ?? 0;
}
