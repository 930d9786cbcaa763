import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import type { ChargeRequest } from '../payments/payments.service.js';
import { CardDataSource, CreateMethod } from '../payments/transactions.model.js';
import type { Address } from '../reference/address.js';
import type { PayerPayment } from './session-payments.js';
import type { PaymentSession } from './sessions.model.js';
import { sessionTax } from './sessions.model.js';

/** The card payment a session asks for: the payer's card as entered, on the session's terms. */
export function chargeRequest(
  session: PaymentSession,
  configuration: MerchantConfiguration,
  payment: PayerPayment,
  billing: Address | null,
): ChargeRequest {
  const card = payment.card!;
  const [firstName, lastName] = splitName(card.name);
  return {
    merchantId: session.merchantId,
    source: { typeId: CreateMethod.WebComponent, id: session.id },
    processorId: session.card.processorId,
    instrument: {
      kind: 'card',
      accountNumber: card.number,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      securityCode: card.securityCode,
    },
    amount: {
      baseCents: baseCents(session, payment),
      tipCents: session.tipCents,
      useCardPrice:
        configuration.settings.zeroCostProcessingOptionId === ZeroCostProcessingOption.DualPricing ? true : null,
      tax: sessionTax(session),
    },
    billingAddress: billing,
    contactInfo: {
      firstName,
      lastName,
      companyName: null,
      email: payment.email,
      mobilePhoneNumber: null,
      smsNotification: null,
    },
    cardDataSource: CardDataSource.Internet,
    referenceId: session.referenceId,
    initiator: 'customer',
    skipAddressVerification: session.skipAddressVerification,
  };
}

export function baseCents(session: PaymentSession, payment: PayerPayment): number {
  return session.amountCents ?? payment.amountCents ?? 0;
}

/** A card's name on the card as first and last name (the last word is the last name). */
export function splitName(name: string): [string | null, string | null] {
  const [first, ...rest] = name.trim().split(/\s+/);
  return [first || null, rest.join(' ') || null];
}
