import type { Address } from '../reference/address.js';
import type { PortfolioChanges } from './portfolio/portfolio.model.js';

export const MerchantStatus = { Active: 1, Suspended: 2, Closed: 3 } as const;
/** A payment processor of a merchant: only an Active one takes payments. */
export const ProcessorStatus = { Active: 1, Inactive: 2 } as const;
export const MERCHANT_STATUS_NAMES: Record<number, string> = { 1: 'Active', 2: 'Suspended', 3: 'Closed' };

export const ZeroCostProcessingOption = { None: 1, CashDiscount: 2, DualPricing: 3, Surcharge: 4 } as const;
export const ZERO_COST_OPTION_NAMES: Record<number, string> = {
  1: 'None',
  2: 'CashDiscount',
  3: 'DualPricing',
  4: 'Surcharge',
};

/** AVS profiles decide what a mismatch does (the card issue applies them); documented in docs/sandbox.md. */
export const AVS_PROFILES: Record<number, string> = { 1: 'Lenient', 2: 'Standard', 3: 'Strict' };

export const PaymentProcessorType = { Card: 1, Ach: 2 } as const;

export interface SettlementTimeSlot {
  hours: number;
  minutes: number;
  timezoneName: string;
}

export interface MerchantSettings {
  isTipsEnabled: boolean;
  defaultTipsOptionsMpct: number[] | null;
  zeroCostProcessingOptionId: number;
  defaultSurchargeRateMpct: number | null;
  defaultCashDiscountRateMpct: number | null;
  defaultDualPricingRateMpct: number | null;
  maxTransactionAmountCents: number | null;
  avs: { isEnabled: boolean; profileId: number };
  isCustomerCardSavingByTerminalEnabled: boolean;
  /** The merchant's IANA time zone: subscriptions fall due on its calendar and clock. */
  timeZone: string;
  /** Days after an installment's first failed attempt on which it is tried again (dunning). */
  subscriptionRetryDays: number[];
}

export const DEFAULT_SETTINGS: MerchantSettings = {
  isTipsEnabled: false,
  defaultTipsOptionsMpct: null,
  zeroCostProcessingOptionId: ZeroCostProcessingOption.None,
  defaultSurchargeRateMpct: null,
  defaultCashDiscountRateMpct: null,
  defaultDualPricingRateMpct: null,
  maxTransactionAmountCents: null,
  avs: { isEnabled: true, profileId: 2 },
  isCustomerCardSavingByTerminalEnabled: false,
  timeZone: 'America/New_York',
  subscriptionRetryDays: [1, 3, 5],
};

export interface Merchant {
  id: string;
  partnerId: string | null;
  companyName: string;
  legalName: string | null;
  mccCode: string | null;
  mccCodeDescription: string | null;
  statusId: number;
  email: string | null;
  phone: string | null;
  website: string | null;
  settings: MerchantSettings;
  lastTransactionAt: Date | null;
  createdAt: Date;
  modifiedAt: Date;
}

export interface PaymentProcessor {
  id: string;
  merchantId: string;
  method: 'card' | 'ach';
  name: string;
  typeId: number;
  typeName: string;
  connector: string;
  isDefault: boolean;
  statusId: number;
  settlementTimeSlots: SettlementTimeSlot[];
}

/** What GET /configurations/payments shows, and what payment flows consult: settings, identity, processors. */
export interface MerchantConfiguration {
  merchantId: string;
  companyName: string;
  /** The merchant's contact, which messages to its customers give. */
  email: string | null;
  phone: string | null;
  mccCode: string | null;
  mccCodeDescription: string | null;
  statusId: number;
  settings: MerchantSettings;
  processors: PaymentProcessor[];
  /** L2/L3 defaults for card payments that do not send their own (null: none). */
  transactionAutofill: TransactionAutofill | null;
}

/** The product line a payment without line items is given (L3). */
export interface AutofillProduct {
  name: string | null;
  code: string | null;
  unitPriceCents: number | null;
  measurementUnit: string | null;
  quantity: number | null;
  discountRateMpct: number | null;
  description: string | null;
}

/** The merchant's L2/L3 autofill settings, in internal units. */
export interface TransactionAutofill {
  taxRateMpct: number | null;
  product: AutofillProduct | null;
  shippingCents: number | null;
  /** The published revision's shipping charge, a percentage of the base amount (the older one's is an amount). */
  shippingRateMpct?: number | null;
  dutyRateMpct: number | null;
}

export interface MerchantContact {
  id: string;
  addressName: string;
  isMain: boolean;
  isDefault: boolean;
  address: Address;
  email: string | null;
  phone: string | null;
}

/** What the operator sends to create a merchant, already converted from wire units. */
export type MerchantDraft = Omit<Merchant, 'id' | 'lastTransactionAt' | 'createdAt' | 'modifiedAt'> & {
  address: Address | null;
  /** The operator's portfolio overrides (the partner portfolio API's fields). */
  portfolio?: PortfolioChanges;
};

/** A partial change: absent keys stay as they are; settings merge field by field. */
export type MerchantChanges = Partial<Omit<MerchantDraft, 'settings'>> & {
  settings?: Partial<Omit<MerchantSettings, 'avs'>> & { avs?: Partial<MerchantSettings['avs']> };
};
