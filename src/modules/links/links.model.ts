/** Where a link was made: the integration API's quick payments, or version 2 payment links. */
export type LinkSurface = 'quick' | 'v2';

/**
 * One status for both surfaces. Quick payments show created, active and inactive (an expired or used one-time link is
 * inactive); version 2 links show Active, Inactive, Expired and Completed (they are active from creation).
 */
export type LinkStatus = 'created' | 'active' | 'inactive' | 'expired' | 'completed';

export interface PaymentLink {
  id: string;
  merchantId: string;
  surface: LinkSurface;
  singleUse: boolean;
  status: LinkStatus;
  code: string;
  /** null: the payer enters the amount. */
  amountCents: number | null;
  currencyCode: string;
  referenceId: string | null;
  name: string | null;
  description: string | null;
  customerId: string | null;
  card: { enabled: boolean; processorId: string | null };
  ach: { enabled: boolean; processorId: string | null };
  expiresAt: Date | null;
  paymentCount: number;
  totalCollectedCents: number;
  lastPaymentAt: Date | null;
  createdAt: Date;
  modifiedAt: Date;
  /** For lists and views: the customer's name. */
  customerFirstName: string | null;
  customerLastName: string | null;
}

export type NewLink = Omit<
  PaymentLink,
  | 'id'
  | 'code'
  | 'paymentCount'
  | 'totalCollectedCents'
  | 'lastPaymentAt'
  | 'createdAt'
  | 'modifiedAt'
  | 'customerFirstName'
  | 'customerLastName'
>;

/** Quick payment status ids (the integration API's `statusId`). */
export const QuickStatus = { Created: 1, Active: 2, Inactive: 3 } as const;

export function quickStatusOf(status: LinkStatus): 1 | 2 | 3 {
  if (status === 'created') return QuickStatus.Created;
  if (status === 'active') return QuickStatus.Active;
  return QuickStatus.Inactive;
}

export const QUICK_STATUS_NAMES = { 1: 'Created', 2: 'Active', 3: 'Inactive' } as const;

export const V2_STATUS_NAMES: Record<LinkStatus, 'Active' | 'Inactive' | 'Expired' | 'Completed'> = {
  created: 'Inactive',
  active: 'Active',
  inactive: 'Inactive',
  expired: 'Expired',
  completed: 'Completed',
};

/** Whether a payer may pay it now. */
export function isPayable(link: PaymentLink, now: Date): boolean {
  return link.status === 'active' && !(link.expiresAt && link.expiresAt <= now);
}

/** What a link becomes when its time is up: quick payments go inactive, version 2 links expired. */
export function expiredStatus(link: Pick<PaymentLink, 'surface'>): LinkStatus {
  return link.surface === 'quick' ? 'inactive' : 'expired';
}

/** A one-time or SingleUse link after its payment. */
export function usedStatus(link: Pick<PaymentLink, 'surface'>): LinkStatus {
  return link.surface === 'quick' ? 'inactive' : 'completed';
}

/** Default lifetime of a one-time quick payment (the create request has no expiry). Reusable ones: none. */
export const ONE_TIME_LIFETIME_DAYS = 30;
/** The farthest an expiry may be set. */
export const MAX_LIFETIME_DAYS = 366;
