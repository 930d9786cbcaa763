import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { countPartners, findPartner, insertPartner, listPartners, type PartnerRow } from './partners.repo.js';

export const PartnerStatus = { Active: 1, Suspended: 2 } as const;
export const PARTNER_STATUS_NAMES: Record<number, string> = { 1: 'Active', 2: 'Suspended' };

export interface Partner {
  id: string;
  name: string;
  statusId: number;
  createdOn: Date;
}

function toPartner(row: PartnerRow): Partner {
  return { id: row.id, name: row.name, statusId: row.status_id, createdOn: row.created_at };
}

export class PartnersService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  async createPartner(input: { name: string }, sql: Sql = this.pool): Promise<Partner> {
    const name = input.name.trim();
    if (name === '') throw ValidationError.field('name', "'name' must not be empty.");
    return toPartner(await insertPartner(sql, { id: newId(), name, now: this.clock.now() }));
  }

  /** Whether there are none yet (a sandbox's first start). */
  async isEmpty(sql: Sql = this.pool): Promise<boolean> {
    return (await countPartners(sql)) === 0;
  }

  /** The partner, or undefined when there is none with this id. */
  async findPartner(id: string, sql: Sql = this.pool): Promise<Partner | undefined> {
    const row = await findPartner(sql, id);
    return row ? toPartner(row) : undefined;
  }

  /** The newest partners (the operator's console). */
  async list(search: string | undefined, limit = 100): Promise<Partner[]> {
    return (await listPartners(this.pool, search, limit)).map(toPartner);
  }

  async getPartner(id: string, sql: Sql = this.pool): Promise<Partner> {
    const row = await findPartner(sql, id);
    if (!row) throw new NotFoundError('Partner', id);
    return toPartner(row);
  }
}
