import type { CardOutcome } from '../../connectors/card/card-connector.js';
import type { Address } from '../reference/address.js';
import type { AchPaymentsService } from './ach/ach.service.js';
import type { CardPaymentsService, OperationResult } from './card-payments.service.js';
import { paymentCommand, type RequestClaim } from './payment-request.js';
import type { AmountParts } from './pricing.js';
import type { PaymentSourceListener, PaymentSourceListeners } from './source-listeners.js';
import {
  type ContactInfo,
  type CreateMethod,
  type Transaction,
  TransactionStatus,
  TransactionType,
} from './transactions.model.js';
import type { TransactionsService } from './transactions.service.js';

/**
 * Who creates a money movement: the payment source's type (the transaction's `createMethodId`, shown as its
 * `source.typeId`) and, for sources that are records of their own (a payment session, a subscription, an invoice,
 * a payment link, a terminal), the record's id (`source.id`).
 */
export interface PaymentSource {
  typeId: (typeof CreateMethod)[keyof typeof CreateMethod];
  id?: string | null;
}

/** A card to charge: a customer's vaulted card (their default without an id), an orphan vaulted card, or raw data. */
export type CardInstrument =
  | { kind: 'vaulted'; customerId: string; paymentMethodId?: string | null }
  | { kind: 'orphan'; paymentMethodId: string }
  | {
      kind: 'card';
      accountNumber: string;
      expirationMonth: number;
      expirationYear: number;
      /** Only in memory for the call in flight, never stored. */
      securityCode?: string | null;
    };

/** A bank account to debit or credit: a customer's vaulted account (their default without an id), an orphan one, or raw. */
export type BankInstrument =
  | { kind: 'vaulted'; customerId: string; paymentMethodId?: string | null }
  | { kind: 'orphan'; paymentMethodId: string }
  | {
      kind: 'bank-account';
      accountNumber: string;
      routingNumber: string;
      accountType?: number | null;
      accountHolderType?: number | null;
    };

interface PaymentBasics {
  merchantId: string;
  source: PaymentSource;
  amount: AmountParts;
  processorId?: string | null;
  referenceId?: string | null;
  billingAddress?: Address | null;
  shippingAddress?: Address | null;
  contactInfo?: ContactInfo | null;
  /** The idempotency key of the request behind it, if any (a retry then gets the first attempt back). */
  idempotency?: RequestClaim;
}

export interface ChargeRequest extends PaymentBasics {
  instrument: CardInstrument;
  /** sale: authorize and capture (default); authorize: hold only; verify: check the card, charge nothing. */
  operation?: 'sale' | 'authorize' | 'verify';
  /** Who started it: the cardholder (checkout, a link) or the merchant (a subscription installment, a terminal). */
  initiator: 'customer' | 'merchant';
  /** How the card was read (CardDataSource): 1 Internet for card-not-present sources. */
  cardDataSource: number;
  skipAddressVerification?: boolean;
}

export interface AchRequest extends PaymentBasics {
  instrument: BankInstrument;
  secCode: number;
  requesterIp: string;
  isFasterProcessing?: boolean;
  taxId?: string | null;
}

export interface RefundRequest {
  merchantId: string;
  transactionId: string;
  /** Default: what is left to refund. */
  amountCents?: number;
  cardDataSource?: number;
  idempotency?: RequestClaim;
}

/**
 * What became of a money movement: approved (money moves: captured, authorized, verified, refunded, or an ACH entry
 * scheduled for its window), declined or failed (nothing moved), pending (the processor's answer is not known yet;
 * the reconciler settles it and the transaction's events announce the result).
 */
export interface PaymentResult {
  outcome: 'approved' | 'declined' | 'failed' | 'pending';
  transaction: Transaction;
  /** The operation's type (a refund answers Refund, an ACH hold AchHold, ...). */
  typeId: number;
  processedCents: number;
  /** The processor's own answer, when this call got one. */
  processorAnswer: CardOutcome | null;
}

/**
 * The internal API every payment source uses to move money: the HTTP API's own routes, payment sessions, and the
 * sources to come (subscriptions, terminals, invoices, links). Each call creates transactions exactly as the API does
 * (same validation, duplicate check, AVS, amounts, ledger, batches and events) and records who made it (`source`).
 */
export type { AmountParts };

export class PaymentsService {
  constructor(
    private readonly cards: CardPaymentsService,
    private readonly ach: AchPaymentsService,
    private readonly transactions: TransactionsService,
    private readonly sources: PaymentSourceListeners,
  ) {}

  /** A payment source hears of its payments' later outcomes (an ACH debit clearing or coming back). */
  listen(sourceTypeId: PaymentSource['typeId'], listener: PaymentSourceListener): void {
    this.sources.register(sourceTypeId, listener);
  }

  /** A card payment: sale, authorization or verification. */
  async charge(request: ChargeRequest): Promise<PaymentResult> {
    const instrument = request.instrument;
    const card = instrument.kind === 'card' ? instrument : undefined;
    const result = await this.cards.pay(
      paymentCommand({
        kind: request.operation ?? 'sale',
        merchantId: request.merchantId,
        idempotency: request.idempotency,
        processorId: request.processorId,
        customerId: instrument.kind === 'vaulted' ? instrument.customerId : null,
        paymentMethodId: instrument.kind === 'card' ? null : instrument.paymentMethodId,
        accountNumber: card?.accountNumber,
        expirationMonth: card?.expirationMonth,
        expirationYear: card?.expirationYear,
        securityCode: card?.securityCode,
        amountCents: request.amount.baseCents,
        tipCents: request.amount.tipCents,
        tipRateMpct: request.amount.tipRateMpct,
        percentageOffRateMpct: request.amount.percentageOffRateMpct,
        surchargeRateMpct: request.amount.surchargeRateMpct,
        useCardPrice: request.amount.useCardPrice,
        tax: request.amount.tax,
        billingAddress: request.billingAddress,
        shippingAddress: request.shippingAddress,
        contactInfo: request.contactInfo,
        cardDataSourceId: request.cardDataSource,
        referenceId: request.referenceId,
        customerInitiated: request.initiator === 'customer',
        createMethodId: request.source.typeId,
        sourceId: request.source.id,
        skipAddressVerification: request.skipAddressVerification,
      }),
    );
    return cardResult(result);
  }

  /** Pulls money from a bank account (ACH debit): scheduled for its processor's next cutoff window. */
  achDebit(request: AchRequest): Promise<PaymentResult> {
    return this.achPayment('debit', request);
  }

  /** Pays money to a bank account (ACH credit). */
  achCredit(request: AchRequest): Promise<PaymentResult> {
    return this.achPayment('credit', request);
  }

  /** Refunds a card payment (its own transaction) or a cleared ACH debit (a reversing credit). */
  async refund(request: RefundRequest): Promise<PaymentResult> {
    const original = await this.transactions.get(request.merchantId, request.transactionId);
    if (original?.method === 'ach') {
      const response = await this.ach.refund(request.merchantId, request.transactionId, request.idempotency);
      return this.achResult(request.merchantId, response.transactionId, response.typeId);
    }
    const result = await this.cards.refund(
      request.merchantId,
      request.transactionId,
      request.amountCents,
      request.cardDataSource ?? 1,
      request.idempotency,
    );
    return cardResult(result);
  }

  /** Captures an authorization (all of it by default). */
  async capture(merchantId: string, transactionId: string, amountCents?: number, idempotency?: RequestClaim) {
    return cardResult(await this.cards.capture(merchantId, transactionId, amountCents, idempotency));
  }

  /** Voids a card payment before it settles. */
  async void(merchantId: string, transactionId: string, idempotency?: RequestClaim): Promise<PaymentResult> {
    return cardResult(await this.cards.void(merchantId, transactionId, idempotency));
  }

  /**
   * Ends a card payment a source started under idempotency id `claimId` and lost track of (its node died or went
   * silent): the payment made under it (settled with the processor first if its answer was lost), or, when none was
   * recorded, a Failed sale recorded under the claim in its place (outcome `failed`, nothing charged), so a request
   * still in flight under the claim can no longer charge.
   */
  async closeCardClaim(claim: {
    merchantId: string;
    claimId: string;
    source: PaymentSource;
    processorId?: string | null;
    operation?: 'sale' | 'authorize';
    amountCents: number;
    referenceId?: string | null;
    cardDataSource: number;
    reason: string;
  }): Promise<PaymentResult> {
    const result = await this.cards.closeClaim({
      merchantId: claim.merchantId,
      claimId: claim.claimId,
      createMethodId: claim.source.typeId,
      sourceId: claim.source.id ?? null,
      processorId: claim.processorId ?? null,
      typeId: claim.operation === 'authorize' ? TransactionType.Authorization : TransactionType.Sale,
      amountCents: claim.amountCents,
      referenceId: claim.referenceId ?? null,
      cardDataSourceId: claim.cardDataSource,
      reason: claim.reason,
    });
    return cardResult(result);
  }

  /**
   * Asks the processor what became of a card operation whose answer was lost (true once known). Sources that wait
   * on a payment (a session's sweep) call it; the reconciler job does the same on its own.
   */
  reconcile(transactionId: string): Promise<boolean> {
    return this.cards.reconcile(transactionId);
  }

  /**
   * Ends a source's lost ACH debit (its node died before or while making it): the debit made under the claim, or a
   * Failed one recorded in its place, which a request still on its way under that id then meets (nothing is debited).
   */
  async closeAchClaim(claim: {
    merchantId: string;
    claimId: string;
    source: PaymentSource;
    processorId?: string | null;
    amountCents: number;
    referenceId?: string | null;
    reason: string;
  }): Promise<PaymentResult> {
    const t = await this.ach.closeClaim({
      merchantId: claim.merchantId,
      claimId: claim.claimId,
      createMethodId: claim.source.typeId,
      sourceId: claim.source.id ?? null,
      processorId: claim.processorId ?? null,
      amountCents: claim.amountCents,
      referenceId: claim.referenceId ?? null,
      reason: claim.reason,
    });
    return this.achResult(claim.merchantId, t.id, t.typeId);
  }

  /**
   * What a payment a source made under an idempotency id came to, as its result; undefined when none was made. Read
   * only: a source answers a retry of its request with it once the payment is settled (nothing is made here).
   */
  async paymentMadeUnder(merchantId: string, idempotencyId: string): Promise<PaymentResult | undefined> {
    const t = await this.transactions.byIdempotencyId(merchantId, idempotencyId);
    if (!t) return undefined;
    if (t.method === 'ach') return this.achResult(merchantId, t.id, t.typeId);
    const processedCents = t.typeId === TransactionType.Authorization ? t.authorizedCents : t.capturedCents;
    return cardResult({ transaction: t, typeId: t.typeId, outcome: null, processedCents });
  }

  private async achPayment(direction: 'debit' | 'credit', request: AchRequest): Promise<PaymentResult> {
    const instrument = request.instrument;
    const response = await this.ach.create({
      merchantId: request.merchantId,
      idempotency: request.idempotency,
      direction,
      amountCents: request.amount.baseCents,
      percentageOffRateMpct: request.amount.percentageOffRateMpct ?? null,
      tipCents: request.amount.tipCents ?? null,
      tax: request.amount.tax ?? null,
      processorId: request.processorId ?? null,
      customerId: instrument.kind === 'vaulted' ? instrument.customerId : null,
      paymentMethodId: instrument.kind === 'bank-account' ? null : (instrument.paymentMethodId ?? null),
      accountNumber: instrument.kind === 'bank-account' ? instrument.accountNumber : null,
      routingNumber: instrument.kind === 'bank-account' ? instrument.routingNumber : null,
      accountType: instrument.kind === 'bank-account' ? (instrument.accountType ?? null) : null,
      accountHolderType: instrument.kind === 'bank-account' ? (instrument.accountHolderType ?? null) : null,
      secCode: request.secCode,
      requesterIp: request.requesterIp,
      isFasterProcessing: request.isFasterProcessing ?? false,
      taxId: request.taxId ?? null,
      billingAddress: request.billingAddress ?? null,
      shippingAddress: request.shippingAddress ?? null,
      contactInfo: request.contactInfo ?? null,
      createMethodId: request.source.typeId,
      sourceId: request.source.id ?? null,
    });
    return this.achResult(request.merchantId, response.transactionId, response.typeId);
  }

  private async achResult(merchantId: string, transactionId: string, typeId: number): Promise<PaymentResult> {
    const transaction = (await this.transactions.get(merchantId, transactionId))!;
    const failed = transaction.statusId === TransactionStatus.Failed;
    return {
      outcome: failed ? 'failed' : 'approved',
      transaction,
      typeId,
      processedCents: failed ? 0 : transaction.totalCents,
      processorAnswer: null,
    };
  }
}

function cardResult(result: OperationResult): PaymentResult {
  const status = result.transaction.statusId;
  const outcome =
    status === TransactionStatus.Pending
      ? 'pending'
      : status === TransactionStatus.Declined
        ? 'declined'
        : status === TransactionStatus.Failed
          ? 'failed'
          : 'approved';
  return {
    outcome,
    transaction: result.transaction,
    typeId: result.typeId,
    processedCents: result.processedCents,
    processorAnswer: result.outcome,
  };
}
