import type { IdempotencyClaim } from '../../platform/http/idempotency.js';
import type { Address } from '../reference/address.js';
import { pickPhone } from '../reference/phone.js';
import type { TaxSetting } from './amounts.js';
import type { EnhancedData } from './enhanced-data.js';
import { type ContactInfo, CreateMethod } from './transactions.model.js';

/**
 * The idempotency key a request holds (IdempotencyClaim): what it starts carries `id`; when `recovering`, an
 * earlier attempt of the same request was cut off and what it started must be found before anything new is.
 */
export type RequestClaim = Pick<IdempotencyClaim, 'id' | 'recovering'>;

/** A new card payment as the service receives it: wire units already converted (cents, millipercent). */
export interface PaymentCommand {
  kind: 'sale' | 'authorize' | 'verify' | 'refund-without-reference';
  merchantId: string;
  /** The request's idempotency key, when it sent one. */
  idempotency?: RequestClaim;
  processorId?: string | null;
  customerId?: string | null;
  /**
   * The customer a payment with raw card data is for (the published version 2 revision's top-level `customerId`):
   * checked to be the merchant's and recorded on the transaction; the card is not saved. (`customerId` names whose
   * saved card pays.)
   */
  payingCustomerId?: string | null;
  paymentMethodId?: string | null;
  accountNumber?: string | null;
  expirationMonth?: number | null;
  expirationYear?: number | null;
  /** Only in memory for the call in flight. */
  securityCode?: string | null;
  amountCents: number;
  tipCents?: number | null;
  tipRateMpct?: number | null;
  percentageOffRateMpct?: number | null;
  surchargeRateMpct?: number | null;
  useCardPrice?: boolean | null;
  currencyId: number;
  billingAddress?: Address | null;
  shippingAddress?: Address | null;
  contactInfo?: ContactInfo | null;
  cardDataSourceId: number;
  referenceId?: string | null;
  customerInitiated?: boolean | null;
  createMethodId: number;
  /** The payment session paying (its id becomes the transaction's source). */
  sourceId?: string | null;
  /** A session with `skipAddressVerification`: no AVS for this card-not-present payment. */
  skipAddressVerification?: boolean;
  /** Tax configured by a payment session: a rate or a fixed amount, added on top (exclusive) or included. */
  tax?: TaxSetting | null;
  /** Level 2/3 data the request sent; a sale or authorization completes it with the merchant's autofill. */
  enhancedData?: EnhancedData | null;
}

/** What a surface gives for a new card payment, before the rules every surface shares are applied. */
export type PaymentFields = Omit<PaymentCommand, 'currencyId' | 'createMethodId'> & {
  currencyId?: number | null;
  createMethodId?: number;
};

/**
 * A new card payment's command, from any surface (version 1, version 2, a payment source through PaymentsService):
 * the shared rules in one place. A verification charges nothing, the currency is USD unless named, a blank
 * reference is none, a payment is the API's own unless its source says otherwise, and every field left out is null.
 */
export function paymentCommand(fields: PaymentFields): PaymentCommand {
  // Every field named once, in one literal: copying the fields and then overwriting most of them cost a card sale
  // two copies of a 29-key object (docs/performance.md). `Complete` makes leaving one out a type error.
  const command: Complete<PaymentCommand> = {
    kind: fields.kind,
    merchantId: fields.merchantId,
    idempotency: fields.idempotency,
    processorId: fields.processorId ?? null,
    customerId: fields.customerId ?? null,
    payingCustomerId: fields.payingCustomerId,
    paymentMethodId: fields.paymentMethodId ?? null,
    accountNumber: fields.accountNumber ?? null,
    expirationMonth: fields.expirationMonth ?? null,
    expirationYear: fields.expirationYear ?? null,
    securityCode: fields.securityCode ?? null,
    amountCents: fields.kind === 'verify' ? 0 : fields.amountCents,
    tipCents: fields.tipCents ?? null,
    tipRateMpct: fields.tipRateMpct ?? null,
    percentageOffRateMpct: fields.percentageOffRateMpct ?? null,
    surchargeRateMpct: fields.surchargeRateMpct ?? null,
    useCardPrice: fields.useCardPrice ?? null,
    currencyId: fields.currencyId ?? 1,
    billingAddress: fields.billingAddress ?? null,
    shippingAddress: fields.shippingAddress ?? null,
    contactInfo: fields.contactInfo ?? null,
    cardDataSourceId: fields.cardDataSourceId,
    referenceId: fields.referenceId?.trim() || null,
    customerInitiated: fields.customerInitiated ?? null,
    createMethodId: fields.createMethodId ?? CreateMethod.ApiToken,
    sourceId: fields.sourceId ?? null,
    skipAddressVerification: fields.skipAddressVerification ?? false,
    tax: fields.tax ?? null,
    enhancedData: fields.enhancedData ?? null,
  };
  return command;
}

/** Every key of T present (an optional one may still hold `undefined`). */
type Complete<T> = { [K in keyof Required<T>]: T[K] };

/** The request's `contactInfo` as stored (either phone spelling accepted; a bad one is a 400 naming the field). */
export function contactInfoOf(
  contact:
    | (Parameters<typeof pickPhone>[0] & {
        firstName?: string | null;
        lastName?: string | null;
        companyName?: string | null;
        email?: string | null;
        smsNotification?: boolean | null;
      })
    | null
    | undefined,
): ContactInfo | null {
  if (!contact) return null;
  return {
    firstName: contact.firstName ?? null,
    lastName: contact.lastName ?? null,
    companyName: contact.companyName ?? null,
    email: contact.email ?? null,
    mobilePhoneNumber: pickPhone(contact, 'contactInfo.') ?? null,
    smsNotification: contact.smsNotification ?? null,
  };
}
