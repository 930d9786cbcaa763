import type { Transaction } from '../payments/transactions.model.js';
import type { Address } from '../reference/address.js';
import type { PayerPayment } from './session-payments.js';
import type { PaymentSession } from './sessions.model.js';

/**
 * A payment source that collects through the hosted checkout (an invoice; later a payment link). The session holds
 * the payer's page and its lease; the source pays, through its own guarded flow (so a payment made outside the
 * session cannot double it), and its payments carry the source, not the session.
 */
export interface SessionSource {
  /** Pays what the source is owed with what the payer entered; the payment made (approved, declined, pending). */
  pay(session: PaymentSession, payment: PayerPayment, billing: Address | null): Promise<Transaction>;
  /** The payments this session's submissions made, for recovery after a lost answer or a dead node. */
  attempts(session: PaymentSession): Promise<Transaction[]>;
}

/** The sources by type (a transaction's createMethodId); registered once at start-up. */
export class SessionSources {
  private readonly sources = new Map<number, SessionSource>();

  register(typeId: number, source: SessionSource): void {
    if (this.sources.has(typeId)) throw new Error(`A session source for type ${typeId} is registered`);
    this.sources.set(typeId, source);
  }

  of(session: PaymentSession): SessionSource | undefined {
    if (!session.paymentSource) return undefined;
    const source = this.sources.get(session.paymentSource.typeId);
    if (!source) throw new Error(`No session source for type ${session.paymentSource.typeId}`);
    return source;
  }
}
