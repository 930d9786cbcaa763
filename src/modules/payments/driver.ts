import type { CardOutcome } from '../../connectors/card/card-connector.js';
import { callWithDeadline } from '../../connectors/registry.js';

/**
 * The steps of an operation that calls a processor, in the one order every such operation follows, so that no
 * database transaction waits on the network and no outcome is lost:
 *   start: validate, guard the state and record the operation as in flight (tx1), or answer at once;
 *   call: the processor, with a signal that aborts at the deadline (the outcome is then unknown);
 *   finish: record the outcome with its ledger entries, batch membership and events (tx2), or schedule the
 *     reconciler when the outcome is unknown.
 */
export interface OperationSteps<Started, Result> {
  start(): Promise<{ call: Started } | { answer: Result }>;
  call(started: Started, signal: AbortSignal): Promise<CardOutcome>;
  finish(started: Started, outcome: CardOutcome): Promise<Result>;
}

export async function runOperation<Started, Result>(
  steps: OperationSteps<Started, Result>,
  timeoutMs?: number,
): Promise<Result> {
  const begun = await steps.start();
  if ('answer' in begun) return begun.answer;
  const outcome = await callWithDeadline((signal) => steps.call(begun.call, signal), timeoutMs);
  return steps.finish(begun.call, outcome);
}
