import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import { PosStatus } from './pos.model.js';
import { findOverdue, findPos, findStuckPayments, movePos } from './pos.repo.js';
import {
  ACCEPT_TIMEOUT_MS,
  CARD_TIMEOUT_MS,
  INCONSISTENT_AFTER_MS,
  type PosDeps,
  STUCK_AFTER_MS,
} from './pos-context.js';
import type { PosTerminalSide } from './pos-terminal-side.js';

const sweepQueue = defineQueue<Record<string, never>>('pos.sweep');

/**
 * The POS sweep (every 15 s of the business clock, on any node): transactions a terminal never accepted or never
 * sent a card for are ended, and payments whose node died or went silent are settled with the card network through
 * the payments core (found by the POS transaction's idempotency id, so never made twice).
 */
export async function sweepPos(deps: PosDeps, side: PosTerminalSide): Promise<void> {
  const now = deps.clock.nowMs();
  const overdue = await findOverdue(deps.pool, new Date(now - ACCEPT_TIMEOUT_MS), new Date(now - CARD_TIMEOUT_MS), 200);
  for (const pos of overdue) {
    const accepted = pos.statusId === PosStatus.TransactionProcessing;
    let to: number = PosStatus.Error;
    if (!accepted) {
      const terminal = await deps.terminals.get(pos.merchantId, pos.terminalId);
      if (!(await deps.terminals.presence(terminal)).online) to = PosStatus.TerminalOffline;
    }
    const ended = await movePos(deps.pool, pos.id, [pos.statusId], to, deps.clock.now(), {
      errorMessage: accepted
        ? 'No card was presented in time.'
        : to === PosStatus.TerminalOffline
          ? 'The terminal went offline before it accepted the transaction.'
          : 'The terminal did not accept the transaction in time.',
    });
    if (ended) await deps.channel.send(pos.terminalId, { type: 'transaction.cancel', posTransactionId: pos.id });
  }

  for (const pos of await findStuckPayments(deps.pool, new Date(now - STUCK_AFTER_MS), 200)) {
    await side
      .process(null, pos, null, true)
      .catch((error: unknown) =>
        deps.logger.error({ err: error, posTransactionId: pos.id }, 'POS sweep: recovery failed'),
      );
    const after = await findPos(deps.pool, pos.id);
    if (
      after?.statusId === PosStatus.TransactionSentToProcessor &&
      after.createdAt.getTime() <= now - INCONSISTENT_AFTER_MS
    ) {
      await movePos(
        deps.pool,
        pos.id,
        [PosStatus.TransactionSentToProcessor],
        PosStatus.Inconsistency,
        deps.clock.now(),
        {
          errorMessage: 'The card network could not tell what became of the payment; look it up before charging again.',
        },
      );
    }
  }
}

export function posQueues(deps: PosDeps, side: PosTerminalSide): QueueDefinition[] {
  return [sweepQueue.handler(() => sweepPos(deps, side))];
}

export const posSchedules: ScheduleDefinition[] = [{ name: 'pos.sweep', queue: sweepQueue.name, next: every(15) }];
