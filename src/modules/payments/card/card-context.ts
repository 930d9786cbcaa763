import type { QueryResult } from 'pg';
import type { Config } from '../../../config.js';
import type { CardOutcome } from '../../../connectors/card/card-connector.js';
import type { Connectors } from '../../../connectors/registry.js';
import type { Clock } from '../../../platform/clock/clock.js';
import { Grouped } from '../../../platform/db/grouped.js';
import type { Pool, Sql } from '../../../platform/db/pool.js';
import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { ConflictError, ValidationError } from '../../../platform/http/errors.js';
import type { Logger } from '../../../platform/observability/logger.js';
import type { CustomersService } from '../../customers/customers.service.js';
import { deferEvents } from '../../events/outbox.js';
import type { Ledger, Posting } from '../../ledger/ledger.js';
import type { PaymentProcessor } from '../../merchants/merchants.model.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import type { SettlementsService } from '../../settlements/settlements.service.js';
import type { VaultService } from '../../vault/vault.service.js';
import type { PaymentSourceListeners } from '../source-listeners.js';
import { type TransactionEventType, transactionEventList } from '../transaction-events.js';
import { type PendingOperation, STATUS_NAMES, type Transaction } from '../transactions.model.js';
import { insertUnlessDuplicate, transactionQueries } from '../transactions.repo.js';
import { reconcileQueue } from './card-queues.js';
import type { OutcomeWriters } from './outcome-writers.js';

export interface CardPaymentsDeps {
  pool: Pool;
  clock: Clock;
  config: Config;
  logger: Logger;
  merchants: MerchantsService;
  customers: CustomersService;
  vault: VaultService;
  connectors: Connectors;
  ledger: Ledger;
  settlements: SettlementsService;
  /** The payment sources that hear of their payments' later outcomes (a full refund). */
  sources: PaymentSourceListeners;
  /** This node's liveness id (NodeLiveness), recorded on every operation it puts in flight. */
  nodeId: () => number;
}

export interface OperationResult {
  /** The transaction the operation produced or changed (a refund is its own transaction). */
  transaction: Transaction;
  typeId: number;
  outcome: CardOutcome | null;
  processedCents: number;
}

/** A payment's outcome on its way to tx2. */
export interface OutcomeToApply {
  id: string;
  reference: string;
  outcome: CardOutcome;
  avsProfileId: number;
  processor: PaymentProcessor;
  /** The row as tx1 inserted it: applied as a compare-and-set without reading it. */
  written?: Transaction;
}

/** The processor's open batch as far as the caller knows: a remembered id, the prefetched query, or nothing yet. */
export type OpenBatch = string | QueryResult | undefined;

/**
 * What every card operation shares: its dependencies, the group-commit writers of new payments (one per node, so
 * concurrent payments on it are written together), and the steps every operation takes the same way (moving money
 * into the open batch, events, scheduling the reconciler). The operations themselves are functions, one per file.
 */
export class CardContext {
  constructor(
    readonly deps: CardPaymentsDeps,
    /** How each operation's processor answer is recorded when its own request could not (the reconciler). */
    readonly writers: OutcomeWriters,
  ) {}

  get clock(): Clock {
    return this.deps.clock;
  }

  /**
   * tx1 of concurrent payments, written together (see Grouped): one statement. Sorted by duplicate key, so two
   * groups waiting on the same keys wait in the same order and cannot deadlock.
   */
  readonly attempts = new Grouped<Transaction, boolean>(async (txns) => {
    const sorted = [...txns].sort((a, b) => compareKeys(a.duplicateKey, b.duplicateKey));
    const inserted = await insertUnlessDuplicate(this.deps.pool, sorted);
    return txns.map((txn) => inserted.has(txn.id));
  });

  /**
   * Money moved (a capture, or a refund to the card): the transaction records the amount, joins its processor's
   * Open batch and posts the entries, all in the caller's transaction.
   */
  async moveMoney(
    tx: Tx,
    t: Transaction,
    processor: PaymentProcessor,
    cents: number,
    kind: 'capture' | 'refund',
    entryLines: Posting['lines'],
    openBatch?: OpenBatch,
  ): Promise<void> {
    t.capturedCents = cents;
    t.capturedAt = this.clock.now();
    // A remembered batch id is only a hint: the compare-and-set that saves `t` checks that batch is still Open.
    t.batchId =
      typeof openBatch === 'string' ? openBatch : await this.deps.settlements.joinOpenBatch(tx, processor, openBatch);
    await this.deps.ledger.post(tx, { merchantId: t.merchantId, kind, transactionId: t.id, lines: entryLines });
  }

  async scheduleReconcile(tx: Sql, id: string, inSeconds: number): Promise<void> {
    await reconcileQueue.enqueue(
      tx,
      this.clock,
      { transactionId: id },
      { runAt: new Date(this.clock.now().getTime() + inSeconds * 1000), singletonKey: id },
    );
  }

  async processorOf(t: Transaction): Promise<PaymentProcessor> {
    const configuration = await this.deps.merchants.getConfiguration(t.merchantId);
    const processor = configuration.processors.find((p) => p.id === t.processorId);
    if (!processor) throw new Error(`Processor ${t.processorId} of transaction ${t.id} is gone`);
    return processor;
  }

  /**
   * The transaction's event, or several of one change (in order): written with COMMIT, with every other event of the
   * database transaction in one statement.
   */
  event(
    tx: Tx,
    types: TransactionEventType | readonly TransactionEventType[],
    t: Transaction,
    extra: Record<string, unknown> = {},
  ): void {
    deferEvents(tx, this.clock, transactionEventList(types, t, extra));
  }
}

export function illegal(message: string): ValidationError {
  return new ValidationError({ transactionId: [message] }, message, 'InvalidTransactionState');
}

export function inProgress(id: string): ConflictError {
  return new ConflictError(
    'Another operation on this transaction is in progress; retrieve the transaction and retry.',
    'OperationInProgress',
    id,
  );
}

export function statusName(statusId: number): string {
  return STATUS_NAMES[statusId] ?? String(statusId);
}

/** A follow-up's request to the processor: the operation's own reference and the payment it acts on. */
export function followUp(t: Transaction, pending: PendingOperation) {
  return {
    reference: pending.reference,
    originalReference: t.id,
    originalNetworkReference: t.networkReference,
    merchantId: t.merchantId,
    processorId: t.processorId,
    amountCents: pending.amountCents,
  };
}

function compareKeys(a: Buffer | null, b: Buffer | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return Buffer.compare(a, b);
}
