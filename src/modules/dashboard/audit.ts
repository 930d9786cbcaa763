import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import type { DashboardUser } from './accounts/users.repo.js';

export interface AuditEntry {
  user?: Pick<DashboardUser, 'id' | 'email' | 'ownerKind' | 'merchantId' | 'partnerId'> | undefined;
  /** Who it was about when there is no user (a sign-in with an unknown e-mail). */
  email?: string;
  action: string;
  target?: string;
  outcome: 'ok' | 'refused' | 'failed';
  detail?: Record<string, unknown>;
  ip?: string;
  correlationId?: string;
}

/** The dashboard's audit log: who did what, when, from where, and how it went. */
export class DashboardAudit {
  constructor(private readonly pool: Pool) {}

  async record(entry: AuditEntry, at: Date, sql: Sql = this.pool): Promise<void> {
    const u = entry.user;
    await sql.query(
      `INSERT INTO dashboard_audit (id, at, user_id, email, owner_kind, merchant_id, partner_id, action, target, outcome,
         detail, ip, correlation_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        newId(),
        at,
        u?.id ?? null,
        u?.email ?? entry.email ?? null,
        u?.ownerKind ?? null,
        u?.merchantId ?? null,
        u?.partnerId ?? null,
        entry.action,
        entry.target ?? null,
        entry.outcome,
        entry.detail ?? null,
        entry.ip ?? null,
        entry.correlationId ?? null,
      ],
    );
  }

  /** The newest entries about a merchant (or a partner, or the operator's own). */
  async list(owner: { merchantId?: string; partnerId?: string }, limit = 100) {
    const where = owner.merchantId
      ? 'merchant_id = $1'
      : owner.partnerId
        ? 'partner_id = $1'
        : "owner_kind = 'operator'";
    const values = owner.merchantId ? [owner.merchantId] : owner.partnerId ? [owner.partnerId] : [];
    const { rows } = await this.pool.query(
      `SELECT at, email, action, target, outcome, detail, ip FROM dashboard_audit WHERE ${where}
       ORDER BY at DESC, id DESC LIMIT ${Math.min(limit, 500)}`,
      values,
    );
    return rows as Array<{
      at: Date;
      email: string | null;
      action: string;
      target: string | null;
      outcome: string;
      detail: unknown;
      ip: string | null;
    }>;
  }
}
