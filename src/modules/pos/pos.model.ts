import { namesOf } from '../../platform/db/sql-ids.js';

/** POS transaction statuses (`posTransactionStatusId` / `posTransactionStatus`). */
export const PosStatus = {
  TerminalConnecting: 1,
  TransactionProcessing: 2,
  DeclinedByProcessor: 3,
  CancelByPos: 4,
  CancelByTerminal: 5,
  Completed: 6,
  Error: 7,
  Inconsistency: 8,
  TerminalOffline: 9,
  TransactionSentToProcessor: 10,
} as const;
export const POS_STATUS_NAMES = namesOf(PosStatus);
/** In progress: sent to the terminal, accepted there (waiting for the card), or being paid. */
export const IN_PROGRESS = [
  PosStatus.TerminalConnecting,
  PosStatus.TransactionProcessing,
  PosStatus.TransactionSentToProcessor,
] as const;
/** Every other status is final (`isCompleted: true`). */
export const isFinal = (statusId: number) => !(IN_PROGRESS as readonly number[]).includes(statusId);

/** What the POS transaction asks the terminal for (`transactionTypeId`). */
export const PosType = { Authorization: 1, Sale: 2, Capture: 3, Void: 4, Refund: 5 } as const;
export const POS_TYPE_NAMES = namesOf(PosType);
/** Types that act on an earlier card-present transaction (`targetTransactionId`). */
export const FOLLOW_UPS: ReadonlySet<number> = new Set([PosType.Capture, PosType.Void, PosType.Refund]);
/** Types that need a card read (capture and void only print). */
export const READS_CARD: ReadonlySet<number> = new Set([PosType.Authorization, PosType.Sale, PosType.Refund]);

/** `readingMethodId`: the terminal reads the card (tap, chip, swipe), or the card details are keyed in. */
export const ReadingMethod = { Reading: 1, KeyedIn: 2 } as const;

/** What a POS transaction list is narrowed to: a terminal, a creation window, some statuses. */
export interface PosListFilter {
  merchantId: string;
  terminalId?: string;
  from?: Date;
  to?: Date;
  statusIds?: readonly number[];
}

export interface PosTransaction {
  id: string;
  merchantId: string;
  terminalId: string;
  statusId: number;
  typeId: number;
  amountCents: number | null;
  tipCents: number | null;
  tipRateMpct: number | null;
  currencyId: number;
  posDeviceId: string | null;
  referenceId: string | null;
  processorId: string | null;
  customerId: string | null;
  targetTransactionId: string | null;
  readingMethodId: number;
  requestStorageConsent: boolean;
  transactionId: string | null;
  cardDataSourceId: number | null;
  errorMessage: string | null;
  processingNode: number | null;
  createdAt: Date;
  modifiedAt: Date;
  acceptedAt: Date | null;
  completedAt: Date | null;
}

/** A card as a terminal read it: in memory for the payment, never stored. */
export interface CardRead {
  readingMethod: 'chip' | 'tap' | 'swipe' | 'keyed';
  pan: string;
  expirationMonth: number;
  expirationYear: number;
  /** The cardholder agreed, on the terminal, to have the card saved (asked only when the request wanted it). */
  storageConsent?: boolean;
}
