import type { Address } from '../reference/address.js';

export interface Customer {
  id: string;
  merchantId: string;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  email: string | null;
  mobilePhoneNumber: string | null;
  smsNotificationsEnabled: boolean | null;
  useBillingAsShipping: boolean;
  billingAddress: Address | null;
  shippingAddress: Address | null;
  defaultPaymentMethodId: string | null;
  defaultAchPaymentMethodId: string | null;
  createdAt: Date;
  modifiedAt: Date;
}

/** Figures derived from the customer's transactions (never stored, so always true to the data). */
export interface CustomerStats {
  transactionsCount: number;
  transactionsVolumeCents: number;
  lastTransactionAt: Date | null;
  lastTransactionCents: number | null;
  paymentMethodsCount: number;
  /** Active subscriptions (status Active), and what one payment of each comes to in total. */
  activeSubscriptionsCount: number;
  activeSubscriptionsCents: number;
}

export type CustomerFields = Omit<
  Customer,
  'id' | 'merchantId' | 'defaultPaymentMethodId' | 'defaultAchPaymentMethodId' | 'createdAt' | 'modifiedAt'
>;
