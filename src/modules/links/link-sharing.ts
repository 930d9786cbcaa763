import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { ValidationError } from '../../platform/http/errors.js';
import { formatCents } from '../../platform/money.js';
import { toE164 } from '../../platform/sms/sms-transport.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { PaymentLink } from './links.model.js';
import type { LinksService } from './links.service.js';

export interface LinkSharingDeps {
  pool: Pool;
  links: LinksService;
  customers: CustomersService;
  merchants: MerchantsService;
  messages: MessagesService;
}

/** Sending a link to a payer by SMS or email, through the messages module (the sandbox outbox without transports). */
export class LinkSharing {
  constructor(private readonly deps: LinkSharingDeps) {}

  /**
   * Quick payments' `send-sms-notification`: to the given number, else the link customer's (which needs their SMS
   * consent, as for invoices).
   */
  async smsToCustomer(link: PaymentLink, mobileNumber: string | null) {
    let number = mobileNumber?.trim() || null;
    if (!number) {
      const customer = link.customerId ? await this.deps.customers.get(link.merchantId, link.customerId) : undefined;
      if (!customer?.mobilePhoneNumber) {
        throw ValidationError.field(
          'mobileNumber',
          "The link has no customer with a mobile number: give one in 'mobileNumber'.",
        );
      }
      if (customer.smsNotificationsEnabled !== true) {
        throw ValidationError.field(
          'mobileNumber',
          "The link's customer has not agreed to SMS notifications: give a number in 'mobileNumber' to send anyway.",
        );
      }
      number = customer.mobilePhoneNumber;
    }
    return this.send(link, 'sms', number, 'mobileNumber');
  }

  /** Version 2 `share`: by email or SMS to the recipient, who must have agreed to receive it. */
  async share(link: PaymentLink, shareBy: 'Email' | 'Sms', recipient: string, hasCustomerConsent: boolean) {
    if (!hasCustomerConsent) {
      throw ValidationError.field('hasCustomerConsent', 'A link is shared only with the recipient’s consent.');
    }
    if (shareBy === 'Email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(recipient.trim())) {
      throw ValidationError.field('recipient', 'An email address is required to share by Email.');
    }
    return this.send(link, shareBy === 'Email' ? 'email' : 'sms', recipient.trim(), 'recipient');
  }

  private async send(link: PaymentLink, channel: 'email' | 'sms', to: string, field: string) {
    const address = channel === 'sms' ? toE164(to) : to;
    if (!address) throw ValidationError.field(field, 'A mobile number is +country code and number, or 10 US digits.');
    const merchant = await this.deps.merchants.getMerchantIn(this.deps.pool, link.merchantId);
    const url = this.deps.links.pageUrl(link);
    const what = link.amountCents === null ? 'a payment' : `a payment of USD ${formatCents(link.amountCents)}`;
    const title = link.name ? ` (${link.name})` : '';
    const text =
      channel === 'sms'
        ? `${merchant.companyName} requests ${what}${title}. Pay here: ${url}`
        : [
            'Hello,',
            '',
            `${merchant.companyName} requests ${what}${title}.`,
            ...(link.description ? ['', link.description] : []),
            '',
            `Pay securely here: ${url}`,
          ].join('\n');
    return withTransaction(this.deps.pool, async (tx) => {
      const messageId = await this.deps.messages.queue(tx, {
        merchantId: link.merchantId,
        channel,
        to: address,
        subject: channel === 'email' ? `Payment request from ${merchant.companyName}` : null,
        text,
        attachments: [],
        relatedType: link.surface === 'quick' ? 'quick_payment' : 'payment_link',
        relatedId: link.id,
      });
      return { messageId, channel, to: address };
    });
  }
}
