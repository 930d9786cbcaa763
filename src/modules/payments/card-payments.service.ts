import type { ProcessorNotification } from '../../connectors/card/card-connector.js';
import type { PaymentProcessor } from '../merchants/merchants.model.js';
import { avsReversalQueue, enqueueReversal, openReversals, reverseAvsHold } from './card/avs-reversal.js';
import { capture } from './card/capture.js';
import { CardContext, type CardPaymentsDeps, type OperationResult } from './card/card-context.js';
import { type ClaimToClose, closeClaim } from './card/close-claim.js';
import { expireAuthorization } from './card/expire-authorization.js';
import { OUTCOME_WRITERS } from './card/outcome-writers.js';
import { pay } from './card/pay.js';
import { applyProcessorNotification } from './card/processor-notification.js';
import { reconcile } from './card/reconcile.js';
import { refund } from './card/refund.js';
import { tipAdjust } from './card/tip-adjust.js';
import { voidPayment } from './card/void.js';
import type { PaymentCommand, RequestClaim } from './payment-request.js';

export type { CardPaymentsDeps, OperationResult } from './card/card-context.js';
export { expireAuthorizationQueue, reconcileQueue } from './card/card-queues.js';
export { avsReversalQueue };

/**
 * Card payments: the state machine of a card transaction, one operation per file under `card/`, each run by the
 * operation driver (driver.ts): tx1 records the operation as in flight, the processor is called with a deadline that
 * aborts the call, tx2 applies the outcome with its ledger entries and events. An unknown outcome (timeout, system
 * error) stays recorded; the reconciler (or the next operation on the transaction) asks the processor what happened
 * before anything else is done, so nothing is charged twice.
 */
export class CardPaymentsService {
  private readonly ctx: CardContext;

  constructor(deps: CardPaymentsDeps) {
    this.ctx = new CardContext(deps, OUTCOME_WRITERS);
  }

  /** Sale, authorization, verification or refund without reference. */
  pay(cmd: PaymentCommand): Promise<OperationResult> {
    return pay(this.ctx, cmd);
  }

  /** The payment made under a lost claim, or a Failed record in its place that no later request can get past. */
  closeClaim(claim: ClaimToClose): Promise<OperationResult> {
    return closeClaim(this.ctx, claim);
  }

  capture(merchantId: string, id: string, amountCents: number | undefined, claim?: RequestClaim) {
    return capture(this.ctx, merchantId, id, amountCents, claim);
  }

  void(merchantId: string, id: string, claim?: RequestClaim): Promise<OperationResult> {
    return voidPayment(this.ctx, merchantId, id, claim);
  }

  tipAdjust(merchantId: string, id: string, tipCents: number, claim?: RequestClaim): Promise<OperationResult> {
    return tipAdjust(this.ctx, merchantId, id, tipCents, claim);
  }

  refund(
    merchantId: string,
    id: string,
    amountCents: number | undefined,
    cardDataSourceId: number,
    claim?: RequestClaim,
  ): Promise<OperationResult> {
    return refund(this.ctx, merchantId, id, amountCents, cardDataSourceId, claim);
  }

  /** Resolves an unknown outcome by asking the processor; false while it is still unknown. */
  reconcile(id: string): Promise<boolean> {
    return reconcile(this.ctx, id);
  }

  /**
   * A processor's notification (already verified and recorded by its connector's endpoint), applied to the
   * transaction it is about; what it did, for the record. Applying it again changes nothing.
   */
  applyNotification(processor: PaymentProcessor, notification: ProcessorNotification): Promise<string> {
    return applyProcessorNotification(this.ctx, processor, notification);
  }

  expireAuthorization(id: string): Promise<void> {
    return expireAuthorization(this.ctx, id);
  }

  /** One attempt at releasing the hold of an AVS-refused approval; throws while it is not released. */
  reverseAvsHold(merchantId: string, transactionId: string): Promise<void> {
    return reverseAvsHold(this.ctx, merchantId, transactionId);
  }

  /** Hands every reversal not done yet (older than `createdBefore`) to its job again. */
  async retryAvsReversals(createdBefore: Date): Promise<number> {
    const open = await openReversals(this.ctx.deps.pool, createdBefore, 500);
    for (const { transactionId, merchantId } of open) {
      await enqueueReversal(this.ctx.deps.pool, this.ctx, transactionId, merchantId);
    }
    return open.length;
  }
}
