import { CARD_TYPE_NAMES, CREDIT_DEBIT_NAMES } from '../../connectors/card/card-numbers.js';
import { fromCents } from '../../platform/money.js';
import type { Customer, CustomerStats } from '../customers/customers.model.js';
import type { CustomerInput } from '../customers/customers.service.js';
import { type Address, addressView } from '../reference/address.js';
import {
  ACCOUNT_HOLDER_TYPE_NAMES,
  ACCOUNT_TYPE_NAMES,
  type AchInput,
  CARD_TOKEN_TYPE_NAMES,
  type CardInput,
  PAYMENT_METHOD_TYPE_NAMES,
  type PaymentMethod,
  PaymentMethodType,
} from '../vault/vault.model.js';
import type {
  AchInput as AchBody,
  CardInput as CardBody,
  CreateCustomerBody,
  UpdateCustomerBody,
} from './v2-customers.schemas.js';

export function customerInput(body: UpdateCustomerBody | CreateCustomerBody): CustomerInput {
  return {
    firstName: body.firstName,
    lastName: body.lastName,
    companyName: body.companyName,
    email: body.email,
    mobileNumber: body.mobileNumber ?? body.mobilePhoneNumber,
    smsNotification: body.hasSmsConsent,
    useBillingAsShippingAddress: body.shouldUseBillingAsShippingAddress,
    billingAddress: body.billingAddress,
    shippingAddress: body.shippingAddress,
  };
}

export const cardInput = (card: CardBody): CardInput => ({
  name: card.paymentName ?? card.name,
  pan: card.cardNumber,
  expirationMonth: card.expirationMonth,
  expirationYear: card.expirationYear,
  securityCode: card.securityCode,
});

export const achInput = (ach: AchBody): AchInput => ({
  name: ach.paymentName ?? ach.name,
  accountNumber: ach.accountNumber,
  routingNumber: ach.routingNumber,
  accountType: ach.accountType == null ? null : ach.accountType === 'Checking' ? 1 : 2,
  accountHolderType: ach.accountHolderType == null ? null : ach.accountHolderType === 'Business' ? 1 : 2,
  taxId: ach.taxId,
});

/**
 * A merge patch (the published revision's `PATCH /v2/customers/{id}`) over the customer as it stands: a field left
 * out keeps its value, a field sent as null is cleared; the result is a full replacement for the service.
 */
export function mergedCustomer(current: Customer, patch: UpdateCustomerBody): UpdateCustomerBody {
  const has = (key: string) => Object.hasOwn(patch, key);
  const phone = has('mobilePhoneNumber')
    ? patch.mobilePhoneNumber
    : has('mobileNumber')
      ? patch.mobileNumber
      : undefined;
  return {
    firstName: has('firstName') ? patch.firstName : current.firstName,
    lastName: has('lastName') ? patch.lastName : current.lastName,
    companyName: has('companyName') ? patch.companyName : current.companyName,
    email: has('email') ? patch.email : current.email,
    mobileNumber: phone !== undefined ? phone : current.mobilePhoneNumber,
    hasSmsConsent: has('hasSmsConsent') ? patch.hasSmsConsent : current.smsNotificationsEnabled,
    shouldUseBillingAsShippingAddress: has('shouldUseBillingAsShippingAddress')
      ? patch.shouldUseBillingAsShippingAddress
      : current.useBillingAsShipping,
    billingAddress: has('billingAddress') ? patch.billingAddress : v2Address(current.billingAddress),
    shippingAddress: has('shippingAddress') ? patch.shippingAddress : v2Address(current.shippingAddress),
  } as UpdateCustomerBody;
}

/** The address in the version 2 names (ISO codes for state and country). */
export function v2Address(address: Address | null) {
  if (!address) return null;
  const a = addressView(address);
  return {
    city: a.city,
    countryCode: a.countryCode,
    line1: a.line1,
    line2: a.line2,
    postalCode: a.postalCode,
    stateCode: a.stateCode,
  };
}

/** A tax id shows its last four digits only, as the document's examples do (`***-**-6789`). */
export function maskedTaxId(taxId: string | null): string | null {
  if (!taxId) return null;
  return `***-**-${taxId.replace(/\D/g, '').slice(-4)}`;
}

const isDefault = (customer: Customer, pm: PaymentMethod) =>
  pm.id === customer.defaultPaymentMethodId || pm.id === customer.defaultAchPaymentMethodId;

function cardFields(pm: PaymentMethod) {
  return {
    cardMask: pm.mask,
    expirationMonth: pm.expirationMonth!,
    expirationYear: pm.expirationYear!,
    cardTokenType: CARD_TOKEN_TYPE_NAMES[pm.cardTokenTypeId ?? 1]!,
  };
}

function achFields(pm: PaymentMethod) {
  return {
    accountNumber: pm.mask,
    routingNumber: pm.routingNumber!,
    accountType: ACCOUNT_TYPE_NAMES[pm.accountTypeId ?? 1]!,
    accountHolderType: ACCOUNT_HOLDER_TYPE_NAMES[pm.accountHolderTypeId ?? 2]!,
    taxId: maskedTaxId(pm.taxId),
  };
}

/** `GET /v2/customers/{id}`. */
export function customerDetail(customer: Customer, stats: CustomerStats, methods: PaymentMethod[]) {
  return {
    ...listItem(customer, stats),
    customerId: customer.id,
    mobilePhoneNumber: customer.mobilePhoneNumber,
    billingAddress: bothAddress(customer.billingAddress),
    hasSmsConsent: customer.smsNotificationsEnabled === true,
    shouldUseBillingAsShippingAddress: customer.useBillingAsShipping,
    shippingAddress: bothAddress(customer.shippingAddress),
    transactionsCount: stats.transactionsCount,
    transactionsVolume: fromCents(stats.transactionsVolumeCents),
    lastTransactionAmount: stats.lastTransactionCents === null ? null : fromCents(stats.lastTransactionCents),
    numberOfSubscriptions: stats.activeSubscriptionsCount,
    cards: methods
      .filter((pm) => pm.typeId === PaymentMethodType.Card)
      .map((pm) => ({
        id: pm.id,
        paymentMethodId: pm.id,
        name: pm.name,
        paymentName: pm.name,
        isDefault: isDefault(customer, pm),
        ...cardFields(pm),
        cardType: CARD_TYPE_NAMES[pm.cardTypeId ?? 0] ?? 'Unknown',
        creditDebitType: CREDIT_DEBIT_NAMES[pm.creditDebitTypeId ?? 3] ?? 'Unknown',
      })),
    achAccounts: methods
      .filter((pm) => pm.typeId === PaymentMethodType.Ach)
      .map((pm) => ({
        id: pm.id,
        paymentMethodId: pm.id,
        name: pm.name,
        paymentName: pm.name,
        isDefault: isDefault(customer, pm),
        ...achFields(pm),
      })),
  };
}

/** An item of `GET /v2/customers`. */
export function listItem(customer: Customer, stats: CustomerStats) {
  return {
    id: customer.id,
    externalId: null,
    firstName: customer.firstName,
    lastName: customer.lastName,
    companyName: customer.companyName,
    email: customer.email,
    mobileNumber: customer.mobilePhoneNumber,
    billingAddress: v2Address(customer.billingAddress),
    lastTransactionDate: stats.lastTransactionAt?.toISOString() ?? null,
    paymentMethodsCount: stats.paymentMethodsCount,
  };
}

/** The address in both revisions' names (a customer's detail answers both). */
export function bothAddress(address: Address | null) {
  const older = v2Address(address);
  return older && { ...older, addressLine1: older.line1, addressLine2: older.line2 };
}

/** The address in the published revision's names (`addressLine1`, `addressLine2`). */
export function publishedAddress(address: Address | null) {
  const a = v2Address(address);
  return a
    ? {
        addressLine1: a.line1,
        addressLine2: a.line2,
        city: a.city,
        postalCode: a.postalCode,
        stateCode: a.stateCode,
        countryCode: a.countryCode,
      }
    : null;
}

/** An item of `GET /v2/customers` for a request in the published revision's terms (`pageIndex`). */
export function publishedListItem(customer: Customer, stats: CustomerStats) {
  return {
    customerId: customer.id,
    externalId: null,
    firstName: customer.firstName,
    lastName: customer.lastName,
    companyName: customer.companyName,
    email: customer.email,
    mobilePhoneNumber: customer.mobilePhoneNumber,
    billingAddress: publishedAddress(customer.billingAddress),
    lastTransactionDate: stats.lastTransactionAt?.toISOString() ?? null,
    paymentMethodsCount: stats.paymentMethodsCount,
  };
}

/** An item of `GET /v2/customers/{id}/payment-methods`. */
export function methodItem(customer: Customer, pm: PaymentMethod) {
  const card = pm.typeId === PaymentMethodType.Card;
  return {
    id: pm.id,
    name: pm.name,
    isDefault: isDefault(customer, pm),
    type: PAYMENT_METHOD_TYPE_NAMES[pm.typeId]!,
    card: card ? cardFields(pm) : null,
    ach: card ? null : achFields(pm),
  };
}

/** The published revision's payment method (`/v2/payment-methods`): a customer's or an orphan (no customer). */
export function publishedMethodView(pm: PaymentMethod, customer: Customer | null) {
  const isCard = pm.typeId === PaymentMethodType.Card;
  return {
    paymentMethodId: pm.id,
    customerId: pm.customerId,
    name: pm.name,
    type: PAYMENT_METHOD_TYPE_NAMES[pm.typeId] ?? 'Card',
    isDefault: customer !== null && isDefault(customer, pm),
    createdOn: pm.createdAt.toISOString(),
    card: isCard ? cardFields(pm) : null,
    ach: isCard ? null : { ...achFields(pm), companyName: pm.companyName },
  };
}
