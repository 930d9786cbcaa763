import { isIP } from 'node:net';
import { CreditDebitType, isExpired } from '../../connectors/card/card-numbers.js';
import { dictionary } from '../../platform/dictionary.js';
import { type FieldErrors, ValidationError } from '../../platform/http/errors.js';
import type { Customer } from '../customers/customers.model.js';
import type { MerchantConfiguration, PaymentProcessor } from '../merchants/merchants.model.js';
import { SEC_CODES, SecCode } from '../payments/ach/ach.model.js';
import { type AmountBreakdown, aboveMaximum } from '../payments/amounts.js';
import { achAmounts, cardAmounts, zeroCostErrors } from '../payments/pricing.js';
import { findActiveProcessor } from '../payments/processors.js';
import { TransactionType } from '../payments/transactions.model.js';
import { type PaymentMethod, PaymentMethodType } from '../vault/vault.model.js';
import { type Cadence, dueAt } from './schedule.js';
import { type CalendarSchedule, cadenceOf, DAY_FREQUENCIES, FrequencyUnit } from './subscriptions.model.js';

/** A subscription as the service receives it: wire units converted (cents, millipercent, ids). */
export interface SubscriptionDraft {
  merchantId: string;
  customerId: string;
  paymentMethodId: string;
  processorId: string;
  amountCents: number;
  currencyId: number;
  frequencyUnitId: number;
  frequency: number;
  numberOfPayments: number | null;
  transactionTypeId: number;
  requesterIp: string;
  /** null: now. */
  startAt: Date | null;
  secCode: number | null;
  isFasterProcessing: boolean | null;
  percentageOffRateMpct: number | null;
  surchargeRateMpct: number | null;
  useCardPrice: boolean | null;
  schedule: CalendarSchedule | null;
  installmentAmounts: Array<{ paymentOrder: number; amountCents: number }> | null;
  /** The API client creating it. */
  sourceId: string | null;
}

/** What a checked draft comes to: the schedule read, the first installment's breakdown and the totals. */
export interface CheckedDraft {
  processor: PaymentProcessor;
  startAt: Date;
  /** When the first installment falls due (a calendar form's first day at or after the start). */
  firstDueAt: Date | null;
  endAt: Date | null;
  frequencyUnitId: number;
  frequency: number;
  schedule: CalendarSchedule | null;
  cadence: Cadence;
  amount: AmountBreakdown;
  allPaymentsCents: number | null;
  installmentAmounts: Record<number, number> | null;
  secCode: number | null;
}

/** A start this far in the past still counts as now (the request's own latency, clocks a little apart). */
const START_GRACE_MS = 60_000;
// Rule 7 of the first document: a subscription pays by card sale transactions only, or by ACH.
const CARD_TYPES = new Set<number>([TransactionType.Sale]);

type Errors = FieldErrors;

function add(errors: Errors, field: string, message: string) {
  errors[field] ??= [];
  errors[field].push(message);
}

/**
 * Every rule of a new subscription that needs the merchant's configuration, the customer, its payment method or
 * the clock; each failure a 400 naming the field. The shape (types, ranges) was checked by the schema.
 */
export function checkDraft(
  draft: SubscriptionDraft,
  configuration: MerchantConfiguration,
  customer: Customer,
  method: PaymentMethod | undefined,
  now: Date,
): CheckedDraft {
  const errors: FieldErrors = dictionary();
  const settings = configuration.settings;
  const isCard = CARD_TYPES.has(draft.transactionTypeId);
  const isAch = draft.transactionTypeId === TransactionType.AchDebit;
  if (draft.transactionTypeId === TransactionType.Authorization) {
    add(
      errors,
      'transactionType',
      'A subscription pays by card sale (2) or ACH debit (11); an authorization (1) is not allowed.',
    );
  } else if (!isCard && !isAch) {
    add(errors, 'transactionType', "'transactionType' must be 2 (Sale) or 11 (AchDebit).");
  }
  if (draft.currencyId !== 1) add(errors, 'currencyId', "'currencyId' must be 1 (USD).");

  const methodError = paymentMethodError(method, customer, draft.transactionTypeId, now);
  if (methodError) add(errors, 'paymentMethodId', methodError);

  const processor = findActiveProcessor(configuration, isAch ? 'ach' : 'card', draft.processorId, 'paymentProcessorId');
  if (typeof processor === 'string') add(errors, 'paymentProcessorId', processor);

  if (!isIP(draft.requesterIp))
    add(errors, 'requesterIpAddress', "'requesterIpAddress' must be an IPv4 or IPv6 address.");
  const startAt = draft.startAt ?? now;
  if (startAt.getTime() < now.getTime() - START_GRACE_MS) {
    add(errors, 'paymentStartDateTime', "'paymentStartDateTime' is in the past (null starts now).");
  }

  let secCode: number | null = null;
  if (isAch) {
    secCode = draft.secCode ?? SecCode.PPD;
    if (!SEC_CODES[secCode]) add(errors, 'secCode', "'secCode' must be 1 (Web), 2 (PPD), 3 (CCD) or 4 (Telephone).");
    if (secCode === SecCode.CCD && !customer.companyName) {
      add(errors, 'secCode', 'A CCD entry debits a company: the customer needs a company name.');
    }
    if (draft.surchargeRateMpct !== null)
      add(errors, 'surchargeRate', "'surchargeRate' applies only to card subscriptions.");
    if (draft.useCardPrice !== null) add(errors, 'useCardPrice', "'useCardPrice' applies only to card subscriptions.");
  } else if (isCard) {
    if (draft.secCode !== null) add(errors, 'secCode', "'secCode' applies only to ACH subscriptions.");
    if (draft.isFasterProcessing)
      add(errors, 'isFasterProcessing', "'isFasterProcessing' applies only to ACH subscriptions.");
    for (const [field, messages] of Object.entries(zeroCostErrors(settings, draft))) {
      for (const message of messages) add(errors, field, message);
    }
  }

  const form = scheduleOf(draft, errors);
  const installmentAmounts = installmentAmountsOf(draft, errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const tender =
    method?.typeId === PaymentMethodType.Card && method.creditDebitTypeId === CreditDebitType.Debit
      ? 'debit'
      : 'credit';
  const priceOf = (baseCents: number) => {
    const parts = {
      baseCents,
      percentageOffRateMpct: draft.percentageOffRateMpct,
      surchargeRateMpct: draft.surchargeRateMpct,
      useCardPrice: draft.useCardPrice,
    };
    return isAch ? achAmounts(settings, parts, 'debit') : cardAmounts(settings, parts, tender);
  };
  const amount = priceOf(draft.amountCents);
  const prices = new Map<number, AmountBreakdown>([[draft.amountCents, amount]]);
  const priced = (cents: number) => prices.get(cents) ?? prices.set(cents, priceOf(cents)).get(cents)!;
  for (const cents of [draft.amountCents, ...Object.values(installmentAmounts ?? {})]) {
    const tooMuch = aboveMaximum(priced(cents).totalCents, settings.maxTransactionAmountCents);
    if (tooMuch) throw ValidationError.field('amount', tooMuch);
  }

  const cadence = cadenceOf(form);
  let endAt: Date | null = null;
  let allPaymentsCents: number | null = null;
  if (draft.numberOfPayments !== null) {
    endAt = dueAt(startAt, settings.timeZone, cadence, draft.numberOfPayments) ?? null;
    allPaymentsCents = 0;
    for (let order = 1; order <= draft.numberOfPayments; order++) {
      allPaymentsCents += priced(installmentAmounts?.[order] ?? draft.amountCents).totalCents;
    }
  }
  return {
    processor: processor as PaymentProcessor,
    startAt,
    firstDueAt: dueAt(startAt, settings.timeZone, cadence, 1) ?? null,
    endAt,
    frequencyUnitId: form.frequencyUnitId,
    frequency: form.frequency,
    schedule: form.schedule,
    cadence,
    amount,
    allPaymentsCents,
    installmentAmounts,
    secCode,
  };
}

/** Why a payment method cannot pay this customer's subscription of this type, or null when it can. */
export function paymentMethodError(
  method: PaymentMethod | undefined,
  customer: Customer,
  transactionTypeId: number,
  now: Date,
): string | null {
  if (!method || method.customerId !== customer.id) {
    return "'paymentMethodId' is not one of this customer's vaulted payment methods.";
  }
  if (transactionTypeId === TransactionType.AchDebit) {
    return method.typeId === PaymentMethodType.Ach
      ? null
      : 'An ACH subscription (transactionType 11) needs a bank account.';
  }
  if (method.typeId !== PaymentMethodType.Card) return 'A card subscription (transactionType 1 or 2) needs a card.';
  if (isExpired(method.expirationMonth!, method.expirationYear!, now)) return 'The card has expired.';
  return null;
}

/** The schedule's form: an interval (unit and count) or a calendar form, which is monthly. */
function scheduleOf(
  draft: SubscriptionDraft,
  errors: Errors,
): { schedule: CalendarSchedule | null; frequencyUnitId: number; frequency: number } {
  const c = draft.schedule;
  if (!c) {
    if (
      draft.frequencyUnitId === FrequencyUnit.Day &&
      !(DAY_FREQUENCIES as readonly number[]).includes(draft.frequency)
    ) {
      add(errors, 'paymentFrequency', 'For daily subscriptions only 7, 15 or 30 days between payments are accepted.');
    }
    return { schedule: null, frequencyUnitId: draft.frequencyUnitId, frequency: draft.frequency };
  }
  if (draft.frequencyUnitId !== FrequencyUnit.Month || draft.frequency !== 1) {
    add(errors, 'schedule', "A calendar 'schedule' is monthly: send paymentFrequencyUnit 3 and paymentFrequency 1.");
  }
  const hasDays = (c.daysOfMonth?.length ?? 0) > 0;
  const hasWeeks = (c.weeksOfMonth?.length ?? 0) > 0;
  if (hasDays === hasWeeks) {
    add(errors, 'schedule', "Send either 'schedule.daysOfMonth' or 'schedule.weeksOfMonth' (with 'dayOfWeek').");
  }
  if (hasWeeks && c.dayOfWeek === undefined) {
    add(errors, 'schedule.dayOfWeek', "'schedule.weeksOfMonth' needs 'schedule.dayOfWeek' (0 Sunday … 6 Saturday).");
  }
  if (hasDays && c.dayOfWeek !== undefined) {
    add(errors, 'schedule.dayOfWeek', "'schedule.dayOfWeek' goes with 'schedule.weeksOfMonth', not 'daysOfMonth'.");
  }
  if (c.weeksOfMonth?.includes(0)) add(errors, 'schedule.weeksOfMonth', 'Weeks are 1–5, or -1 for the last.');
  const schedule: CalendarSchedule = {
    ...(hasDays ? { daysOfMonth: sortedUnique(c.daysOfMonth!) } : {}),
    ...(hasWeeks ? { weeksOfMonth: sortedUnique(c.weeksOfMonth!), dayOfWeek: c.dayOfWeek! } : {}),
    ...(c.monthsOfYear?.length ? { monthsOfYear: sortedUnique(c.monthsOfYear) } : {}),
  };
  return { schedule, frequencyUnitId: FrequencyUnit.Month, frequency: 1 };
}

function installmentAmountsOf(draft: SubscriptionDraft, errors: Errors): Record<number, number> | null {
  if (!draft.installmentAmounts?.length) return null;
  const amounts: Record<number, number> = {};
  for (const { paymentOrder, amountCents } of draft.installmentAmounts) {
    if (amounts[paymentOrder] !== undefined) {
      add(errors, 'installmentAmounts', `Payment order ${paymentOrder} appears more than once.`);
    }
    if (draft.numberOfPayments !== null && paymentOrder > draft.numberOfPayments) {
      add(
        errors,
        'installmentAmounts',
        `Payment order ${paymentOrder} is beyond numberOfPayments (${draft.numberOfPayments}).`,
      );
    }
    amounts[paymentOrder] = amountCents;
  }
  return amounts;
}

function sortedUnique(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
