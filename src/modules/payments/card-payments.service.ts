import { createHash } from 'node:crypto';
import type { QueryResult } from 'pg';
import type { Config } from '../../config.js';
import type { CardOutcome, PaymentRequest } from '../../connectors/card/card-connector.js';
import { CreditDebitType } from '../../connectors/card/card-numbers.js';
import { CONNECTOR_TIMEOUT_MS, type Connectors, withDeadline } from '../../connectors/registry.js';
import type { Clock } from '../../platform/clock/clock.js';
import { isNodeAlive } from '../../platform/cluster/node-liveness.js';
import { newId } from '../../platform/crypto/ids.js';
import { Grouped } from '../../platform/db/grouped.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { isExpectationFailure, type Tx, withTransaction } from '../../platform/db/tx.js';
import { deferEvents } from '../../platform/events/outbox.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { fromCents } from '../../platform/money.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { Customer } from '../customers/customers.model.js';
import type { CustomersService } from '../customers/customers.service.js';
import { type Ledger, lines, type Posting } from '../ledger/ledger.js';
import type { MerchantConfiguration, MerchantSettings, PaymentProcessor } from '../merchants/merchants.model.js';
import { ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { SettlementsService } from '../settlements/settlements.service.js';
import type { UsableCard } from '../vault/vault.model.js';
import { checkCard, type VaultService } from '../vault/vault.service.js';
import { type AmountBreakdown, aboveMaximum, amountColumns, calculateAmount, taxInput } from './amounts.js';
import { avsAction } from './avs.js';
import type { PaymentCommand, RequestClaim } from './payment-request.js';
import { transactionEventList } from './transaction-events.js';
import {
  CARD_NOT_PRESENT_SOURCES,
  type PendingOperation,
  STATUS_NAMES,
  type Transaction,
  TransactionStatus,
  TransactionType,
} from './transactions.model.js';
import {
  findByIdempotencyId,
  findDuplicateKeyHolder,
  findTransaction,
  findTransactionById,
  insertTransaction,
  insertUnlessDuplicate,
  isIdempotencyIdTaken,
  lockTransactionById,
  releaseDuplicateKey,
  saveTransaction,
  toTransaction,
  transactionQueries,
} from './transactions.repo.js';

export const RECONCILE_QUEUE = 'cards.reconcile';
export const EXPIRE_AUTHORIZATION_QUEUE = 'cards.expire-authorization';

export interface OperationResult {
  /** The transaction the operation produced or changed (a refund is its own transaction). */
  transaction: Transaction;
  typeId: number;
  outcome: CardOutcome | null;
  processedCents: number;
}

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
  /** This node's liveness id (NodeLiveness), recorded on every operation it puts in flight. */
  nodeId: () => number;
}

const OPERATION_OF: Record<PaymentCommand['kind'], PendingOperation['operation']> = {
  sale: 'sale',
  authorize: 'authorize',
  verify: 'verify',
  'refund-without-reference': 'refund-without-reference',
};
const TYPE_OF: Record<PaymentCommand['kind'], number> = {
  sale: TransactionType.Sale,
  authorize: TransactionType.Authorization,
  verify: TransactionType.CardAuthentication,
  'refund-without-reference': TransactionType.RefundWORef,
};

function illegal(message: string): ValidationError {
  return new ValidationError({ transactionId: [message] }, message, 'InvalidTransactionState');
}

/** The processor's open batch as far as the caller knows: a remembered id, the prefetched query, or nothing yet. */
type OpenBatch = string | QueryResult | undefined;

/**
 * Card payments: the state machine of a card transaction. Every processor call follows one pattern, so no database
 * transaction ever waits on the network and no outcome is ever lost:
 *   tx1: lock, guard the state, record the operation as in flight (`pending_operation`)
 *   call the connector (with a deadline)
 *   tx2: lock, check the in-flight record is still ours, apply the outcome with its ledger entries and events.
 * An unknown outcome (timeout, system error) stays recorded; the reconciler (or the next operation on the
 * transaction) asks the processor what happened before anything else is done, so nothing is charged twice.
 */
export class CardPaymentsService {
  constructor(private readonly deps: CardPaymentsDeps) {}

  /**
   * tx1 of concurrent payments, written together (see Grouped): one statement. Sorted by duplicate key, so two
   * groups waiting on the same keys wait in the same order and cannot deadlock.
   */
  private readonly attempts = new Grouped<Transaction, boolean>(async (txns) => {
    const sorted = [...txns].sort((a, b) => compareKeys(a.duplicateKey, b.duplicateKey));
    const inserted = await insertUnlessDuplicate(this.deps.pool, sorted);
    return txns.map((txn) => inserted.has(txn.id));
  });

  /**
   * tx2 of concurrent payments (the fast path: rows as tx1 wrote them), applied together in one transaction: one
   * compare-and-set statement saves every row, with one events insert and one ledger posting statement for the
   * group. If any of them finds its row moved on, the group fails and each is applied alone (Grouped), where that
   * one takes the slow path.
   */
  private readonly outcomes = new Grouped<OutcomeToApply & { written: Transaction }, Transaction>((items) =>
    withTransaction(this.deps.pool, async (tx) => {
      const applied: Transaction[] = [];
      for (const item of items) applied.push(await this.applyPaymentOutcome(tx, item));
      tx.defer(
        transactionQueries.saveIfPending(
          applied.map((transaction, i) => ({ transaction, reference: items[i]!.reference })),
        ),
      );
      return applied;
    }),
  );

  private get clock() {
    return this.deps.clock;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // New payments: sale, authorization, verification, refund without reference.

  async pay(cmd: PaymentCommand): Promise<OperationResult> {
    const claim = cmd.idempotency;
    if (claim?.recovering) {
      const earlier = await findByIdempotencyId(this.deps.pool, cmd.merchantId, claim.id);
      if (earlier) return this.resume(earlier);
    }
    const configuration = await this.deps.merchants.getConfiguration(cmd.merchantId);
    const processor = cardProcessor(configuration, cmd.processorId);
    const { card, customer } = await this.resolveCard(cmd);
    const settings = configuration.settings;
    const amounts = this.amountsFor(cmd, settings, card);
    const cardNotPresent = CARD_NOT_PRESENT_SOURCES.has(cmd.cardDataSourceId);
    const runAvs =
      cardNotPresent &&
      settings.avs.isEnabled &&
      cmd.kind !== 'refund-without-reference' &&
      !cmd.skipAddressVerification;
    let billing = cmd.billingAddress ?? null;
    if (!billing && card.customerId) {
      billing = (customer ?? (await this.deps.customers.get(cmd.merchantId, card.customerId))).billingAddress;
    }

    const now = this.clock.now();
    const id = newId();
    const pending: PendingOperation = {
      operation: OPERATION_OF[cmd.kind],
      reference: id,
      amountCents: amounts.totalCents,
      startedAt: now.toISOString(),
      node: this.deps.nodeId(),
    };
    const txn = newTransaction({
      id,
      cmd,
      processor,
      card,
      amounts,
      billing,
      pending,
      duplicateKey: this.duplicateKey(cmd, card, amounts.totalCents),
      now,
    });
    const earlier = await this.recordAttempt(txn);
    if (earlier) return this.resume(earlier);

    const request: PaymentRequest = {
      reference: id,
      merchantId: cmd.merchantId,
      processorId: processor.id,
      amountCents: amounts.totalCents,
      card: {
        pan: card.pan,
        expirationMonth: card.expirationMonth,
        expirationYear: card.expirationYear,
        securityCode: cmd.securityCode ?? null,
      },
      avs: runAvs ? { line1: billing?.line1 ?? null, postalCode: billing?.postalCode ?? null } : null,
      cardPresent: !cardNotPresent,
    };
    const connector = this.deps.connectors.card(processor.connector);
    const call =
      cmd.kind === 'sale'
        ? connector.sale(request)
        : cmd.kind === 'authorize'
          ? connector.authorize(request)
          : cmd.kind === 'verify'
            ? connector.verify(request)
            : connector.refundWithoutReference(request);
    const outcome = await this.screenAvs(txn, await withDeadline(call), settings.avs.profileId, processor);
    const transaction = await this.recordPaymentOutcome(
      id,
      pending.reference,
      outcome,
      settings.avs.profileId,
      processor,
      txn,
    );
    return {
      transaction,
      typeId: txn.typeId,
      outcome,
      processedCents: outcome.kind === 'approved' ? amounts.totalCents : 0,
    };
  }

  /**
   * A retry of the request that created `t`, whose first attempt was cut off (its node died, or it failed with a
   * 5xx): that attempt is settled first (the processor is asked, as the reconciler does, once nobody else can still
   * record its answer) and is the answer. No second attempt is started, whatever the first one's outcome.
   */
  private async resume(t: Transaction): Promise<OperationResult> {
    let current = t;
    if (current.pendingOperation) {
      await this.reconcile(current.id);
      current = (await findTransactionById(this.deps.pool, current.id)) ?? current;
    }
    return {
      transaction: current,
      typeId: current.typeId,
      outcome: null,
      processedCents: current.resultCode === 'Approve' ? current.totalCents : 0,
    };
  }

  /** The three ways to pay (rule 5), each inconsistent combination a 400 naming the field. */
  private async resolveCard(cmd: PaymentCommand): Promise<{ card: UsableCard; customer?: Customer }> {
    const raw = cmd.accountNumber != null && cmd.accountNumber !== '';
    if (cmd.paymentMethodId && raw) {
      throw ValidationError.field(
        'accountNumber',
        "Send either 'paymentMethodId' or card data ('accountNumber'), not both.",
      );
    }
    if (cmd.customerId && raw) {
      throw ValidationError.field(
        'accountNumber',
        "Card data cannot be combined with 'customerId': vault the card for the customer and send its 'paymentMethodId', or omit 'customerId'.",
      );
    }
    if (!raw && (cmd.paymentMethodId || cmd.customerId)) {
      for (const field of ['expirationMonth', 'expirationYear'] as const) {
        if (cmd[field] != null) {
          throw ValidationError.field(field, `'${field}' belongs to card data; a vaulted payment method has its own.`);
        }
      }
    }
    if (raw) {
      const checked = checkCard(
        {
          pan: cmd.accountNumber,
          expirationMonth: cmd.expirationMonth,
          expirationYear: cmd.expirationYear,
          securityCode: cmd.securityCode,
        },
        { pan: 'accountNumber' },
      );
      return { card: this.deps.vault.rawCard(checked) };
    }
    if (cmd.securityCode != null && !/^\d{3,4}$/.test(cmd.securityCode)) {
      throw ValidationError.field('securityCode', "'securityCode' must be 3 or 4 digits.");
    }
    if (cmd.customerId) {
      // With both ids, the customer and the card are fetched at once.
      const [customer, given] = await Promise.all([
        this.deps.customers.get(cmd.merchantId, cmd.customerId),
        cmd.paymentMethodId ? this.deps.vault.usableCard(cmd.merchantId, cmd.paymentMethodId) : undefined,
      ]);
      const methodId = cmd.paymentMethodId ?? customer.defaultPaymentMethodId;
      if (!methodId) {
        throw ValidationError.field('paymentMethodId', 'The customer has no default card; send a paymentMethodId.');
      }
      const card = given ?? (await this.deps.vault.usableCard(cmd.merchantId, methodId));
      if (card.customerId !== customer.id) throw new NotFoundError('PaymentMethod', methodId);
      return { card, customer };
    }
    if (cmd.paymentMethodId) {
      const card = await this.deps.vault.usableCard(cmd.merchantId, cmd.paymentMethodId);
      if (card.customerId) {
        throw ValidationError.field(
          'customerId',
          "This payment method belongs to a customer: send its 'customerId' too.",
        );
      }
      return { card };
    }
    throw new ValidationError(
      {
        paymentMethodId: [
          "Provide a payment instrument: 'paymentMethodId' (with 'customerId' for a customer's card), or card data ('accountNumber', 'expirationMonth', 'expirationYear').",
        ],
      },
      'No payment instrument was provided.',
    );
  }

  private amountsFor(cmd: PaymentCommand, settings: MerchantSettings, card: UsableCard): AmountBreakdown {
    const errors: Record<string, string[]> = {};
    const noExtras = cmd.kind === 'verify' || cmd.kind === 'refund-without-reference';
    const tipGiven = (cmd.tipCents ?? 0) > 0 || (cmd.tipRateMpct ?? 0) > 0;
    if (cmd.tipCents != null && cmd.tipRateMpct != null) {
      errors.tipRate = ["Send either 'tipAmount' or 'tipRate', not both."];
    }
    if (tipGiven && noExtras) errors.tipAmount = ['A tip does not apply to this operation.'];
    else if (tipGiven && !settings.isTipsEnabled) errors.tipAmount = ['Tips are not enabled for this merchant.'];
    const option = settings.zeroCostProcessingOptionId;
    if (cmd.surchargeRateMpct != null && option !== ZeroCostProcessingOption.Surcharge) {
      errors.surchargeRate = ["'surchargeRate' applies only to merchants on the Surcharge program."];
    }
    if (!noExtras && option === ZeroCostProcessingOption.DualPricing && cmd.useCardPrice == null) {
      errors.useCardPrice = ["'useCardPrice' is required: this merchant uses dual pricing."];
    }
    if (cmd.kind === 'refund-without-reference' && cmd.amountCents <= 0) {
      errors.amount = ["'amount' must be greater than 0."];
    }
    if ((cmd.kind === 'sale' || cmd.kind === 'authorize') && cmd.amountCents <= 0) {
      errors.amount = ["'amount' must be greater than 0."];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const amounts = noExtras
      ? calculateAmount({
          baseCents: cmd.amountCents,
          zeroCostOptionId: ZeroCostProcessingOption.None,
          tender: 'credit',
        })
      : calculateAmount({
          baseCents: cmd.amountCents,
          percentageOffRateMpct: cmd.percentageOffRateMpct,
          tipCents: cmd.tipCents,
          tipRateMpct: cmd.tipRateMpct,
          zeroCostOptionId: option,
          surchargeRateMpct: cmd.surchargeRateMpct ?? settings.defaultSurchargeRateMpct,
          cashDiscountRateMpct: settings.defaultCashDiscountRateMpct,
          dualPricingRateMpct: settings.defaultDualPricingRateMpct,
          useCardPrice: cmd.useCardPrice,
          tender: card.creditDebitTypeId === CreditDebitType.Debit ? 'debit' : 'credit',
          ...taxInput(cmd.tax),
        });
    const tooMuch = aboveMaximum(amounts.totalCents, settings.maxTransactionAmountCents);
    if (tooMuch) throw ValidationError.field('amount', tooMuch);
    return amounts;
  }

  /**
   * tx1 of a new payment: one statement, the insert with its duplicate check (a unique key). A payment holding the
   * key blocks this one while it is within the window and was not declined or failed; past the window it gives the
   * key up here, since nothing else needs to clean keys up. The one payment the check never refuses is the one this
   * very request (its idempotency claim) created: a retry whose first attempt's node died gets that attempt back
   * (returned) instead of a refusal or a second payment.
   */
  private async recordAttempt(txn: Transaction): Promise<Transaction | undefined> {
    const key = txn.duplicateKey;
    for (let attempt = 1; ; attempt++) {
      try {
        if (await this.attempts.submit(txn)) return undefined;
      } catch (error) {
        if (!isIdempotencyIdTaken(error)) throw error;
        // The first attempt's tx1 committed after this retry looked for it (its dying node's last statement).
        return findByIdempotencyId(this.deps.pool, txn.merchantId, txn.idempotencyId!);
      }
      const holder = await findDuplicateKeyHolder(this.deps.pool, key!);
      if (holder && txn.idempotencyId !== null && holder.idempotencyId === txn.idempotencyId) {
        return findByIdempotencyId(this.deps.pool, txn.merchantId, txn.idempotencyId);
      }
      if (holder) {
        const windowMinutes = this.deps.config.duplicateWindowMinutes;
        const since = txn.createdAt.getTime() - windowMinutes * 60_000;
        const stillCounts =
          holder.createdAt.getTime() >= since &&
          holder.statusId !== TransactionStatus.Declined &&
          holder.statusId !== TransactionStatus.Failed;
        if (stillCounts || attempt >= 3) {
          throw new ValidationError(
            {
              referenceId: [
                `The same card was charged the same amount with the same referenceId within ${windowMinutes} minutes (transaction ${holder.id}). Send a different referenceId to charge it again.`,
              ],
            },
            'Duplicate transaction.',
            'IsDuplicate',
          );
        }
        await releaseDuplicateKey(this.deps.pool, holder.id, key!);
      }
    }
  }

  /** Sales and authorizations of a card, while the check is on (DUPLICATE_CHECK_MINUTES > 0). */
  private duplicateKey(cmd: PaymentCommand, card: UsableCard, totalCents: number): Buffer | null {
    if (cmd.kind !== 'sale' && cmd.kind !== 'authorize') return null;
    if (this.deps.config.duplicateWindowMinutes === 0 || !card.fingerprint) return null;
    return (
      createHash('sha256')
        .update(cmd.merchantId)
        .update(card.fingerprint)
        .update(`|${totalCents}|`)
        // null and "" are different references; JSON keeps them apart.
        .update(JSON.stringify(cmd.referenceId ?? null))
        .digest()
    );
  }

  /** An approval the merchant's AVS profile refuses is voided at the network and recorded as a decline. */
  private async screenAvs(
    txn: Transaction,
    outcome: CardOutcome,
    profileId: number,
    processor: PaymentProcessor,
  ): Promise<CardOutcome> {
    if (outcome.kind !== 'approved' || !outcome.avs) return outcome;
    if (avsAction(outcome.avs, profileId).action === 'Allow') return outcome;
    const reversal = await withDeadline(
      this.deps.connectors.card(processor.connector).void({
        reference: `${txn.id}:avs-void`,
        originalReference: txn.id,
        merchantId: txn.merchantId,
        processorId: processor.id,
        amountCents: outcome.approvedCents,
      }),
    );
    if (reversal.kind !== 'approved') {
      this.deps.logger.warn({ transactionId: txn.id, reversal }, 'could not reverse an AVS-refused authorization');
    }
    return { kind: 'declined', responseCode: 'AVS', message: 'Address verification failed', avs: outcome.avs };
  }

  /**
   * tx2 of a new payment (also used by the reconciler). Idempotent: only the holder of `reference` applies. With
   * `written` (the row as tx1 inserted it), the row is not read: the outcome is applied as a compare-and-set sent with
   * COMMIT, one round trip in all, and only if the row moved on meanwhile (the reconciler got there first, or the
   * remembered batch closed) does it run again the ordinary way, under the row lock.
   */
  private async recordPaymentOutcome(
    id: string,
    reference: string,
    outcome: CardOutcome,
    avsProfileId: number,
    processor: PaymentProcessor,
    written?: Transaction,
  ): Promise<Transaction> {
    // Everything that needs another pool connection happens before the transaction takes one.
    await this.deps.ledger.warm(processor.merchantId);
    if (written) {
      try {
        return await this.outcomes.submit({ id, reference, outcome, avsProfileId, processor, written });
      } catch (error) {
        if (!isExpectationFailure(error)) throw error;
      }
    }
    return withTransaction(this.deps.pool, (tx) =>
      this.applyPaymentOutcome(tx, { id, reference, outcome, avsProfileId, processor }),
    );
  }

  private async applyPaymentOutcome(tx: Tx, item: OutcomeToApply): Promise<Transaction> {
    const { id, reference, outcome, avsProfileId, processor, written } = item;
    let t: Transaction;
    let openBatch: OpenBatch;
    if (written) {
      t = { ...written };
      openBatch = this.deps.settlements.knownOpenBatch(processor.id);
    } else {
      // An approval will most likely join the open batch: ask for it in the same round trip as the row lock.
      const [locked, batch] = await tx.batch([
        transactionQueries.lockById(id),
        ...(outcome.kind === 'approved' ? [this.deps.settlements.openBatchQuery(processor)] : []),
      ]);
      t = toTransaction(locked!.rows[0]!);
      openBatch = batch;
      if (t.pendingOperation?.reference !== reference || t.statusId !== TransactionStatus.Pending) return t;
    }
    const pendingOperation = t.pendingOperation!;
    const op = pendingOperation.operation;
    const now = this.clock.now();
    t.modifiedAt = now;
    t.responseCode = outcome.responseCode;
    t.responseMessage = outcome.message;
    if (outcome.kind === 'approved' || outcome.kind === 'declined') {
      t.avsResponse = outcome.avs ? avsAction(outcome.avs, avsProfileId) : null;
    }
    switch (outcome.kind) {
      case 'approved': {
        t.pendingOperation = null;
        t.resultCode = 'Approve';
        t.authCode = outcome.authCode;
        t.networkReference = outcome.networkReference;
        if (op === 'sale') {
          t.statusId = TransactionStatus.Captured;
          t.authorizedCents = t.totalCents;
          await this.moveMoney(tx, t, processor, t.totalCents, 'capture', lines.capture(t.totalCents), openBatch);
          this.event(tx, ['transaction.card.authorized', 'transaction.card.captured'], t);
        } else if (op === 'authorize') {
          t.statusId = TransactionStatus.Authorized;
          t.authorizedCents = t.totalCents;
          await this.deps.ledger.post(tx, {
            merchantId: t.merchantId,
            kind: 'authorization_hold',
            transactionId: t.id,
            lines: lines.hold(t.totalCents),
          });
          this.event(tx, 'transaction.card.authorized', t);
          await enqueue(tx, this.clock, {
            queue: EXPIRE_AUTHORIZATION_QUEUE,
            payload: { transactionId: t.id },
            runAt: new Date(now.getTime() + this.deps.config.authorizationExpiryDays * 86_400_000),
            singletonKey: t.id,
          });
        } else if (op === 'verify') {
          t.statusId = TransactionStatus.Verified;
        } else {
          // Refund without reference: money goes back to the card; it nets in the open batch.
          t.statusId = TransactionStatus.Refunded;
          await this.moveMoney(tx, t, processor, t.totalCents, 'refund', lines.reverseCapture(t.totalCents), openBatch);
          this.event(tx, 'transaction.card.refunded', t, { refundTransactionId: t.id });
        }
        break;
      }
      case 'declined':
      case 'failed': {
        // Nothing was charged: the payment ends here and frees its duplicate key for a corrected retry.
        const declined = outcome.kind === 'declined';
        t.pendingOperation = null;
        t.duplicateKey = null;
        t.resultCode = declined ? 'Decline' : 'Error';
        t.statusId = declined ? TransactionStatus.Declined : TransactionStatus.Failed;
        this.event(tx, declined ? 'transaction.card.declined' : 'transaction.card.failed', t);
        break;
      }
      case 'unknown':
        t.resultCode = 'Pending';
        t.pendingOperation = { ...pendingOperation, unknown: true };
        await this.scheduleReconcile(tx, t.id, 1);
        break;
    }
    // A row applied from `written` is saved by the caller, as a compare-and-set (see `outcomes`).
    if (!written) tx.defer(transactionQueries.save(t));
    if (outcome.kind === 'approved') this.deps.merchants.touchLastTransaction(tx, t.merchantId, now);
    return t;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Follow-up operations on an existing transaction.

  async capture(
    merchantId: string,
    id: string,
    amountCents: number | undefined,
    claim?: RequestClaim,
  ): Promise<OperationResult> {
    return this.operate(
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
        call: (connector, t, pending) => connector.capture({ ...followUp(t, pending) }),
      },
      claim,
    );
  }

  async void(merchantId: string, id: string, claim?: RequestClaim): Promise<OperationResult> {
    return this.operate(
      merchantId,
      id,
      TransactionType.Void,
      {
        operation: 'void',
        guard: async (t, tx) => {
          if (t.statusId === TransactionStatus.Authorized) return { amountCents: t.authorizedCents };
          if (t.statusId !== TransactionStatus.Captured) {
            throw illegal(
              t.statusId === TransactionStatus.Settled || t.settledAt
                ? 'A settled transaction cannot be voided; refund it instead.'
                : `A ${statusName(t.statusId)} transaction cannot be voided.`,
            );
          }
          if (t.refundedCents > 0)
            throw illegal('A transaction with refunds cannot be voided; refund the rest instead.');
          const { rows } = await tx.query<{ status_id: number }>(
            'SELECT status_id FROM settlement_batches WHERE id = $1 FOR KEY SHARE',
            [t.batchId],
          );
          if (rows[0]?.status_id !== 1)
            throw illegal('The batch of this transaction is being settled; refund it instead.');
          return { amountCents: t.capturedCents };
        },
        call: (connector, t, pending) => connector.void(followUp(t, pending)),
      },
      claim,
    );
  }

  async tipAdjust(merchantId: string, id: string, tipCents: number, claim?: RequestClaim): Promise<OperationResult> {
    const configuration = await this.deps.merchants.getConfiguration(merchantId);
    if (!configuration.settings.isTipsEnabled) {
      throw ValidationError.field('tipAmount', 'Tips are not enabled for this merchant.');
    }
    return this.operate(
      merchantId,
      id,
      TransactionType.TipAdjustment,
      {
        operation: 'tip-adjust',
        guard: async (t, tx) => {
          if (t.typeId !== TransactionType.Sale && t.typeId !== TransactionType.Authorization) {
            throw illegal('Only a sale or an authorization takes a tip.');
          }
          if (t.statusId !== TransactionStatus.Authorized && t.statusId !== TransactionStatus.Captured) {
            throw illegal(`A ${statusName(t.statusId)} transaction cannot be tip-adjusted.`);
          }
          if (t.refundedCents > 0) throw illegal('A transaction with refunds cannot be tip-adjusted.');
          if (t.batchId) {
            const { rows } = await tx.query<{ status_id: number }>(
              'SELECT status_id FROM settlement_batches WHERE id = $1 FOR KEY SHARE',
              [t.batchId],
            );
            if (rows[0]?.status_id !== 1) throw illegal('The batch of this transaction is being settled.');
          }
          const newTotal = t.totalCents - t.tipCents + tipCents;
          const max = configuration.settings.maxTransactionAmountCents;
          if (max !== null && newTotal > max) {
            throw ValidationError.field(
              'tipAmount',
              "The new total exceeds the merchant's maximum transaction amount.",
            );
          }
          return { amountCents: newTotal, tipCents };
        },
        call: (connector, t, pending) => connector.tipAdjust(followUp(t, pending)),
      },
      claim,
    );
  }

  /** A refund (`/return`): its own transaction, reserved against the original under the original's row lock. */
  async refund(
    merchantId: string,
    id: string,
    amountCents: number | undefined,
    cardDataSourceId: number,
    claim?: RequestClaim,
  ): Promise<OperationResult> {
    if (claim?.recovering) {
      const earlier = await findByIdempotencyId(this.deps.pool, merchantId, claim.id);
      if (earlier) return this.resume(earlier);
    }
    await this.resolveIfUnknown(merchantId, id);
    const prepared = await this.prepareRefund(merchantId, id, amountCents, cardDataSourceId, claim).catch(
      async (error: unknown) => {
        if (!isIdempotencyIdTaken(error)) throw error;
        return (await findByIdempotencyId(this.deps.pool, merchantId, claim!.id))!;
      },
    );
    if (!('refund' in prepared)) return this.resume(prepared);
    const processor = await this.processorOf(prepared.original);
    const outcome = await withDeadline(
      this.deps.connectors.card(processor.connector).refund({
        reference: prepared.refund.id,
        originalReference: prepared.original.id,
        merchantId,
        processorId: processor.id,
        amountCents: prepared.refund.totalCents,
      }),
    );
    const refund = await this.recordRefundOutcome(prepared.refund.id, outcome, processor);
    return {
      transaction: refund,
      typeId: TransactionType.Refund,
      outcome,
      processedCents: outcome.kind === 'approved' ? refund.totalCents : 0,
    };
  }

  /** tx1 of a refund: the refund's own transaction, in flight, its amount reserved on the original. */
  private prepareRefund(
    merchantId: string,
    id: string,
    amountCents: number | undefined,
    cardDataSourceId: number,
    claim: RequestClaim | undefined,
  ): Promise<{ original: Transaction; refund: Transaction }> {
    return withTransaction(this.deps.pool, async (tx) => {
      const original = await findTransaction(tx, merchantId, id, { forUpdate: true });
      if (!original) throw new NotFoundError('Transaction', id);
      if (original.method !== 'card') throw illegal('Use the ACH refund endpoint for ACH transactions.');
      if (original.typeId !== TransactionType.Sale && original.typeId !== TransactionType.Authorization) {
        throw illegal('Only a sale or a captured authorization can be refunded.');
      }
      if (original.statusId !== TransactionStatus.Captured && original.statusId !== TransactionStatus.Settled) {
        throw illegal(`A ${statusName(original.statusId)} transaction cannot be refunded.`);
      }
      if (original.pendingOperation) throw inProgress(original.id);
      const available = original.capturedCents - original.refundedCents;
      const amount = amountCents ?? available;
      if (amount <= 0 || available <= 0) {
        throw ValidationError.field(
          'amount',
          available <= 0 ? 'Nothing is left to refund.' : "'amount' must be greater than 0.",
        );
      }
      if (amount > available) {
        throw ValidationError.field(
          'amount',
          `The refund exceeds the refundable amount ${fromCents(available).toFixed(2)}.`,
        );
      }
      const now = this.clock.now();
      original.refundedCents += amount;
      original.modifiedAt = now;
      await saveTransaction(tx, original);
      const refundId = newId();
      const refund: Transaction = {
        ...original,
        id: refundId,
        typeId: TransactionType.Refund,
        statusId: TransactionStatus.Pending,
        originalTransactionId: original.id,
        idempotencyId: claim?.id ?? null,
        cardDataSourceId,
        referenceId: null,
        duplicateKey: null,
        // A refund is a plain amount: no discount, surcharge, tip or tax of its own.
        ...amountColumns(
          calculateAmount({ baseCents: amount, zeroCostOptionId: ZeroCostProcessingOption.None, tender: 'credit' }),
        ),
        authorizedCents: 0,
        capturedCents: 0,
        refundedCents: 0,
        avsResponse: null,
        resultCode: null,
        responseCode: null,
        responseMessage: null,
        authCode: null,
        networkReference: null,
        pendingOperation: {
          operation: 'refund',
          reference: refundId,
          amountCents: amount,
          startedAt: now.toISOString(),
          node: this.deps.nodeId(),
        },
        batchId: null,
        detailsMessage: null,
        createdAt: now,
        modifiedAt: now,
        capturedAt: null,
        voidedAt: null,
        settledAt: null,
      };
      await insertTransaction(tx, refund);
      return { original, refund };
    });
  }

  private async recordRefundOutcome(
    refundId: string,
    outcome: CardOutcome,
    processor: PaymentProcessor,
  ): Promise<Transaction> {
    await this.deps.ledger.warm(processor.merchantId);
    return withTransaction(this.deps.pool, async (tx) => {
      // Lock order everywhere: the original before its refund.
      const peek = await tx.query<{ original_transaction_id: string }>(
        'SELECT original_transaction_id FROM transactions WHERE id = $1',
        [refundId],
      );
      const original = (await lockTransactionById(tx, peek.rows[0]!.original_transaction_id))!;
      const refund = (await lockTransactionById(tx, refundId))!;
      if (refund.statusId !== TransactionStatus.Pending || refund.pendingOperation?.reference !== refundId)
        return refund;
      const now = this.clock.now();
      refund.modifiedAt = now;
      refund.responseCode = outcome.responseCode;
      refund.responseMessage = outcome.message;
      if (outcome.kind === 'unknown') {
        refund.resultCode = 'Pending';
        refund.pendingOperation = { ...refund.pendingOperation, unknown: true };
        await this.scheduleReconcile(tx, refund.id, 1);
        await saveTransaction(tx, refund);
        return refund;
      }
      refund.pendingOperation = null;
      if (outcome.kind === 'approved') {
        refund.resultCode = 'Approve';
        refund.authCode = outcome.authCode;
        refund.networkReference = outcome.networkReference;
        refund.statusId = TransactionStatus.Refunded;
        await this.moveMoney(
          tx,
          refund,
          processor,
          refund.totalCents,
          'refund',
          lines.reverseCapture(refund.totalCents),
        );
        if (original.refundedCents === original.capturedCents) {
          original.statusId = TransactionStatus.Refunded;
        }
        original.modifiedAt = now;
        await saveTransaction(tx, original);
        this.event(tx, 'transaction.card.refunded', original, {
          refundTransactionId: refund.id,
          refundAmount: fromCents(refund.totalCents),
          refundedAmount: fromCents(original.refundedCents),
        });
      } else {
        refund.resultCode = outcome.kind === 'declined' ? 'Decline' : 'Error';
        refund.statusId = outcome.kind === 'declined' ? TransactionStatus.Declined : TransactionStatus.Failed;
        // Release the reservation.
        original.refundedCents -= refund.totalCents;
        original.modifiedAt = now;
        await saveTransaction(tx, original);
      }
      await saveTransaction(tx, refund);
      return refund;
    });
  }

  /** Shared tx1 → call → tx2 of capture, void and tip adjustment. */
  private async operate(
    merchantId: string,
    id: string,
    typeId: number,
    op: {
      operation: 'capture' | 'void' | 'tip-adjust';
      guard: (
        t: Transaction,
        tx: Tx,
      ) => { amountCents: number; tipCents?: number } | Promise<{ amountCents: number; tipCents?: number }>;
      call: (
        connector: ReturnType<Connectors['card']>,
        t: Transaction,
        pending: PendingOperation,
      ) => Promise<CardOutcome>;
    },
    claim: RequestClaim | undefined,
  ): Promise<OperationResult> {
    // With an idempotency key the operation's reference is derived from the claim, so a retry can find it again.
    const reference = claim ? `${id}:${op.operation}:${claim.id}` : undefined;
    if (claim?.recovering) {
      const recovered = await this.recoverFollowUp(merchantId, id, typeId, op.operation, reference!);
      if (recovered) return recovered;
    }
    await this.resolveIfUnknown(merchantId, id);
    const { t, pending } = await withTransaction(this.deps.pool, async (tx) => {
      const t = await findTransaction(tx, merchantId, id, { forUpdate: true });
      if (!t) throw new NotFoundError('Transaction', id);
      if (t.method !== 'card') throw illegal('This operation applies to card transactions only.');
      if (t.pendingOperation) throw inProgress(t.id);
      const guarded = await op.guard(t, tx);
      const pending: PendingOperation = {
        operation: op.operation,
        reference: reference ?? `${t.id}:${op.operation}:${newId()}`,
        amountCents: guarded.amountCents,
        ...(guarded.tipCents !== undefined ? { tipCents: guarded.tipCents } : {}),
        startedAt: this.clock.now().toISOString(),
        node: this.deps.nodeId(),
      };
      t.pendingOperation = pending;
      t.modifiedAt = this.clock.now();
      await saveTransaction(tx, t);
      return { t, pending };
    });
    const processor = await this.processorOf(t);
    const outcome = await withDeadline(op.call(this.deps.connectors.card(processor.connector), t, pending));
    const transaction = await this.recordFollowUpOutcome(t.id, pending.reference, outcome, processor);
    return {
      transaction,
      typeId,
      outcome,
      processedCents:
        outcome.kind === 'approved'
          ? op.operation === 'tip-adjust'
            ? transaction.totalCents
            : pending.amountCents
          : 0,
    };
  }

  /**
   * A retried capture, void or tip adjustment whose first attempt was cut off. That attempt's reference is derived
   * from the claim: still in flight, it is settled first; the processor's record of it is the answer. Nothing found
   * means it never reached the processor (its tx1 is written before the call), and the caller runs it now.
   */
  private async recoverFollowUp(
    merchantId: string,
    id: string,
    typeId: number,
    operation: PendingOperation['operation'],
    reference: string,
  ): Promise<OperationResult | undefined> {
    let t = await findTransaction(this.deps.pool, merchantId, id);
    if (!t) throw new NotFoundError('Transaction', id);
    if (t.pendingOperation?.reference === reference) {
      await this.reconcile(t.id);
      t = (await findTransactionById(this.deps.pool, id))!;
      if (t.pendingOperation?.reference === reference) {
        // Its node still lives (a 5xx released the key): the outcome is not known yet.
        return { transaction: t, typeId, outcome: null, processedCents: 0 };
      }
    }
    const processor = await this.processorOf(t);
    const answer = await this.deps.connectors.card(processor.connector).query(reference);
    if (!answer.found) return undefined;
    const outcome = answer.outcome;
    const processedCents =
      outcome.kind !== 'approved' ? 0 : operation === 'tip-adjust' ? t.totalCents : outcome.approvedCents;
    return { transaction: t, typeId, outcome, processedCents };
  }

  private async recordFollowUpOutcome(
    id: string,
    reference: string,
    outcome: CardOutcome,
    processor: PaymentProcessor,
    reason?: string,
  ): Promise<Transaction> {
    await this.deps.ledger.warm(processor.merchantId);
    return withTransaction(this.deps.pool, async (tx) => {
      const t = (await lockTransactionById(tx, id))!;
      const pending = t.pendingOperation;
      if (!pending || pending.reference !== reference) return t;
      const now = this.clock.now();
      t.modifiedAt = now;
      if (outcome.kind === 'unknown') {
        t.pendingOperation = { ...pending, unknown: true };
        await this.scheduleReconcile(tx, t.id, 1);
        await saveTransaction(tx, t);
        return t;
      }
      t.pendingOperation = null;
      if (outcome.kind === 'approved') await this.applyFollowUp(tx, t, pending, processor, reason);
      else {
        this.deps.logger.info(
          { transactionId: t.id, operation: pending.operation, outcome },
          'processor refused an operation',
        );
      }
      await saveTransaction(tx, t);
      return t;
    });
  }

  private async applyFollowUp(
    tx: Tx,
    t: Transaction,
    pending: PendingOperation,
    processor: PaymentProcessor,
    reason?: string,
  ): Promise<void> {
    const now = this.clock.now();
    switch (pending.operation) {
      case 'capture': {
        t.statusId = TransactionStatus.Captured;
        await this.moveMoney(tx, t, processor, pending.amountCents, 'capture', [
          ...lines.releaseHold(t.authorizedCents),
          ...lines.capture(pending.amountCents),
        ]);
        this.event(tx, 'transaction.card.captured', t, { capturedAmount: fromCents(pending.amountCents) });
        break;
      }
      case 'void': {
        const wasCaptured = t.statusId === TransactionStatus.Captured;
        t.statusId = TransactionStatus.Voided;
        t.voidedAt = now;
        if (reason) t.detailsMessage = reason;
        if (wasCaptured) {
          t.batchId = null;
          await this.deps.ledger.post(tx, {
            merchantId: t.merchantId,
            kind: 'capture_reversal',
            transactionId: t.id,
            lines: lines.reverseCapture(t.capturedCents),
          });
        } else {
          await this.deps.ledger.post(tx, {
            merchantId: t.merchantId,
            kind: 'hold_release',
            transactionId: t.id,
            lines: lines.releaseHold(t.authorizedCents),
          });
        }
        this.event(tx, 'transaction.card.voided', t, reason ? { reason } : {});
        break;
      }
      case 'tip-adjust': {
        const delta = pending.amountCents - t.totalCents;
        const tipCents = pending.tipCents ?? 0;
        t.tipCents = tipCents;
        t.tipRateMpct = null;
        t.totalCents = pending.amountCents;
        if (t.statusId === TransactionStatus.Captured) {
          t.capturedCents += delta;
          t.authorizedCents += delta;
          await this.deps.ledger.post(tx, {
            merchantId: t.merchantId,
            kind: 'tip_adjustment',
            transactionId: t.id,
            lines: lines.capture(delta),
          });
        } else {
          t.authorizedCents += delta;
          await this.deps.ledger.post(tx, {
            merchantId: t.merchantId,
            kind: 'tip_adjustment',
            transactionId: t.id,
            lines: lines.hold(delta),
          });
        }
        break;
      }
      default:
        throw new Error(`No follow-up effect for ${pending.operation}`);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Reconciliation and expiry.

  /** Before acting on a transaction whose last outcome is unknown, ask the processor what happened. */
  private async resolveIfUnknown(merchantId: string, id: string): Promise<void> {
    const t = await findTransaction(this.deps.pool, merchantId, id);
    if (!t) throw new NotFoundError('Transaction', id);
    if (t.pendingOperation && (await this.mayReconcile(t.pendingOperation))) await this.reconcile(t.id);
  }

  /**
   * Only act on an in-flight record once nobody else will record its answer: the call answered "unknown", its node
   * is gone, or its deadline passed twice. (The processor is asked with `resolve`, which also refuses a call still on
   * its way, so even a node that was only stopped cannot have it succeed afterwards.)
   */
  private async mayReconcile(pending: PendingOperation): Promise<boolean> {
    if (pending.unknown) return true;
    if (Date.parse(pending.startedAt) < this.clock.now().getTime() - 2 * CONNECTOR_TIMEOUT_MS) return true;
    if (pending.node === undefined || pending.node === this.deps.nodeId()) return false;
    return !(await isNodeAlive(this.deps.pool, pending.node));
  }

  /** Resolves an unknown outcome by querying the processor; returns false while it is still unknown. */
  async reconcile(id: string): Promise<boolean> {
    const t = await findTransactionById(this.deps.pool, id);
    if (!t) return true;
    const pending = t.pendingOperation;
    if (!pending || !(await this.mayReconcile(pending))) return true;
    const processor = await this.processorOf(t);
    const connector = this.deps.connectors.card(processor.connector);
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
    if (t.statusId === TransactionStatus.Pending && pending.operation === 'refund') {
      await this.recordRefundOutcome(t.id, outcome, processor);
    } else if (t.statusId === TransactionStatus.Pending) {
      const configuration = await this.deps.merchants.getConfiguration(t.merchantId);
      const screened = await this.screenAvs(t, outcome, configuration.settings.avs.profileId, processor);
      await this.recordPaymentOutcome(
        t.id,
        pending.reference,
        screened,
        configuration.settings.avs.profileId,
        processor,
      );
    } else {
      await this.recordFollowUpOutcome(
        t.id,
        pending.reference,
        outcome.kind === 'approved'
          ? outcome
          : { kind: 'failed', responseCode: outcome.responseCode, message: outcome.message },
        processor,
      );
    }
    return true;
  }

  /** An authorization left uncaptured for AUTHORIZATION_EXPIRY_DAYS voids itself. */
  async expireAuthorization(id: string): Promise<void> {
    const merchantId = (await findTransactionById(this.deps.pool, id))?.merchantId;
    if (!merchantId) return;
    await this.resolveIfUnknown(merchantId, id);
    const claimed = await withTransaction(this.deps.pool, async (tx) => {
      const t = await findTransaction(tx, merchantId, id, { forUpdate: true });
      if (!t || t.statusId !== TransactionStatus.Authorized) return undefined;
      if (t.pendingOperation) throw new Error('An operation is in flight; expiring later');
      const pending: PendingOperation = {
        operation: 'void',
        reference: `${t.id}:expire:${newId()}`,
        amountCents: t.authorizedCents,
        startedAt: this.clock.now().toISOString(),
        node: this.deps.nodeId(),
      };
      t.pendingOperation = pending;
      await saveTransaction(tx, t);
      return { t, pending };
    });
    if (!claimed) return;
    const processor = await this.processorOf(claimed.t);
    const outcome = await withDeadline(
      this.deps.connectors.card(processor.connector).void(followUp(claimed.t, claimed.pending)),
    );
    await this.recordFollowUpOutcome(id, claimed.pending.reference, outcome, processor, 'Authorization expired');
  }

  /**
   * Money moved (a capture, or a refund to the card): the transaction records the amount, joins its processor's
   * Open batch and posts the entries, all in the caller's transaction.
   */
  private async moveMoney(
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

  private async scheduleReconcile(tx: Sql, id: string, inSeconds: number): Promise<void> {
    await enqueue(tx, this.clock, {
      queue: RECONCILE_QUEUE,
      payload: { transactionId: id },
      runAt: new Date(this.clock.now().getTime() + inSeconds * 1000),
      singletonKey: id,
    });
  }

  private async processorOf(t: Transaction): Promise<PaymentProcessor> {
    const configuration = await this.deps.merchants.getConfiguration(t.merchantId);
    const processor = configuration.processors.find((p) => p.id === t.processorId);
    if (!processor) throw new Error(`Processor ${t.processorId} of transaction ${t.id} is gone`);
    return processor;
  }

  /**
   * The transaction's event, or several of one change (in order): written with COMMIT, with every other event of the
   * database transaction in one statement.
   */
  private event(tx: Tx, types: string | readonly string[], t: Transaction, extra: Record<string, unknown> = {}): void {
    deferEvents(tx, this.clock, transactionEventList(types, t, extra));
  }
}

interface OutcomeToApply {
  id: string;
  reference: string;
  outcome: CardOutcome;
  avsProfileId: number;
  processor: PaymentProcessor;
  /** The row as tx1 inserted it: applied as a compare-and-set without reading it. */
  written?: Transaction;
}

function compareKeys(a: Buffer | null, b: Buffer | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return Buffer.compare(a, b);
}

function inProgress(id: string): ConflictError {
  return new ConflictError(
    'Another operation on this transaction is in progress; retrieve the transaction and retry.',
    'OperationInProgress',
    id,
  );
}

function statusName(statusId: number): string {
  return STATUS_NAMES[statusId] ?? String(statusId);
}

function followUp(t: Transaction, pending: PendingOperation) {
  return {
    reference: pending.reference,
    originalReference: t.id,
    merchantId: t.merchantId,
    processorId: t.processorId,
    amountCents: pending.amountCents,
  };
}

export function cardProcessor(
  configuration: MerchantConfiguration,
  processorId: string | null | undefined,
): PaymentProcessor {
  return activeProcessor(configuration, 'card', processorId);
}

/**
 * The processor a payment names, or the merchant's default one for the method (else its first active one). Only an
 * active processor of the method qualifies: anything else is a 400 on `paymentProcessorId`.
 */
export function activeProcessor(
  configuration: MerchantConfiguration,
  method: PaymentProcessor['method'],
  processorId: string | null | undefined,
): PaymentProcessor {
  const found = findActiveProcessor(configuration, method, processorId, 'paymentProcessorId');
  if (typeof found === 'string') throw ValidationError.field('paymentProcessorId', found);
  return found;
}

/** activeProcessor's choice, or why there is none (a message naming the request's `field`). */
export function findActiveProcessor(
  configuration: MerchantConfiguration,
  method: PaymentProcessor['method'],
  processorId: string | null | undefined,
  field: string,
): PaymentProcessor | string {
  const usable = configuration.processors.filter((p) => p.method === method && p.statusId === 1);
  const processor = processorId
    ? usable.find((p) => p.id === processorId)
    : (usable.find((p) => p.isDefault) ?? usable[0]);
  if (processor) return processor;
  const name = method === 'card' ? 'card' : 'ACH';
  return processorId
    ? `'${field}' is not one of this merchant's active ${name} processors (see GET /pay-api/v1/configurations/payments).`
    : `The merchant has no active ${name} processor.`;
}

function newTransaction(input: {
  id: string;
  cmd: PaymentCommand;
  processor: PaymentProcessor;
  card: UsableCard;
  amounts: AmountBreakdown;
  billing: Transaction['billingAddress'];
  pending: PendingOperation;
  duplicateKey: Buffer | null;
  now: Date;
}): Transaction {
  const { cmd, card, amounts, now } = input;
  return {
    id: input.id,
    merchantId: cmd.merchantId,
    processorId: input.processor.id,
    method: 'card',
    typeId: TYPE_OF[cmd.kind],
    statusId: TransactionStatus.Pending,
    originalTransactionId: null,
    customerId: card.customerId,
    paymentMethodId: card.paymentMethodId,
    createMethodId: cmd.createMethodId,
    sourceId: cmd.sourceId ?? null,
    idempotencyId: cmd.idempotency?.id ?? null,
    cardDataSourceId: cmd.cardDataSourceId,
    referenceId: cmd.referenceId ?? null,
    customerInitiated: cmd.customerInitiated ?? null,
    currencyId: cmd.currencyId,
    ...amountColumns(amounts),
    authorizedCents: 0,
    capturedCents: 0,
    refundedCents: 0,
    panMask: card.mask,
    cardTypeId: card.cardTypeId,
    creditDebitTypeId: card.creditDebitTypeId,
    cardTokenTypeId: card.cardTokenTypeId,
    cardFingerprint: card.fingerprint,
    duplicateKey: input.duplicateKey,
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    billingAddress: input.billing,
    shippingAddress: cmd.shippingAddress ?? null,
    contactInfo: cmd.contactInfo ?? null,
    avsResponse: null,
    resultCode: null,
    responseCode: null,
    responseMessage: null,
    authCode: null,
    networkReference: null,
    pendingOperation: input.pending,
    batchId: null,
    detailsMessage: null,
    createdAt: now,
    modifiedAt: now,
    capturedAt: null,
    voidedAt: null,
    settledAt: null,
  };
}
