export const PaymentMethodType = { Card: 1, Ach: 2 } as const;
export const PAYMENT_METHOD_TYPE_NAMES: Record<number, string> = { 1: 'Card', 2: 'ElectronicCheck' };
export const CardTokenType = { Local: 1, Network: 2 } as const;
export const CARD_TOKEN_TYPE_NAMES: Record<number, string> = { 1: 'Local', 2: 'Network' };
export const AccountType = { Checking: 1, Savings: 2 } as const;
export const ACCOUNT_TYPE_NAMES: Record<number, string> = { 1: 'Checking', 2: 'Savings' };
export const ACCOUNT_HOLDER_TYPE_NAMES: Record<number, string> = { 1: 'Business', 2: 'Personal' };

/** A vaulted payment method as the rest of the system sees it: the number itself stays sealed. */
export interface PaymentMethod {
  id: string;
  merchantId: string;
  customerId: string | null;
  typeId: number;
  name: string | null;
  mask: string;
  fingerprint: Buffer;
  cardTypeId: number | null;
  creditDebitTypeId: number | null;
  cardTokenTypeId: number | null;
  expirationMonth: number | null;
  expirationYear: number | null;
  routingNumber: string | null;
  accountTypeId: number | null;
  accountHolderTypeId: number | null;
  taxId: string | null;
  /** A bank account's legal company name, when it was given one (a Business account). */
  companyName: string | null;
  createdAt: Date;
  modifiedAt: Date;
}

export interface CardInput {
  name?: string | null;
  pan: string;
  expirationMonth: number;
  expirationYear: number;
  securityCode?: string | null;
}

export interface AchInput {
  name?: string | null;
  accountNumber: string;
  routingNumber: string;
  accountType?: number | null;
  accountHolderType?: number | null;
  taxId?: string | null;
  companyName?: string | null;
}

/** A card ready for an authorization: the clear number lives only in this object, only for the call. */
export interface UsableCard {
  paymentMethodId: string | null;
  customerId: string | null;
  pan: string;
  expirationMonth: number;
  expirationYear: number;
  mask: string;
  fingerprint: Buffer;
  cardTypeId: number;
  creditDebitTypeId: number;
  cardTokenTypeId: number;
}

/** The payment-method list's sort keys (the published revision's `sortBy`). */
export const METHOD_LIST = {
  orderBy: { createdOn: 'created_at', name: 'name', type: 'type_id' },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'id',
  notNull: ['createdOn', 'type'],
  defaultPageSize: 20,
};
