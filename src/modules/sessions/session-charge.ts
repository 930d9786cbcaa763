import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import type { BankInstrument, CardInstrument, ChargeRequest } from '../payments/payments.service.js';
import { CardDataSource, type ContactInfo, CreateMethod } from '../payments/transactions.model.js';
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
  return {
    merchantId: session.merchantId,
    source: { typeId: CreateMethod.WebComponent, id: session.id },
    processorId: session.card.processorId,
    instrument: payerCard(payment),
    amount: {
      baseCents: baseCents(session, payment),
      tipCents: session.tipCents,
      useCardPrice:
        configuration.settings.zeroCostProcessingOptionId === ZeroCostProcessingOption.DualPricing ? true : null,
      tax: sessionTax(session),
    },
    billingAddress: billing,
    contactInfo: payerContact(payment),
    cardDataSource: CardDataSource.Internet,
    referenceId: session.referenceId,
    initiator: 'customer',
    skipAddressVerification: session.skipAddressVerification,
  };
}

/** The card the payer entered, as the payments core takes it (never stored). */
export function payerCard(payment: PayerPayment): CardInstrument {
  const card = payment.card!;
  return {
    kind: 'card',
    accountNumber: card.number,
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    securityCode: card.securityCode,
  };
}

/** The bank account the payer entered. */
export function payerBankAccount(payment: PayerPayment): BankInstrument {
  const ach = payment.ach!;
  return {
    kind: 'bank-account',
    accountNumber: ach.accountNumber,
    routingNumber: ach.routingNumber,
    accountType: ach.accountType,
    accountHolderType: ach.accountHolderType,
  };
}

/** Who paid, from the form: the card's name split, or the account holder's names and phone. */
export function payerContact(payment: PayerPayment): ContactInfo {
  const [firstName, lastName] = payment.ach
    ? [payment.ach.firstName, payment.ach.lastName]
    : splitName(payment.card!.name);
  return {
    firstName,
    lastName,
    companyName: null,
    email: payment.email,
    mobilePhoneNumber: payment.ach?.phone ?? null,
    smsNotification: null,
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
