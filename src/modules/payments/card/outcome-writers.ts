import type { CardOutcome } from '../../../connectors/card/card-connector.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import type { PendingOperation, Transaction } from '../transactions.model.js';
import type { CardContext } from './card-context.js';
import { followUpOutcomeWriter } from './follow-up.js';
import { paymentOutcomeWriter } from './payment-outcome.js';
import { refundOutcomeWriter } from './refund.js';

/**
 * How the processor's answer to an operation in flight is recorded when its own request could not (the reconciler,
 * a retry settling a cut-off attempt): each card operation brings its own.
 */
export type OutcomeWriter = (
  ctx: CardContext,
  t: Transaction,
  pending: PendingOperation,
  outcome: CardOutcome,
  processor: PaymentProcessor,
) => Promise<void>;

/** One writer per operation that can be in flight; a new operation does not compile until it has one. */
export type OutcomeWriters = Readonly<Record<PendingOperation['operation'], OutcomeWriter>>;

export const OUTCOME_WRITERS: OutcomeWriters = {
  sale: paymentOutcomeWriter,
  authorize: paymentOutcomeWriter,
  verify: paymentOutcomeWriter,
  'refund-without-reference': paymentOutcomeWriter,
  refund: refundOutcomeWriter,
  capture: followUpOutcomeWriter,
  void: followUpOutcomeWriter,
  'tip-adjust': followUpOutcomeWriter,
};
