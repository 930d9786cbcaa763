import { fromCents } from '../../platform/money.js';
import { type PaymentLink, V2_STATUS_NAMES } from './links.model.js';

export function paymentLinkView(link: PaymentLink, shortUrl: string) {
  return {
    paymentLinkId: link.id,
    shortUrl,
    paymentLinkStatus: V2_STATUS_NAMES[link.status],
    linkType: link.singleUse ? ('SingleUse' as const) : ('MultiUse' as const),
    name: link.name,
    description: link.description,
    baseAmount: link.amountCents === null ? null : fromCents(link.amountCents),
    currencyCode: link.currencyCode,
    paymentMethods: { card: link.card, ach: link.ach },
    customerId: link.customerId,
    customerFirstName: link.customerFirstName,
    customerLastName: link.customerLastName,
    referenceId: link.referenceId,
    paymentCount: link.paymentCount,
    totalCollectedAmount: fromCents(link.totalCollectedCents),
    lastPaymentOn: link.lastPaymentAt?.toISOString() ?? null,
    expiresOn: link.expiresAt?.toISOString() ?? null,
    createdOn: link.createdAt.toISOString(),
    modifiedOn: link.modifiedAt.toISOString(),
  };
}
