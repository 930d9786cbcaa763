import { ValidationError } from '../../../platform/http/errors.js';
import { fromCents } from '../../../platform/money.js';
import type { RequestClaim } from '../payment-request.js';
import { TransactionStatus, TransactionType } from '../transactions.model.js';
import { type CardContext, followUp, illegal, type OperationResult, statusName } from './card-context.js';
import { operate } from './follow-up.js';

export async function capture(
  ctx: CardContext,
  merchantId: string,
  id: string,
  amountCents: number | undefined,
  claim?: RequestClaim,
): Promise<OperationResult> {
  return operate(
    ctx,
    merchantId,
    id,
    TransactionType.Capture,
    {
      operation: 'capture',
      guard: (t) => {
        if (t.statusId !== TransactionStatus.Authorized) {
          throw illegal(`Only an Authorized transaction can be captured; this one is ${statusName(t.statusId)}.`);
        }
        const amount = amountCents ?? t.authorizedCents;
        if (amount <= 0) throw ValidationError.field('amount', "'amount' must be greater than 0.");
        if (amount > t.authorizedCents) {
          throw ValidationError.field(
            'amount',
            `The capture amount exceeds the authorized amount ${fromCents(t.authorizedCents).toFixed(2)}.`,
          );
        }
        return { amountCents: amount };
      },
      call: (connector, t, pending, signal) => connector.capture(followUp(t, pending), { signal }),
    },
    claim,
  );
}
