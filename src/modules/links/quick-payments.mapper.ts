import { fromCents } from '../../platform/money.js';
import { type PaymentLink, QUICK_STATUS_NAMES, quickStatusOf } from './links.model.js';

export function quickPaymentView(link: PaymentLink, url: string) {
  const statusId = quickStatusOf(link.status);
  return {
    id: link.id,
    type: link.singleUse ? ('OneTime' as const) : ('Reusable' as const),
    status: QUICK_STATUS_NAMES[statusId],
    statusId,
    amount: link.amountCents === null ? null : fromCents(link.amountCents),
    referenceId: link.referenceId,
    name: link.name,
    description: link.description,
    customerId: link.customerId,
    customerFirstName: link.customerFirstName,
    customerLastName: link.customerLastName,
    url,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    paymentsCount: link.paymentCount,
    totalCollectedAmount: fromCents(link.totalCollectedCents),
    lastPaymentOn: link.lastPaymentAt?.toISOString() ?? null,
    createdOn: link.createdAt.toISOString(),
    modifiedOn: link.modifiedAt.toISOString(),
  };
}
