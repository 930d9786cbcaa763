import { newId } from '../../../platform/crypto/ids.js';
import { withTransaction } from '../../../platform/db/tx.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import { runOperation } from '../driver.js';
import type { Transaction } from '../transactions.model.js';
import { type PendingOperation, TransactionStatus } from '../transactions.model.js';
import { findTransaction, findTransactionById, saveTransaction } from '../transactions.repo.js';
import { type CardContext, followUp } from './card-context.js';
import { recordFollowUpOutcome } from './follow-up.js';
import { resolveIfUnknown } from './reconcile.js';

interface Started {
  t: Transaction;
  pending: PendingOperation;
  processor: PaymentProcessor;
}

/** An authorization left uncaptured for AUTHORIZATION_EXPIRY_DAYS voids itself (the expiry job runs this). */
export async function expireAuthorization(ctx: CardContext, id: string): Promise<void> {
  const merchantId = (await findTransactionById(ctx.deps.pool, id))?.merchantId;
  if (!merchantId) return;
  await runOperation<Started, void>({
    start: async () => {
      await resolveIfUnknown(ctx, merchantId, id);
      const claimed = await withTransaction(ctx.deps.pool, async (tx) => {
        const t = await findTransaction(tx, merchantId, id, { forUpdate: true });
        if (!t || t.statusId !== TransactionStatus.Authorized) return undefined;
        if (t.pendingOperation) throw new Error('An operation is in flight; expiring later');
        const pending: PendingOperation = {
          operation: 'void',
          reference: `${t.id}:expire:${newId()}`,
          amountCents: t.authorizedCents,
          startedAt: ctx.clock.now().toISOString(),
          node: ctx.deps.nodeId(),
        };
        t.pendingOperation = pending;
        await saveTransaction(tx, t);
        return { t, pending };
      });
      if (!claimed) return { answer: undefined };
      return { call: { ...claimed, processor: await ctx.processorOf(claimed.t) } };
    },
    call: ({ t, pending, processor }, signal) =>
      ctx.deps.connectors.card(processor.connector).void(followUp(t, pending), { signal }),
    finish: async ({ pending, processor }, outcome) => {
      await recordFollowUpOutcome(ctx, id, pending.reference, outcome, processor, 'Authorization expired');
    },
  });
}
