import type { CardOutcome, ResolveContext } from '../../../connectors/card/card-connector.js';
import { cardCapabilities } from '../../../connectors/catalog.js';
import { isNodeAlive } from '../../../platform/cluster/node-liveness.js';
import { withTransaction } from '../../../platform/db/tx.js';
import { NotFoundError } from '../../../platform/http/errors.js';
import type { PendingOperation, Transaction } from '../transactions.model.js';
import { findTransaction, findTransactionById, lockTransactionById, saveTransaction } from '../transactions.repo.js';
import { type CardContext, followUp, type OperationResult } from './card-context.js';
import { awaitingNotification } from './payment-outcome.js';

/** Before acting on a transaction whose last outcome is unknown, ask the processor what happened. */
export async function resolveIfUnknown(ctx: CardContext, merchantId: string, id: string): Promise<void> {
  const t = await findTransaction(ctx.deps.pool, merchantId, id);
  if (!t) throw new NotFoundError('Transaction', id);
  if (t.pendingOperation && (await mayReconcile(ctx, t.pendingOperation))) await reconcile(ctx, t.id);
}

/**
 * Only act on an in-flight record once nobody else will record its answer: the call answered "unknown", its node
 * is gone, or its deadline passed twice. (The processor is asked with `resolve`, which also refuses a call still on
 * its way, so even a node that was only stopped cannot have it succeed afterwards.)
 */
export async function mayReconcile(ctx: CardContext, pending: PendingOperation): Promise<boolean> {
  // The processor took it: its notification settles it (processor-notification.ts), nobody asks again.
  if (pending.awaiting === 'notification') return false;
  if (pending.unknown) return true;
  if (Date.parse(pending.startedAt) < ctx.clock.now().getTime() - 2 * ctx.deps.config.connectorTimeoutMs) return true;
  if (pending.node === undefined || pending.node === ctx.deps.nodeId()) return false;
  return !(await isNodeAlive(ctx.deps.pool, pending.node));
}

/** Resolves an unknown outcome by querying the processor; returns false while it is still unknown. */
export async function reconcile(ctx: CardContext, id: string): Promise<boolean> {
  const t = await findTransactionById(ctx.deps.pool, id);
  if (!t) return true;
  const pending = t.pendingOperation;
  if (!pending || !(await mayReconcile(ctx, pending))) return true;
  const processor = await ctx.processorOf(t);
  if (isNewPayment(pending) && !pending.resolving && cardCapabilities(processor.connector).asynchronousModifications) {
    // A processor that notifies the authorisation: settled by it if it came, else marked as being cancelled before
    // the cancel is sent, so an authorisation arriving meanwhile waits for the cancel's answer (under the row lock).
    const marked = await markResolving(ctx, t.id, pending.reference);
    if (!marked) return true;
    if (marked.authorisation) {
      const outcome = authorisationOutcome(marked.authorisation, marked.amountCents);
      await ctx.writers[marked.operation](ctx, t, marked, outcome, processor);
      return true;
    }
  }
  const connector = ctx.deps.connectors.card(processor.connector);
  const answer = await connector.resolve(pending.reference, undefined, await resolveContext(ctx, t, pending));
  let outcome: CardOutcome;
  if (answer.found) {
    if (answer.outcome.kind === 'unknown') return false;
    if (answer.outcome.kind === 'received') {
      await awaitNotification(ctx, t.id, pending.reference, isNewPayment(pending), answer.outcome.processorReference);
      return true;
    }
    outcome = answer.outcome;
  } else {
    outcome = {
      kind: 'failed',
      responseCode: '96',
      message: 'The processor has no record of the operation; nothing was charged.',
    };
  }
  await ctx.writers[pending.operation](ctx, t, pending, outcome, processor);
  return true;
}

const NEW_PAYMENTS: ReadonlySet<PendingOperation['operation']> = new Set([
  'sale',
  'authorize',
  'verify',
  'refund-without-reference',
]);

/** A new payment (not a follow-up on one): settled by its authorisation, or by a technical cancel. */
export function isNewPayment(pending: PendingOperation): boolean {
  return NEW_PAYMENTS.has(pending.operation);
}

/** A processor's notified authorisation as the outcome of the payment it authorised (or refused). */
export function authorisationOutcome(
  a: NonNullable<PendingOperation['authorisation']>,
  amountCents: number,
): CardOutcome {
  return a.success
    ? {
        kind: 'approved',
        responseCode: '00',
        message: 'Authorised',
        authCode: a.authCode ?? '',
        networkReference: a.processorReference,
        approvedCents: amountCents,
        avs: null,
      }
    : { kind: 'declined', responseCode: '05', message: a.reason ?? 'Refused', avs: null };
}

/** What a processor that settles by notification needs to resolve the operation (connector `resolve`). */
async function resolveContext(ctx: CardContext, t: Transaction, pending: PendingOperation): Promise<ResolveContext> {
  const base = {
    operation: pending.operation,
    processorId: t.processorId,
    merchantId: t.merchantId,
    startedAt: pending.startedAt,
  };
  if (isNewPayment(pending)) return base;
  if (pending.operation === 'refund') {
    const original = await findTransactionById(ctx.deps.pool, t.originalTransactionId!);
    return {
      ...base,
      followUp: {
        reference: pending.reference,
        originalReference: original!.id,
        originalNetworkReference: original!.networkReference,
        merchantId: t.merchantId,
        processorId: t.processorId,
        amountCents: pending.amountCents,
      },
    };
  }
  return { ...base, followUp: followUp(t, pending) };
}

/** The payment as being cancelled, or its notified authorisation (undefined: settled meanwhile). */
async function markResolving(ctx: CardContext, id: string, reference: string): Promise<PendingOperation | undefined> {
  return withTransaction(ctx.deps.pool, async (tx) => {
    const t = await lockTransactionById(tx, id);
    const pending = t?.pendingOperation;
    if (!t || !pending || pending.reference !== reference) return undefined;
    if (pending.authorisation) return pending;
    t.pendingOperation = { ...pending, resolving: 'technical-cancel' };
    t.modifiedAt = ctx.clock.now();
    await saveTransaction(tx, t);
    return t.pendingOperation;
  });
}

/**
 * The processor took the question (a technical cancel, or the modification sent again): the operation waits for
 * its notification. A payment being cancelled is marked so, for the notification to know what it decides.
 */
async function awaitNotification(
  ctx: CardContext,
  id: string,
  reference: string,
  cancelling: boolean,
  processorReference: string | null,
): Promise<void> {
  await withTransaction(ctx.deps.pool, async (tx) => {
    const t = await lockTransactionById(tx, id);
    if (!t?.pendingOperation || t.pendingOperation.reference !== reference) return;
    t.pendingOperation = {
      ...awaitingNotification(t.pendingOperation, processorReference),
      ...(cancelling ? { resolving: 'technical-cancel' as const } : {}),
    };
    t.modifiedAt = ctx.clock.now();
    await saveTransaction(tx, t);
  });
}

/**
 * A retry of the request that created `t`, whose first attempt was cut off (its node died, or it failed with a
 * 5xx): that attempt is settled first (the processor is asked, as the reconciler does, once nobody else can still
 * record its answer) and is the answer. No second attempt is started, whatever the first one's outcome.
 */
export async function resume(ctx: CardContext, t: Transaction): Promise<OperationResult> {
  let current = t;
  if (current.pendingOperation) {
    await reconcile(ctx, current.id);
    current = (await findTransactionById(ctx.deps.pool, current.id)) ?? current;
  }
  return {
    transaction: current,
    typeId: current.typeId,
    outcome: null,
    processedCents: current.resultCode === 'Approve' ? current.totalCents : 0,
  };
}
