import type { Pool, Sql } from '../../platform/db/pool.js';
import type { Tx } from '../../platform/db/tx.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { type ConfigurationCache, MERCHANT_CHANNEL } from './configuration-cache.js';
import type { PaymentProcessor } from './merchants.model.js';
import {
  clearDefaultProcessor,
  findMerchant,
  insertProcessor,
  listProcessorsWithSettings,
  lockProcessor,
  saveProcessor,
} from './merchants.repo.js';

/** A processor with its settings (by kind: `connector` for the connector's own, `ach` for an ACH processor's). */
export type ProcessorWithSettings = PaymentProcessor & { settings: Record<string, unknown> };

/**
 * A merchant's payment processors as records: what the operator's processor API (the processors module) adds and
 * changes. Every change drops each node's cached configuration of the merchant at commit.
 */
export class MerchantProcessors {
  constructor(
    private readonly pool: Pool,
    private readonly configurations: ConfigurationCache,
  ) {}

  list(merchantId: string, sql: Sql = this.pool): Promise<ProcessorWithSettings[]> {
    return listProcessorsWithSettings(sql, merchantId);
  }

  /** Adds a processor to an existing merchant (404 otherwise); a new default replaces the method's old one. */
  async add(tx: Tx, processor: PaymentProcessor, settings: Record<string, unknown>, now: Date): Promise<void> {
    if (!(await findMerchant(tx, processor.merchantId))) throw new NotFoundError('Merchant', processor.merchantId);
    if (processor.isDefault) await clearDefaultProcessor(tx, processor.merchantId, processor.method);
    await insertProcessor(tx, processor, now, settings);
    await this.changed(tx, processor.merchantId);
  }

  /** The merchant's processor, locked until the transaction ends; 404 when the merchant has no such processor. */
  async lock(tx: Tx, merchantId: string, processorId: string): Promise<ProcessorWithSettings> {
    const found = await lockProcessor(tx, merchantId, processorId);
    if (!found) throw new NotFoundError('Payment processor', processorId);
    return found;
  }

  async save(tx: Tx, processor: PaymentProcessor, settings: Record<string, unknown>): Promise<void> {
    if (processor.isDefault) await clearDefaultProcessor(tx, processor.merchantId, processor.method);
    await saveProcessor(tx, processor, settings);
    await this.changed(tx, processor.merchantId);
  }

  private async changed(tx: Tx, merchantId: string): Promise<void> {
    await tx.query(`SELECT pg_notify('${MERCHANT_CHANNEL}', $1)`, [merchantId]);
    tx.afterCommit(() => this.configurations.delete(merchantId));
  }
}
