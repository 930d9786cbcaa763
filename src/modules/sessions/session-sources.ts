import { nameBasedId } from '../../platform/crypto/ids.js';
import type { Sql } from '../../platform/db/pool.js';
import type { Transaction } from '../payments/transactions.model.js';
import type { Address } from '../reference/address.js';
import type { PayerPayment } from './session-payments.js';
import type { PaymentSession } from './sessions.model.js';

/**
 * A payment source that collects through the hosted checkout: an invoice, a payment link. The session holds the
 * payer's page and its lease; the payments carry the source, not the session. Two ways to pay:
 * - the source pays itself (`pay`: the invoice, through its own guarded flow, so a payment made outside the session
 *   cannot double it);
 * - or the session charges as usual, under the source's name and one idempotency id per submission
 *   (`sessionAttemptId`), and tells the source: `begin` before (a single-use link is taken, or refused), `end` after
 *   a payment that did not go through, `completed` inside the transaction that completes the session (exactly once).
 */
export interface SessionSource {
  pay?(session: PaymentSession, payment: PayerPayment, billing: Address | null): Promise<Transaction>;
  begin?(session: PaymentSession): Promise<void>;
  end?(session: PaymentSession): Promise<void>;
  completed?(tx: Sql, session: PaymentSession, transaction: Transaction): Promise<void>;
  /** The payments this session's submissions made, for recovery after a lost answer or a dead node. */
  attempts(session: PaymentSession): Promise<Transaction[]>;
}

/** The idempotency id of a session's submission number `attempt` (1-based) for another source. */
export const sessionAttemptId = (sessionId: string, attempt: number) =>
  nameBasedId(`session-payment:${sessionId}:${attempt}`);

/** Every submission id a session can have used so far (its declines, and the one in progress). */
export const sessionAttemptIds = (session: PaymentSession) =>
  Array.from({ length: session.failedAttempts + 1 }, (_, n) => sessionAttemptId(session.id, n + 1));

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
