import type { CardOutcome, ProcessorNotification } from '../../../connectors/card/card-connector.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { fromCents } from '../../../platform/money.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import { type PendingOperation, type Transaction, TransactionStatus } from '../transactions.model.js';
import { findTransaction, lockTransactionById, saveTransaction } from '../transactions.repo.js';
import type { CardContext } from './card-context.js';
import { authorisationOutcome, isNewPayment } from './reconcile.js';

/** Which operation in flight each modification's notification settles. */
const SETTLES: Partial<Record<ProcessorNotification['kind'], PendingOperation['operation']>> = {
  capture: 'capture',
  'capture-failed': 'capture',
  cancellation: 'void',
  'cancel-or-refund': 'void',
  'authorisation-adjustment': 'tip-adjust',
  refund: 'refund',
  'refund-failed': 'refund',
};
const FAILURES: ReadonlySet<ProcessorNotification['kind']> = new Set(['capture-failed', 'refund-failed']);
const TECHNICAL_CANCEL_MESSAGE = 'Cancelled after its outcome was unknown; nothing was charged.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a processor's notification does to the transaction it is about (docs/connectors.md, "Notifications"): it
 * settles the operation that waits for it, through the same writers as a call's answer (state, ledger, events, the
 * merchant's webhooks), and nothing else. Applying one again changes nothing: each writer acts only while the operation
 * it settles is still in flight. Answers what it did, for the notification's record.
 */
export async function applyProcessorNotification(
  ctx: CardContext,
  processor: PaymentProcessor,
  n: ProcessorNotification,
): Promise<string> {
  // Every reference Tessera sends starts with the transaction's id (a modification's is `<id>:<operation>:...`).
  const id = n.reference.split(':')[0]!;
  if (!UUID.test(id)) return 'not a reference of Tessera';
  const t = await findTransaction(ctx.deps.pool, processor.merchantId, id);
  if (!t || t.processorId !== processor.id) return 'no such transaction of this processor';
  switch (n.kind) {
    case 'authorisation':
      return onAuthorisation(ctx, t, processor, n);
    case 'technical-cancel':
      return onTechnicalCancel(ctx, t, processor, n);
    case 'chargeback':
      return onChargeback(ctx, t, n);
    default: {
      const operation = SETTLES[n.kind];
      if (!operation) return `nothing to do for ${n.eventCode}`;
      return onModification(ctx, t, processor, n, operation);
    }
  }
}

function approvedBy(n: ProcessorNotification): CardOutcome {
  return {
    kind: 'approved',
    responseCode: '00',
    message: `${n.eventCode} notified by the processor`,
    authCode: n.authCode ?? '',
    networkReference: n.processorReference,
    approvedCents: n.amountCents,
    avs: n.avs ?? null,
  };
}

function failedBy(n: ProcessorNotification): CardOutcome {
  return { kind: 'failed', responseCode: '06', message: n.reason ?? `${n.eventCode} failed at the processor` };
}

/** A capture, cancellation, amount update or refund the processor received: its notification says how it ended. */
async function onModification(
  ctx: CardContext,
  t: Transaction,
  processor: PaymentProcessor,
  n: ProcessorNotification,
  operation: PendingOperation['operation'],
): Promise<string> {
  const pending = t.pendingOperation;
  if (!pending || pending.operation !== operation || pending.reference !== n.reference) {
    if (FAILURES.has(n.kind) && n.success) {
      // A capture or refund the processor reported done, then failed afterwards: money did not move after all.
      ctx.deps.logger.error(
        { transactionId: t.id, eventCode: n.eventCode, processorReference: n.processorReference },
        'the processor reports a completed operation failed afterwards; the operator must reconcile it',
      );
      return `${n.eventCode} after the operation completed: left to the operator`;
    }
    return `no ${operation} of this reference in flight`;
  }
  const success = n.success && !FAILURES.has(n.kind);
  await ctx.writers[operation](ctx, t, pending, success ? approvedBy(n) : failedBy(n), processor);
  return success ? `${operation} done` : `${operation} failed`;
}

/**
 * The processor's authorisation of a new payment. The answer of the call decides while its node waits for it; once
 * that answer is lost (unknown) or was only "received", the notification decides. While a technical cancel settles
 * the payment, it is kept for the cancel's notification to weigh.
 */
async function onAuthorisation(
  ctx: CardContext,
  t: Transaction,
  processor: PaymentProcessor,
  n: ProcessorNotification,
): Promise<string> {
  const authorisation = {
    success: n.success,
    processorReference: n.processorReference,
    authCode: n.authCode ?? null,
    reason: n.reason,
  };
  // Kept and weighed under the row lock, so that whichever of this and a technical cancel's answer comes second
  // sees the other (processor-notification and reconcile.ts both decide under it).
  const decided = await withTransaction(ctx.deps.pool, async (tx) => {
    const locked = await lockTransactionById(tx, t.id);
    const p = locked?.pendingOperation;
    if (!locked || !p || !isNewPayment(p) || p.reference !== n.reference) return undefined;
    if (!p.authorisation) {
      locked.pendingOperation = { ...p, authorisation };
      await saveTransaction(tx, locked);
    }
    const pending = locked.pendingOperation!;
    const decide = pending.resolving ? pending.cancelRefused === true : pending.unknown || pending.awaiting;
    return { pending, decide };
  });
  if (!decided) {
    // An authorisation a technical cancel then cancelled is expected; any other for a payment Tessera recorded as
    // not charged means money moved that Tessera does not show.
    const charged = t.statusId !== TransactionStatus.Failed && t.statusId !== TransactionStatus.Declined;
    if (n.success && !charged && t.responseMessage !== TECHNICAL_CANCEL_MESSAGE) {
      ctx.deps.logger.error(
        { transactionId: t.id, processorReference: n.processorReference },
        'the processor authorised a payment recorded as not charged; the operator must reconcile it',
      );
    }
    return 'the payment is settled already';
  }
  const { pending, decide } = decided;
  if (!decide) return pending.resolving ? 'kept for the technical cancel' : 'kept: the call in flight decides';
  const outcome = authorisationOutcome(pending.authorisation!, pending.amountCents);
  await ctx.writers[pending.operation](ctx, t, pending, outcome, processor);
  return pending.authorisation!.success ? 'payment authorised' : 'payment refused';
}

/**
 * The processor's answer to a technical cancel (a payment whose outcome was unknown): cancelled means nothing was
 * charged; refused means the payment stands as its authorisation says (awaited if it has not come yet).
 */
async function onTechnicalCancel(
  ctx: CardContext,
  t: Transaction,
  processor: PaymentProcessor,
  n: ProcessorNotification,
): Promise<string> {
  const decided = await withTransaction(ctx.deps.pool, async (tx) => {
    const locked = await lockTransactionById(tx, t.id);
    const p = locked?.pendingOperation;
    if (!locked || !p || !isNewPayment(p) || !p.resolving) return undefined;
    if (!n.success && !p.authorisation) {
      locked.pendingOperation = { ...p, cancelRefused: true };
      await saveTransaction(tx, locked);
    }
    return p;
  });
  if (!decided) return 'no technical cancel in flight';
  if (n.success) {
    const cancelled: CardOutcome = {
      kind: 'failed',
      responseCode: '96',
      message: TECHNICAL_CANCEL_MESSAGE,
    };
    await ctx.writers[decided.operation](ctx, t, decided, cancelled, processor);
    return 'payment cancelled';
  }
  if (!decided.authorisation) return 'cancel refused: waiting for the authorisation';
  await ctx.writers[decided.operation](
    ctx,
    t,
    decided,
    authorisationOutcome(decided.authorisation, decided.amountCents),
    processor,
  );
  return 'cancel refused: the authorisation stands';
}

/** A chargeback: recorded on the payment, with an event (the merchant's webhook). */
async function onChargeback(ctx: CardContext, t: Transaction, n: ProcessorNotification): Promise<string> {
  if (!n.success) return 'not a chargeback';
  return withTransaction(ctx.deps.pool, async (tx) => {
    const locked = (await lockTransactionById(tx, t.id))!;
    if (locked.statusId === TransactionStatus.ChargedBack) return 'charged back already';
    if (locked.statusId !== TransactionStatus.Captured && locked.statusId !== TransactionStatus.Settled) {
      return `a ${locked.statusId} transaction cannot be charged back`;
    }
    locked.statusId = TransactionStatus.ChargedBack;
    locked.detailsMessage = `Charged back: ${n.reason ?? 'no reason given'}`;
    locked.modifiedAt = ctx.clock.now();
    await saveTransaction(tx, locked);
    ctx.event(tx, 'transaction.card.charged_back', locked, {
      chargebackAmount: fromCents(n.amountCents),
      reason: n.reason,
      processorReference: n.processorReference,
    });
    return 'charged back';
  });
}
