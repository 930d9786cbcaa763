import { NotFoundError, ValidationError } from '../../../../platform/http/errors.js';
import type { AchContext } from '../ach-context.js';
import { findBankFile } from './bank-files.repo.js';
import { expire, markSent } from './deliver.js';

export type AlertOutcome = 'delivered' | 'not-delivered';

/**
 * The operator's answer to an alert (a file the bank may have taken, docs/ach.md "Alerts"), after asking the bank:
 * delivered → the file is sent and its entries clear on their date; not delivered → the file expires and its
 * entries take the next window. Only a file in alert can be resolved, once.
 */
export async function resolveAlert(ctx: AchContext, bankFileId: string, outcome: AlertOutcome) {
  const file = await findBankFile(ctx.deps.pool, bankFileId);
  if (!file || file.direction !== 'outbound') throw new NotFoundError('AchBankFile', bankFileId);
  const done =
    outcome === 'delivered'
      ? await markSent(ctx, file, ['alert'])
      : await expire(ctx, file, 'Not delivered (the operator, after asking the bank)', ['alert'], { announce: false });
  if (!done) {
    throw ValidationError.field('outcome', `Only a file in alert can be resolved; this one is ${file.state}.`);
  }
  return (await findBankFile(ctx.deps.pool, bankFileId))!;
}
