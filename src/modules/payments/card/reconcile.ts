import type { CardOutcome } from '../../../connectors/card/card-connector.js';
import { CONNECTOR_TIMEOUT_MS } from '../../../connectors/registry.js';
import { isNodeAlive } from '../../../platform/cluster/node-liveness.js';
import { NotFoundError } from '../../../platform/http/errors.js';
import type { PendingOperation, Transaction } from '../transactions.model.js';
import { findTransaction, findTransactionById } from '../transactions.repo.js';
import type { CardContext, OperationResult } from './card-context.js';

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
  if (pending.unknown) return true;
  if (Date.parse(pending.startedAt) < ctx.clock.now().getTime() - 2 * CONNECTOR_TIMEOUT_MS) return true;
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
  const connector = ctx.deps.connectors.card(processor.connector);
  const answer = await connector.resolve(pending.reference);
  let outcome: CardOutcome;
  if (answer.found) {
    if (answer.outcome.kind === 'unknown') return false;
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
