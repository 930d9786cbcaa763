import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { isUniqueViolation } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PartnersService } from '../partners/partners.service.js';

/** A caller of the partner API: an identity (issuer, subject) the operator registered, and what it may see. */
export interface PartnerPrincipal {
  id: string;
  issuer: string;
  subject: string;
  label: string | null;
  /** null: system scope (every merchant). */
  partnerId: string | null;
  system: boolean;
  permissions: string[];
  createdAt: Date;
}

interface Row {
  id: string;
  issuer: string;
  subject: string;
  label: string | null;
  partner_id: string | null;
  system: boolean;
  permissions: string[];
  created_at: Date;
}

const toPrincipal = (r: Row): PartnerPrincipal => ({
  id: r.id,
  issuer: r.issuer,
  subject: r.subject,
  label: r.label,
  partnerId: r.partner_id,
  system: r.system,
  permissions: r.permissions,
  createdAt: r.created_at,
});

export const DEFAULT_PERMISSIONS = ['partner:read'];

/** The registered partner-API principals (`/admin/v1/partner-principals`). */
export class PartnerPrincipals {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly partners: PartnersService,
    /** The built-in identity provider's issuer: the default of a new principal. */
    private readonly builtinIssuer: string,
  ) {}

  async create(input: {
    issuer?: string | null;
    subject: string;
    label?: string | null;
    partnerId?: string | null;
    system?: boolean;
    permissions?: string[];
  }): Promise<PartnerPrincipal> {
    const subject = input.subject.trim();
    if (subject === '') throw ValidationError.field('subject', "'subject' must not be blank.");
    const system = input.system === true;
    if (system === Boolean(input.partnerId)) {
      throw ValidationError.field('partnerId', "Give either 'partnerId' or 'system: true'.");
    }
    if (input.partnerId) await this.partners.getPartner(input.partnerId);
    try {
      const { rows } = await this.pool.query<Row>(
        `INSERT INTO partner_principals (id, issuer, subject, label, partner_id, system, permissions, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          newId(),
          input.issuer?.trim() || this.builtinIssuer,
          subject,
          input.label?.trim() || null,
          input.partnerId ?? null,
          system,
          input.permissions ?? DEFAULT_PERMISSIONS,
          this.clock.now(),
        ],
      );
      return toPrincipal(rows[0]!);
    } catch (error) {
      if (isUniqueViolation(error)) throw ValidationError.field('subject', 'This issuer and subject are registered.');
      throw error;
    }
  }

  async list(): Promise<PartnerPrincipal[]> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM partner_principals ORDER BY created_at, id');
    return rows.map(toPrincipal);
  }

  async get(id: string): Promise<PartnerPrincipal> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM partner_principals WHERE id = $1', [id]);
    if (!rows[0]) throw new NotFoundError('PartnerPrincipal', id);
    return toPrincipal(rows[0]);
  }

  async delete(id: string): Promise<void> {
    const { rowCount } = await this.pool.query('DELETE FROM partner_principals WHERE id = $1', [id]);
    if (rowCount === 0) throw new NotFoundError('PartnerPrincipal', id);
  }

  /** The principal of a verified identity, if registered. */
  async byIdentity(issuer: string, subject: string): Promise<PartnerPrincipal | undefined> {
    const { rows } = await this.pool.query<Row>({
      name: 'partner-principals.by-identity',
      text: 'SELECT * FROM partner_principals WHERE issuer = $1 AND subject = $2',
      values: [issuer, subject],
    });
    return rows[0] ? toPrincipal(rows[0]) : undefined;
  }
}
