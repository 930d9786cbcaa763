import type { Clock } from '../../../platform/clock/clock.js';
import type { Pool, Sql } from '../../../platform/db/pool.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import type { MerchantDetails } from '../merchants.service.js';
import { complianceSnapshot } from './portfolio.input.js';
import {
  type ComplianceSnapshot,
  derivedPortfolio,
  effectivePortfolio,
  mergeOverrides,
  type Portfolio,
  type PortfolioChanges,
} from './portfolio.model.js';
import {
  findPortfolio,
  insertSnapshot,
  latestSnapshot,
  listPortfolios,
  listSnapshots,
  type PortfolioFilter,
  type PortfolioPage,
  savePortfolio,
} from './portfolio.repo.js';
import type { ComplianceInput } from './portfolio.schemas.js';
import type { PortfolioScope } from './portfolio-query.js';

/**
 * The merchants' portfolio (what the partner portfolio API reports) and their PCI compliance snapshots. The
 * merchants service keeps the portfolio current in the same transaction as every change of a merchant; reads are
 * scoped (every merchant, or one partner's: anything else is a 404 like a missing merchant).
 */
export class MerchantPortfolios {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  /** Recomputes the merchant's portfolio from its record and the operator's overrides (with `changes` applied). */
  async sync(tx: Sql, details: MerchantDetails, changes: PortfolioChanges = {}, isNew = false): Promise<Portfolio> {
    const id = details.merchant.id;
    const previous = isNew ? undefined : await findPortfolio(tx, id, undefined, { forUpdate: true });
    const overrides = mergeOverrides(previous?.overrides ?? {}, changes);
    const now = this.clock.now();
    const fields = effectivePortfolio(derivedPortfolio(details), overrides, previous?.closeDate ?? null, now);
    if (fields.closeDate && fields.closeDate < fields.onboardingDate) {
      throw ValidationError.field('portfolio.closeDate', 'The close date must not be before the onboarding date.');
    }
    await savePortfolio(tx, id, details.merchant.partnerId, fields, overrides, now);
    return {
      ...fields,
      merchantId: id,
      partnerId: details.merchant.partnerId,
      overrides,
      compliance: previous?.compliance ?? { status: 'unknown', saqDueDate: null, lastUpdated: null },
      lastDataRefresh: now,
    };
  }

  async find(merchantId: string, sql: Sql = this.pool): Promise<Portfolio | undefined> {
    return findPortfolio(sql, merchantId);
  }

  async get(scope: PortfolioScope, merchantId: string): Promise<Portfolio> {
    const found = await findPortfolio(this.pool, merchantId, scope);
    if (!found) throw new NotFoundError('Merchant', merchantId);
    return found;
  }

  list(filter: PortfolioFilter, page: PortfolioPage): Promise<{ items: Portfolio[]; total: number }> {
    return listPortfolios(this.pool, filter, page);
  }

  /** Records a snapshot; `current` says whether it became the merchant's current compliance (it is the newest). */
  async recordCompliance(
    merchantId: string,
    input: ComplianceInput,
  ): Promise<{ snapshot: ComplianceSnapshot; current: boolean }> {
    const snapshot = complianceSnapshot(merchantId, input, this.clock.now());
    return withTransaction(this.pool, async (tx) => {
      if (!(await findPortfolio(tx, merchantId))) throw new NotFoundError('Merchant', merchantId);
      await insertSnapshot(tx, snapshot, this.clock.now());
      const latest = await latestSnapshot(tx, merchantId);
      return { snapshot, current: latest?.id === snapshot.id };
    });
  }

  /** The merchant's current compliance: its newest snapshot, or undefined when none was recorded. */
  async currentCompliance(scope: PortfolioScope, merchantId: string): Promise<ComplianceSnapshot | undefined> {
    await this.get(scope, merchantId);
    return latestSnapshot(this.pool, merchantId);
  }

  async complianceHistory(
    scope: PortfolioScope,
    merchantId: string,
    range: { from: Date | undefined; to: Date | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ items: ComplianceSnapshot[]; total: number }> {
    await this.get(scope, merchantId);
    return listSnapshots(this.pool, merchantId, range, page);
  }
}
