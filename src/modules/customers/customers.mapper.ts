import { fromCents } from '../../platform/money.js';
import type { Address } from '../reference/address.js';
import { countryById, stateById } from '../reference/states.js';
import {
  ACCOUNT_HOLDER_TYPE_NAMES,
  ACCOUNT_TYPE_NAMES,
  PAYMENT_METHOD_TYPE_NAMES,
  type PaymentMethod,
  PaymentMethodType,
} from '../vault/vault.model.js';
import type { Customer, CustomerStats } from './customers.model.js';

/** The customer-record address shape (addressLine1, zip, state{}, country{}). */
export function customerAddressView(address: Address | null) {
  if (!address) return null;
  const state = address.stateId === null ? undefined : stateById(address.stateId);
  const country = countryById(address.countryId);
  return {
    addressLine1: address.line1,
    addressLine2: address.line2,
    city: address.city,
    zip: address.postalCode,
    stateName: state?.name ?? null,
    state: state ? { id: state.id, code: state.code, name: state.name } : null,
    country: country ? { id: country.id, isoCode: country.isoCode, name: country.name } : null,
  };
}

function sms(customer: Customer) {
  return customer.smsNotificationsEnabled === null
    ? {}
    : { isMobileNumberSmsNotificationsEnabled: customer.smsNotificationsEnabled };
}

export function cardView(pm: PaymentMethod, defaultId: string | null) {
  return {
    id: pm.id,
    name: pm.name,
    isDefault: pm.id === defaultId,
    panMask: pm.mask,
    expirationMonth: pm.expirationMonth!,
    expirationYear: pm.expirationYear!,
    cardTokenType: pm.cardTokenTypeId ?? 1,
    cardType: pm.cardTypeId ?? 0,
    creditDebitType: pm.creditDebitTypeId ?? 3,
  };
}

export function achAccountView(pm: PaymentMethod, defaultId: string | null) {
  return {
    id: pm.id,
    name: pm.name,
    isDefault: pm.id === defaultId,
    accountNumber: pm.mask,
    routingNumber: pm.routingNumber!,
    accountTypeId: pm.accountTypeId ?? 1,
    accountType: ACCOUNT_TYPE_NAMES[pm.accountTypeId ?? 1]!,
    accountHolderTypeId: pm.accountHolderTypeId ?? 2,
    accountHolderType: ACCOUNT_HOLDER_TYPE_NAMES[pm.accountHolderTypeId ?? 2]!,
    taxId: pm.taxId,
  };
}

export function customerView(customer: Customer, stats: CustomerStats, methods: PaymentMethod[]) {
  return {
    id: customer.id,
    merchantId: customer.merchantId,
    firstName: customer.firstName,
    lastName: customer.lastName,
    companyName: customer.companyName,
    email: customer.email,
    mobilePhoneNumber: customer.mobilePhoneNumber,
    ...sms(customer),
    useBillingAsShippingAddress: customer.useBillingAsShipping,
    defaultPaymentMethodId: customer.defaultPaymentMethodId,
    defaultAchPaymentMethodId: customer.defaultAchPaymentMethodId,
    createdOn: customer.createdAt.toISOString(),
    modifiedOn: customer.modifiedAt.toISOString(),
    billingAddress: customerAddressView(customer.billingAddress),
    shippingAddress: customerAddressView(
      customer.useBillingAsShipping ? customer.billingAddress : customer.shippingAddress,
    ),
    lastTransactionDate: stats.lastTransactionAt?.toISOString() ?? null,
    transactionsCount: stats.transactionsCount,
    transactionsVolume: fromCents(stats.transactionsVolumeCents),
    lastTransactionAmount: stats.lastTransactionCents === null ? null : fromCents(stats.lastTransactionCents),
    numberOfSubscriptions: stats.activeSubscriptionsCount,
    cards: methods
      .filter((m) => m.typeId === PaymentMethodType.Card)
      .map((m) => cardView(m, customer.defaultPaymentMethodId)),
    achAccounts: methods
      .filter((m) => m.typeId === PaymentMethodType.Ach)
      .map((m) => achAccountView(m, customer.defaultAchPaymentMethodId)),
  };
}

export function customerListItem(customer: Customer, stats: CustomerStats) {
  const contactName = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  return {
    id: customer.id,
    createdOn: customer.createdAt.toISOString(),
    modifiedOn: customer.modifiedAt.toISOString(),
    lastTransactionDate: stats.lastTransactionAt?.toISOString() ?? null,
    lastTransactionAmount: stats.lastTransactionCents === null ? null : fromCents(stats.lastTransactionCents),
    activeSubscriptionsAmount: fromCents(stats.activeSubscriptionsCents),
    contactName: contactName || null,
    firstName: customer.firstName,
    lastName: customer.lastName,
    companyName: customer.companyName,
    email: customer.email,
    mobilePhoneNumber: customer.mobilePhoneNumber,
    ...sms(customer),
    billingAddress: customerAddressView(customer.billingAddress),
    paymentMethodsCount: stats.paymentMethodsCount,
  };
}

export function paymentMethodView(pm: PaymentMethod, customer: Customer | null) {
  const isCard = pm.typeId === PaymentMethodType.Card;
  const defaultId = isCard ? customer?.defaultPaymentMethodId : customer?.defaultAchPaymentMethodId;
  return {
    id: pm.id,
    name: pm.name,
    typeId: pm.typeId,
    typeName: PAYMENT_METHOD_TYPE_NAMES[pm.typeId]!,
    panMask: isCard ? pm.mask : null,
    cardType: pm.cardTypeId,
    creditDebitType: pm.creditDebitTypeId,
    cardTokenType: pm.cardTokenTypeId,
    expirationMonth: pm.expirationMonth,
    expirationYear: pm.expirationYear,
    accountNumber: isCard ? null : pm.mask,
    routingNumber: pm.routingNumber,
    accountType: pm.accountTypeId,
    accountHolderType: pm.accountHolderTypeId,
    taxId: pm.taxId,
    isDefault: pm.id === defaultId,
    createdOn: pm.createdAt.toISOString(),
  };
}
