import { CardType, CreditDebitType, cardTypeOf } from './card-numbers.js';

/**
 * Credit or debit, by BIN. A real connector learns this from its processor's BIN file; until one exists, this small
 * table (documented in docs/sandbox.md) serves the sandbox: the listed BINs are debit, every other known brand is
 * credit, and an unknown brand is Unknown.
 */
export const DEBIT_BINS: readonly string[] = ['400005', '520082', '601100'];

export function creditDebitOf(pan: string): number {
  if (DEBIT_BINS.includes(pan.slice(0, 6))) return CreditDebitType.Debit;
  return cardTypeOf(pan) === CardType.Unknown ? CreditDebitType.Unknown : CreditDebitType.Credit;
}
