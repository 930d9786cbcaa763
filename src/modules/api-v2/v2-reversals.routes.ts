import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { toCents } from '../../platform/money.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { AchStatus } from '../payments/ach/ach.model.js';
import type { AchPaymentsService } from '../payments/ach/ach.service.js';
import type { CardPaymentsService } from '../payments/card-payments.service.js';
import type { RequestClaim } from '../payments/payment-request.js';
import { type Transaction, TransactionStatus } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { VaultService } from '../vault/vault.service.js';
import { achCommand, cardCreditCommand, checkCurrency, customerOfMethod } from './v2-commands.js';
import { revisionOf } from './v2-revision.js';
import { achReversalResult, reversalResult } from './v2-transactions.mapper.js';
import { CreditBody, ReversalBody, ReversalResult, TransactionIdParams } from './v2-transactions.schemas.js';

export interface V2ReversalsRouteDeps {
  cardPayments: CardPaymentsService;
  vault: VaultService;
  ach: AchPaymentsService;
  merchants: MerchantsService;
  transactions: TransactionsService;
}

/** `/v2/transactions/{id}/reversal` and `/v2/transactions/credit`: money back, by card or ACH, over the payments core. */
export function v2ReversalsRoutes(app: App, deps: V2ReversalsRouteDeps): void {
  const { cardPayments, ach, merchants, transactions } = deps;
  const tags = ['Transactions (v2)'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404, 409);

  /** ACH: a Scheduled or Held debit is voided (cancelled before its file); a Cleared one refunded, whole. */
  async function reverseAch(t: Transaction, amount: number | null | undefined, claim: RequestClaim | undefined) {
    const voidable = t.statusId === AchStatus.Scheduled || t.statusId === AchStatus.Held;
    if (!voidable && amount != null && toCents(amount) !== t.totalCents) {
      throw ValidationError.field(
        'amount',
        'An ACH refund returns the whole debit: leave out `amount` or send the whole amount.',
      );
    }
    const r = voidable ? await ach.void(t.merchantId, t.id, claim) : await ach.refund(t.merchantId, t.id, claim);
    const named = (await transactions.get(t.merchantId, r.transactionId))!;
    return achReversalResult(r, named, await merchants.getConfiguration(t.merchantId), voidable ? 'void' : 'money');
  }

  app.post(
    '/v2/transactions/:transactionId/reversal',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Reverse a transaction: void or refund, as its state allows',
        description:
          'Card: an authorization, or a sale not yet settled, is voided (the whole amount; `amount` is ignored); a ' +
          'settled sale is refunded: the whole remaining amount, or `amount` for a partial refund, answered with ' +
          'the refund’s own `transactionId`. ACH: a Scheduled or Held debit is voided before its file goes out ' +
          '(Approved); a Cleared debit is refunded whole by a credit to the same account (Pending until its file ' +
          'goes out); a debit already submitted and not yet cleared can be neither (400).',
        params: TransactionIdParams,
        body: Type.Optional(ReversalBody),
        response: { 200: ReversalResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const id = request.params.transactionId;
      const t = await transactions.get(merchantId, id);
      if (!t) throw new NotFoundError('Transaction', id);
      const amount = request.body?.amount ?? request.body?.reversalAmount;
      if (t.method === 'ach') return reverseAch(t, amount, request.idempotency);
      const voidable =
        t.statusId === TransactionStatus.Authorized || (t.statusId === TransactionStatus.Captured && !t.settledAt);
      const result = voidable
        ? await cardPayments.void(merchantId, id, request.idempotency)
        : await cardPayments.refund(
            merchantId,
            id,
            amount == null ? undefined : toCents(amount),
            1,
            request.idempotency,
          );
      return reversalResult(result, await merchants.getConfiguration(merchantId));
    },
  );

  app.post(
    '/v2/transactions/credit',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Credit a card or bank account without an original transaction',
        description:
          'Card (`cardData`): an unreferenced refund to raw card data, netted in the open batch. ACH (`achData`): a ' +
          'credit to a new, vaulted or orphan account (`requesterIpAddress` required; a new account needs a ' +
          'billing address and `contactInfo.mobileNumber`), Pending until its NACHA file goes out. Honours ' +
          '`idempotency-key`.',
        body: CreditBody,
        response: { 200: ReversalResult, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const body = request.body;
      checkCurrency('currencyCode', body.currencyCode);
      const { cardData, achData } = body.creditDetails;
      if (cardData && achData) throw ValidationError.field('creditDetails', 'Send cardData or achData, not both.');
      if (achData) {
        const credit = await ach.create({
          ...achCommand(merchantId, 'credit', body, achData, 'creditDetails.achData', revisionOf(request)),
          customerId: achData.paymentMethodId
            ? await customerOfMethod(deps.vault, merchantId, achData.paymentMethodId, body.customerId)
            : (body.customerId ?? null),
          idempotency: request.idempotency,
        });
        const t = (await transactions.get(merchantId, credit.transactionId))!;
        return achReversalResult(credit, t, await merchants.getConfiguration(merchantId), 'money');
      }
      if (!cardData) throw ValidationError.field('creditDetails.cardData', 'cardData or achData is required.');
      const result = await cardPayments.pay({
        ...cardCreditCommand(merchantId, body),
        payingCustomerId: body.customerId ?? null,
        idempotency: request.idempotency,
      });
      return reversalResult(result, await merchants.getConfiguration(merchantId));
    },
  );
}
