import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { formatCents } from '../../platform/money.js';
import { toE164 } from '../../platform/sms/sms-transport.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { STATUS_NAMES, type Transaction, TYPE_NAMES } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { MessagesService } from './messages.service.js';

export interface ReceiptsDeps {
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
 * A transaction's receipt to its payer, through the messages module (retried, never sent twice; the sandbox outbox
 * without a provider): by SMS only with the customer's consent (`POST /v2/transactions/{id}/send-receipt`, the
 * dashboard), by e-mail from the dashboard.
 */
export class Receipts {
  constructor(private readonly deps: ReceiptsDeps) {}

  async send(merchantId: string, transactionId: string, mobileNumber: string, customerConsent: boolean) {
    const t = await this.transaction(merchantId, transactionId);
    if (!customerConsent) {
      throw ValidationError.field('customerConsent', 'A receipt is sent by SMS only with the customer’s consent.');
    }
    const to = toE164(mobileNumber);
    if (!to)
      throw ValidationError.field('mobileNumber', 'A mobile number is +country code and number, or 10 US digits.');
    return this.queue(t, 'sms', to);
  }

  async email(merchantId: string, transactionId: string, address: string) {
    const t = await this.transaction(merchantId, transactionId);
    const to = address.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to) || to.length > 254) {
      throw ValidationError.field('email', 'That is not an e-mail address.');
    }
    return this.queue(t, 'email', to);
  }

  /** The merchant's transaction exists (a 404 otherwise): a share that sends nothing still names a real one. */
  async check(merchantId: string, transactionId: string): Promise<void> {
    await this.transaction(merchantId, transactionId);
  }

  private async transaction(merchantId: string, transactionId: string): Promise<Transaction> {
    const t = await this.deps.transactions.get(merchantId, transactionId);
    if (!t) throw new NotFoundError('Transaction', transactionId);
    return t;
  }

  private async queue(t: Transaction, channel: 'sms' | 'email', to: string) {
    const merchantId = t.merchantId;
    const merchant = await this.deps.merchants.getMerchantIn(this.deps.pool, merchantId);
    return withTransaction(this.deps.pool, (tx) =>
      this.deps.messages.queue(tx, {
        merchantId,
        channel,
        to,
        subject: channel === 'email' ? `Your receipt from ${merchant.companyName}` : null,
        text: receiptText(t, merchant.companyName),
        attachments: [],
        relatedType: 'transaction',
        relatedId: t.id,
      }),
    );
  }
}
