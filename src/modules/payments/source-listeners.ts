import type { Sql } from '../../platform/db/pool.js';
import type { Transaction } from './transactions.model.js';

/**
 * What a payment source hears of its payments after the call that made them has answered: an ACH debit clearing
 * days later, or coming back (a return), or a payment refunded in full. Called inside the transaction that records the change, so the source's own
 * record moves with the payment or not at all, on whichever node imports the file or clears the entries.
 */
export interface PaymentSourceListener {
  achCleared?(tx: Sql, transaction: Transaction): Promise<void>;
  achReturned?(tx: Sql, transaction: Transaction): Promise<void>;
  /** The payment was refunded in full (a card return, an ACH refund). */
  refunded?(tx: Sql, transaction: Transaction): Promise<void>;
}

/** The listeners by source type (the transaction's createMethodId); registered once at start-up. */
export class PaymentSourceListeners {
  private readonly listeners = new Map<number, PaymentSourceListener>();

  register(sourceTypeId: number, listener: PaymentSourceListener): void {
    if (this.listeners.has(sourceTypeId)) throw new Error(`A listener for source type ${sourceTypeId} is registered`);
    this.listeners.set(sourceTypeId, listener);
  }

  async achCleared(tx: Sql, t: Transaction): Promise<void> {
    await this.listeners.get(t.createMethodId)?.achCleared?.(tx, t);
  }

  async achReturned(tx: Sql, t: Transaction): Promise<void> {
    await this.listeners.get(t.createMethodId)?.achReturned?.(tx, t);
  }

  async refunded(tx: Sql, t: Transaction): Promise<void> {
    await this.listeners.get(t.createMethodId)?.refunded?.(tx, t);
  }
}
