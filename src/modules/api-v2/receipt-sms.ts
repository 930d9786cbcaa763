import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { formatCents } from '../../platform/money.js';
import { toE164 } from '../../platform/sms/sms-transport.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import { STATUS_NAMES, type Transaction, TYPE_NAMES } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';

export interface ReceiptSmsDeps {
  pool: Pool;
  transactions: TransactionsService;
  merchants: MerchantsService;
  messages: MessagesService;
}

/** The receipt as one SMS: who, what, how much, how it ended, and which card or account (masked). */
export function receiptText(t: Transaction, companyName: string): string {
  const what = `${TYPE_NAMES[t.typeId] ?? 'Payment'} of USD ${formatCents(t.totalCents)}`;
  const method =
    t.method === 'card' ? (t.panMask ? `, card ${t.panMask.slice(-4).padStart(8, '*')}` : '') : ', bank account';
  const when = t.createdAt.toISOString().replace('T', ' ').slice(0, 16);
  const reference = t.referenceId ? `, reference ${t.referenceId}` : '';
  return `${companyName} receipt: ${what}, ${STATUS_NAMES[t.statusId] ?? 'recorded'}${method}, ${when} UTC${reference}. Transaction ${t.id}.`;
}

/**
 * `POST /v2/transactions/{id}/send-receipt`: the receipt by SMS through the messages module (retried, never sent
 * twice; the sandbox outbox without a provider). Only with the customer's consent.
 */
export class ReceiptSms {
  constructor(private readonly deps: ReceiptSmsDeps) {}

  async send(merchantId: string, transactionId: string, mobileNumber: string, customerConsent: boolean) {
    const t = await this.deps.transactions.get(merchantId, transactionId);
    if (!t) throw new NotFoundError('Transaction', transactionId);
    if (!customerConsent) {
      throw ValidationError.field('customerConsent', 'A receipt is sent by SMS only with the customer’s consent.');
    }
    const to = toE164(mobileNumber);
    if (!to)
      throw ValidationError.field('mobileNumber', 'A mobile number is +country code and number, or 10 US digits.');
    const merchant = await this.deps.merchants.getMerchantIn(this.deps.pool, merchantId);
    return withTransaction(this.deps.pool, (tx) =>
      this.deps.messages.queue(tx, {
        merchantId,
        channel: 'sms',
        to,
        subject: null,
        text: receiptText(t, merchant.companyName),
        attachments: [],
        relatedType: 'transaction',
        relatedId: t.id,
      }),
    );
  }
}
