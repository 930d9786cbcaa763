import { prepared, type Sql } from '../../platform/db/pool.js';
import { MerchantStatus } from '../merchants/merchants.model.js';
import { PartnerStatus } from '../partners/partners.service.js';

export interface ApiKeyRow {
  client_id: string;
  merchant_id: string | null;
  partner_id: string | null;
  name: string;
  permissions: string[];
  created_at: Date;
  deleted_at: Date | null;
}

export async function insertApiKey(
  sql: Sql,
  key: {
    clientId: string;
    merchantId: string | null;
    partnerId: string | null;
    name: string;
    secretHash: Buffer;
    createdBy: string;
    now: Date;
  },
): Promise<ApiKeyRow> {
  const { rows } = await sql.query<ApiKeyRow>(
    `INSERT INTO api_keys (client_id, merchant_id, partner_id, name, secret_hash, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING client_id, merchant_id, partner_id, name, permissions, created_at, deleted_at`,
    [key.clientId, key.merchantId, key.partnerId, key.name, key.secretHash, key.createdBy, key.now],
  );
  return rows[0]!;
}

export type KeyOwner = { merchantId: string } | { partnerId: string } | { anyOwner: true };

/** Soft-deletes an active key if it belongs to the owner; returns it, or undefined when there was nothing to delete. */
export async function softDeleteApiKey(
  sql: Sql,
  clientId: string,
  owner: KeyOwner,
  now: Date,
): Promise<ApiKeyRow | undefined> {
  const [clause, values] =
    'merchantId' in owner
      ? ['AND merchant_id = $3', [owner.merchantId]]
      : 'partnerId' in owner
        ? ['AND partner_id = $3', [owner.partnerId]]
        : ['', []];
  const { rows } = await sql.query<ApiKeyRow>(
    `UPDATE api_keys SET deleted_at = $2
     WHERE client_id = $1 AND deleted_at IS NULL ${clause}
     RETURNING client_id, merchant_id, partner_id, name, permissions, created_at, deleted_at`,
    [clientId, now, ...values],
  );
  return rows[0];
}

/** The merchant an active key belongs to (null: a partner's key, or no such active key). */
export async function activeKeyMerchant(sql: Sql, clientId: string): Promise<string | null> {
  const { rows } = await sql.query<{ merchant_id: string | null }>(
    'SELECT merchant_id FROM api_keys WHERE client_id = $1 AND deleted_at IS NULL',
    [clientId],
  );
  return rows[0]?.merchant_id ?? null;
}

/**
 * The merchant's active keys, locked until the transaction ends: of two deletions racing for a merchant's last two
 * keys, the second waits, then sees the first's deletion (its row no longer matches) and only one key left.
 */
export async function lockActiveMerchantKeys(sql: Sql, merchantId: string): Promise<string[]> {
  const { rows } = await sql.query<{ client_id: string }>(
    'SELECT client_id FROM api_keys WHERE merchant_id = $1 AND deleted_at IS NULL ORDER BY client_id FOR UPDATE',
    [merchantId],
  );
  return rows.map((r) => r.client_id);
}

/** A key's name (its label in the merchant's lists), or null for an unknown key. */
export async function findKeyName(sql: Sql, clientId: string): Promise<string | null> {
  const { rows } = await sql.query<{ name: string }>('SELECT name FROM api_keys WHERE client_id = $1', [clientId]);
  return rows[0]?.name ?? null;
}

/** Active keys of merchants: one merchant, or every merchant of a partner. */
export async function listMerchantKeys(
  sql: Sql,
  scope: { merchantId: string } | { partnerId: string },
): Promise<ApiKeyRow[]> {
  const { rows } =
    'merchantId' in scope
      ? await sql.query<ApiKeyRow>(
          `SELECT client_id, merchant_id, partner_id, name, permissions, created_at, deleted_at FROM api_keys
           WHERE merchant_id = $1 AND deleted_at IS NULL ORDER BY created_at, client_id`,
          [scope.merchantId],
        )
      : await sql.query<ApiKeyRow>(
          `SELECT k.client_id, k.merchant_id, k.partner_id, k.name, k.permissions, k.created_at, k.deleted_at
           FROM api_keys k JOIN merchant_accounts m ON m.id = k.merchant_id
           WHERE m.partner_id = $1 AND k.deleted_at IS NULL ORDER BY k.created_at, k.client_id`,
          [scope.partnerId],
        );
  return rows;
}

export interface CredentialRow {
  client_id: string;
  merchant_id: string | null;
  partner_id: string | null;
  merchant_partner_id: string | null;
  permissions: string[];
  secret_hash: Buffer;
  deleted: boolean;
  owner_active: boolean;
}

const credentialById = prepared(
  'api-key-credential',
  `SELECT k.client_id, k.merchant_id, k.partner_id, m.partner_id AS merchant_partner_id, k.permissions, k.secret_hash,
     k.deleted_at IS NOT NULL AS deleted,
     CASE WHEN k.merchant_id IS NOT NULL THEN m.status_id = ${MerchantStatus.Active}
       ELSE p.status_id = ${PartnerStatus.Active} END AS owner_active
   FROM api_keys k
   LEFT JOIN merchant_accounts m ON m.id = k.merchant_id
   LEFT JOIN partner_accounts p ON p.id = k.partner_id
   WHERE k.client_id = $1`,
);

/** Everything authentication needs about a key, in one indexed read. */
export async function findCredential(sql: Sql, clientId: string): Promise<CredentialRow | undefined> {
  const { rows } = await sql.query<CredentialRow>(credentialById([clientId]));
  return rows[0];
}
