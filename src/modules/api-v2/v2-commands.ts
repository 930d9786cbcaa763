// Version 2 requests as the payments core's commands: the wire names stay here, the core speaks in cents.
import ipaddr from 'ipaddr.js';
import { ValidationError } from '../../platform/http/errors.js';
import { optionalCents, optionalMillipercent, toCents } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { AchCommand } from '../payments/ach/ach.model.js';
import { SecCode } from '../payments/ach/ach.model.js';
import { enhancedDataOf } from '../payments/enhanced-data.js';
import { contactInfoOf, type PaymentCommand, paymentCommand } from '../payments/payment-request.js';
import { CardDataSource, CreateMethod } from '../payments/transactions.model.js';
import { normalizeAddress } from '../reference/address.js';
import type { VaultService } from '../vault/vault.service.js';
import type { AchData, CreateTransactionBody, CreditBody } from './v2-transactions.schemas.js';

/** Only US dollars are processed: any other currency is a 400 naming the field, not a silent USD charge. */
export function checkCurrency(field: string, code: string | null | undefined): void {
  if (code != null && code.trim().toUpperCase() !== 'USD') {
    throw ValidationError.field(field, `'${code}' is not supported: only USD.`);
  }
}

/**
 * Version 2 requests name a vaulted method without its customer (the document has no `customerId`): the method's own
 * customer pays. Another merchant's method is not found.
 */
export async function customerOfMethod(
  vault: VaultService,
  merchantId: string,
  paymentMethodId: string | null | undefined,
  named?: string | null,
): Promise<string | null> {
  if (!paymentMethodId) return null;
  const owner = (await vault.get(merchantId, paymentMethodId)).customerId;
  // The published revision's top-level `customerId` beside a saved method names that method's customer.
  if (named && named !== owner) {
    throw ValidationError.field('customerId', 'This payment method is not that customer’s.');
  }
  return owner;
}

/** What every v2 payment request carries besides its payment method. */
type Common = Pick<
  CreateTransactionBody,
  'baseAmount' | 'paymentProcessorId' | 'billingAddress' | 'shippingAddress' | 'contactInfo' | 'referenceId'
>;

function commonFields(body: Common) {
  return {
    processorId: body.paymentProcessorId,
    amountCents: toCents(body.baseAmount),
    billingAddress: body.billingAddress ? normalizeAddress(body.billingAddress, 'billingAddress') : null,
    shippingAddress: body.shippingAddress ? normalizeAddress(body.shippingAddress, 'shippingAddress') : null,
    contactInfo: body.contactInfo
      ? contactInfoOf({ ...body.contactInfo, smsNotification: body.contactInfo.hasSmsConsent ?? null })
      : null,
    referenceId: body.referenceId?.trim() || null,
    createMethodId: CreateMethod.ApiToken,
  };
}

type Extra = CreateTransactionBody['extraAmounts'];

/**
 * The discount asked for, as a percentage off. `discountRate` is one (both revisions); `discountAmount` is one in the
 * older revision (its documented quirk) and a fixed amount in the published one, which the payments core does not
 * take: a clear 400 rather than an inexact conversion (docs/api-v2.md).
 */
export function discountRateOf(extra: Extra | undefined, revision: 'published' | 'older'): number | null {
  const amount = extra?.discountAmount || null;
  const rate = extra?.discountRate || null;
  if (amount !== null && rate !== null) {
    throw ValidationError.field('extraAmounts', "Send one of 'discountAmount' and 'discountRate'.");
  }
  if (rate !== null) return optionalMillipercent(rate);
  if (amount === null) return null;
  if (revision === 'older') return optionalMillipercent(amount);
  throw ValidationError.field(
    'extraAmounts.discountAmount',
    "A fixed discount is not taken: send 'discountRate' (a percentage of baseAmount).",
  );
}

/** The tip asked for: an amount or a rate (a percentage of baseAmount), one of them. */
function tipOf(extra: Extra | undefined): { tipCents: number | null; tipRateMpct: number | null } {
  const amount = extra?.tipAmount || null;
  const rate = extra?.tipRate || null;
  if (amount !== null && rate !== null) {
    throw ValidationError.field('extraAmounts', "Send one of 'tipAmount' and 'tipRate'.");
  }
  return { tipCents: optionalCents(amount), tipRateMpct: optionalMillipercent(rate) };
}

/** The v2 create, as the payments core's card command (sale for captureMethod Auto, authorization for Manual). */
export function cardCommand(
  merchantId: string,
  body: CreateTransactionBody,
  revision: 'published' | 'older' = 'published',
): PaymentCommand {
  const card = body.transactionDetails.cardData!;
  const details = card.paymentMethodDetails ?? undefined;
  const extra = body.extraAmounts ?? undefined;
  return paymentCommand(
    withFields(commonFields(body), {
      kind: card.captureMethod === 'Manual' ? 'authorize' : 'sale',
      merchantId,
      paymentMethodId: card.paymentMethodId,
      accountNumber: details?.cardNumber,
      expirationMonth: details?.expirationMonth,
      expirationYear: details?.expirationYear,
      securityCode: details?.securityCode,
      ...tipOf(extra),
      percentageOffRateMpct: discountRateOf(extra, revision),
      // A zero rate asks for no surcharge (the published clients send zeros for what they leave out).
      surchargeRateMpct: optionalMillipercent(extra?.surchargeRate || null),
      cardDataSourceId: CardDataSource.Internet,
      customerInitiated: body.isCustomerInitiatedTransaction ?? body.customerInitiatedTransaction,
      enhancedData: enhancedDataOf(body.transactionEnhancedData),
    }),
  );
}

/** An unreferenced card credit, as the core's refund-without-reference command. */
export function cardCreditCommand(merchantId: string, body: CreditBody): PaymentCommand {
  const details = body.creditDetails.cardData!.paymentMethodDetails;
  return paymentCommand(
    withFields(commonFields(body), {
      kind: 'refund-without-reference',
      merchantId,
      accountNumber: details.cardNumber,
      expirationMonth: details.expirationMonth,
      expirationYear: details.expirationYear,
      securityCode: details.securityCode,
      cardDataSourceId: CardDataSource.Internet,
    }),
  );
}

const SEC_CODES = { Web: SecCode.Web, PPD: SecCode.PPD, CCD: SecCode.CCD, Telephone: SecCode.Telephone } as const;

/** The end user's address, as the ACH rules want it: a real IPv4 (four parts) or IPv6 address. */
function requesterIp(field: string, value: string): string {
  const ip = value.trim();
  if (!ipaddr.isValid(ip) || (ipaddr.IPv4.isValid(ip) && !ipaddr.IPv4.isValidFourPartDecimal(ip))) {
    throw ValidationError.field(field, "'requesterIpAddress' must be an IPv4 or IPv6 address.");
  }
  return ip;
}

/**
 * `achData` as the payments core's ACH command: a debit (the create) or a credit (`/credit`). `field` is where the
 * request carries it, so errors name the caller's own path.
 */
export function achCommand(
  merchantId: string,
  direction: 'debit' | 'credit',
  body: Common & { extraAmounts?: CreateTransactionBody['extraAmounts'] },
  ach: AchData,
  field: 'transactionDetails.achData' | 'creditDetails.achData',
  revision: 'published' | 'older' = 'published',
): AchCommand {
  const details = ach.paymentMethodDetails ?? undefined;
  return withFields(commonFields(body), {
    merchantId,
    direction,
    percentageOffRateMpct: discountRateOf(body.extraAmounts ?? undefined, revision),
    paymentMethodId: ach.paymentMethodId,
    accountNumber: details?.accountNumber?.trim() || null,
    routingNumber: details?.routingNumber?.trim() || null,
    secCode: SEC_CODES[ach.secCode ?? 'Web'],
    requesterIp: requesterIp(`${field}.requesterIpAddress`, ach.requesterIpAddress),
    isFasterProcessing: ach.isSameDayProcessing ?? ach.isFasterProcessing ?? false,
    taxId: details?.taxId,
    accountType: details?.accountType == null ? undefined : details.accountType === 'Checking' ? 1 : 2,
    accountHolderType:
      details?.accountHolderType == null ? undefined : details.accountHolderType === 'Business' ? 1 : 2,
  });
}
