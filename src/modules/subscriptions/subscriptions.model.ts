import { namesOf } from '../../platform/db/sql-ids.js';
import type { AmountColumns } from '../payments/amounts.js';
import type { Cadence } from './schedule.js';

/** A subscription's status (the API's `statusId`; the names are its `status`). */
export const SubscriptionStatus = {
  Active: 1,
  Completed: 2,
  Suspended: 3,
  Delinquent: 4,
  Terminated: 5,
  Deleted: 6,
} as const;
export const SUBSCRIPTION_STATUS_NAMES = namesOf(SubscriptionStatus);
/** Statuses a subscription never leaves. */
export const FINAL_STATUSES: ReadonlySet<number> = new Set([
  SubscriptionStatus.Completed,
  SubscriptionStatus.Terminated,
  SubscriptionStatus.Deleted,
]);
/** Statuses whose payment method and customer are still in use. */
export const LIVE_STATUSES = [SubscriptionStatus.Active, SubscriptionStatus.Suspended, SubscriptionStatus.Delinquent];

/** An installment's status in the payment history. */
export const InstallmentStatus = { Scheduled: 1, Pending: 2, Successful: 3, Failed: 4, Skipped: 5 } as const;
export const INSTALLMENT_STATUS_NAMES = namesOf(InstallmentStatus);

/** The unit of `paymentFrequency` (the API's `paymentFrequencyUnit`). */
export const FrequencyUnit = { Day: 1, Week: 2, Month: 3 } as const;
export const FREQUENCY_UNIT_NAMES: Record<number, string> = { 1: 'Daily', 2: 'Weekly', 3: 'Monthly' };
/** The only day intervals the vendor accepts. */
export const DAY_FREQUENCIES = [7, 15, 30] as const;

export interface Subscription {
  id: string;
  merchantId: string;
  customerId: string;
  paymentMethodId: string;
  processorId: string;
  statusId: number;
  /** 2 Sale (cards), 11 AchDebit (bank accounts); 1 Authorization only on subscriptions made before it was refused. */
  transactionTypeId: number;
  baseCents: number;
  percentageOffRateMpct: number | null;
  surchargeRateMpct: number | null;
  useCardPrice: boolean | null;
  /** The breakdown of one installment of `baseCents` when the subscription was created. */
  amount: AmountColumns;
  /** One installment of `baseCents` in total, and all installments together (null: no end). */
  totalCents: number;
  allPaymentsCents: number | null;
  /** Installments whose amount differs from `baseCents`, by payment order. */
  installmentAmounts: Record<number, number> | null;
  currencyId: number;
  frequencyUnitId: number;
  frequency: number;
  /** A calendar form of the schedule; null: the interval of `frequencyUnitId` and `frequency`. */
  schedule: CalendarSchedule | null;
  numberOfPayments: number | null;
  timeZone: string;
  requesterIp: string;
  secCode: number | null;
  isFasterProcessing: boolean;
  startAt: Date;
  endAt: Date | null;
  plannedOrder: number;
  nextDueAt: Date | null;
  successfulCount: number;
  paidCents: number;
  lastPaymentAt: Date | null;
  /** Read only: when it is next charged (its earliest installment due or retry; null unless Active). */
  nextPaymentAt: Date | null;
  sourceTypeId: number;
  /** The API client that created it. */
  sourceId: string | null;
  idempotencyId: string | null;
  createdAt: Date;
  modifiedAt: Date;
}

/** The calendar forms a request may give instead of an interval. */
export interface CalendarSchedule {
  daysOfMonth?: number[];
  weeksOfMonth?: number[];
  /** 0 Sunday … 6 Saturday. */
  dayOfWeek?: number;
  monthsOfYear?: number[];
}

export interface Installment {
  id: string;
  subscriptionId: string;
  merchantId: string;
  paymentOrder: number;
  dueAt: Date;
  amountCents: number;
  statusId: number;
  nextAttemptAt: Date | null;
  attempts: number;
  failedAttempts: number;
  firstFailedAt: Date | null;
  attemptStartedAt: Date | null;
  attemptNode: number | null;
  recheckAt: Date | null;
  transactionId: string | null;
  createdAt: Date;
  modifiedAt: Date;
}

export interface Attempt {
  installmentId: string;
  attemptNumber: number;
  executedAt: Date;
  paymentClaimId: string;
  transactionId: string | null;
  result: 'Approved' | 'Declined' | 'Returned' | 'Pending' | null;
  responseCode: string | null;
  responseMessage: string | null;
}

/** The schedule a subscription follows. */
export function cadenceOf(s: Pick<Subscription, 'schedule' | 'frequencyUnitId' | 'frequency'>): Cadence {
  const c = s.schedule;
  if (c?.daysOfMonth) {
    return { kind: 'days-of-month', days: c.daysOfMonth, ...(c.monthsOfYear ? { months: c.monthsOfYear } : {}) };
  }
  if (c?.weeksOfMonth) {
    return {
      kind: 'weeks-of-month',
      weeks: c.weeksOfMonth,
      dayOfWeek: c.dayOfWeek ?? 1,
      ...(c.monthsOfYear ? { months: c.monthsOfYear } : {}),
    };
  }
  const unit =
    s.frequencyUnitId === FrequencyUnit.Day ? 'day' : s.frequencyUnitId === FrequencyUnit.Week ? 'week' : 'month';
  return { kind: 'interval', unit, every: s.frequency };
}

/** Installment `paymentOrder`'s amount: its own, or the subscription's. */
export function installmentCents(s: Pick<Subscription, 'installmentAmounts' | 'baseCents'>, paymentOrder: number) {
  return s.installmentAmounts?.[paymentOrder] ?? s.baseCents;
}
