import type { FieldErrors } from '../../platform/http/errors.js';
import { fromCents, fromMillipercent } from '../../platform/money.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import type { AmountBreakdown } from '../payments/amounts.js';
import { STATES } from '../reference/states.js';
import type { PaymentSession } from '../sessions/sessions.model.js';
import { SessionMode, SessionStatus } from '../sessions/sessions.model.js';

/** Text for HTML: every interpolated value passes through here (or is a number we formatted). */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const usd = (cents: number) => `$${fromCents(cents).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
const pct = (mpct: number | null) => `${fromMillipercent(mpct ?? 0)}%`;

export interface Assets {
  css: string;
  js: string;
}

export function layout(title: string, body: string, assets: Assets, script = true): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><link rel="stylesheet" href="${assets.css}">
</head><body><main>${body}<footer>Payments by Tessera · secure checkout</footer></main>${
    script ? `<script src="${assets.js}" defer></script>` : ''
  }</body></html>`;
}

/** The form as the payer filled it, without card or account numbers (those are never echoed back). */
export type FormValues = Record<string, string>;

export interface CheckoutModel {
  session: PaymentSession;
  configuration: MerchantConfiguration;
  /** The amounts per tender (a flexible session: null until the payer enters an amount). */
  card: AmountBreakdown | null;
  ach: AmountBreakdown | null;
  csrf: string;
  action: string;
  errors: FieldErrors;
  values: FormValues;
  alert: string | null;
}

function field(
  m: CheckoutModel,
  name: string,
  label: string,
  attributes: string,
  options: { keep?: boolean } = { keep: true },
): string {
  const error = m.errors[name]?.[0];
  const value = options.keep === false ? '' : (m.values[name] ?? '');
  const describedBy = error ? ` aria-describedby="${name}-error" aria-invalid="true"` : '';
  return `<div><label for="${name}">${esc(label)}</label><input id="${name}" name="${name}" value="${esc(value)}" ${attributes}${describedBy}>${
    error ? `<p class="error" id="${name}-error">${esc(error)}</p>` : ''
  }</div>`;
}

function select(m: CheckoutModel, name: string, label: string, options: Array<[string, string]>, extra = ''): string {
  const chosen = m.values[name] ?? options[0]?.[0];
  const error = m.errors[name]?.[0];
  return `<div><label for="${name}">${esc(label)}</label><select id="${name}" name="${name}" ${extra}${
    error ? ` aria-describedby="${name}-error" aria-invalid="true"` : ''
  }>${options
    .map(([value, text]) => `<option value="${esc(value)}"${value === chosen ? ' selected' : ''}>${esc(text)}</option>`)
    .join('')}</select>${error ? `<p class="error" id="${name}-error">${esc(error)}</p>` : ''}</div>`;
}

function disclosure(configuration: MerchantConfiguration): string {
  const s = configuration.settings;
  switch (s.zeroCostProcessingOptionId) {
    case ZeroCostProcessingOption.Surcharge:
      return s.defaultSurchargeRateMpct
        ? `A ${pct(s.defaultSurchargeRateMpct)} surcharge is added to credit card payments. It does not apply to debit cards or bank payments.`
        : '';
    case ZeroCostProcessingOption.CashDiscount:
      return s.defaultCashDiscountRateMpct
        ? `Card prices include a ${pct(s.defaultCashDiscountRateMpct)} non-cash adjustment. Pay by bank account to avoid it.`
        : '';
    case ZeroCostProcessingOption.DualPricing:
      return s.defaultDualPricingRateMpct
        ? `Card price is ${pct(s.defaultDualPricingRateMpct)} above the cash price; bank payments pay the cash price.`
        : '';
    default:
      return '';
  }
}

function breakdown(a: AmountBreakdown, session: PaymentSession): string {
  const rows: Array<[string, number]> = [['Amount', a.baseCents]];
  if (a.tipCents) rows.push(['Tip', a.tipCents]);
  if (a.taxCents) {
    const rate = session.taxRateMpct === null ? '' : ` (${pct(session.taxRateMpct)})`;
    rows.push([a.taxInclusive ? `Tax included${rate}` : `Tax${rate}`, a.taxCents]);
  }
  if (a.surchargeCents) rows.push([`Surcharge (${pct(a.surchargeRateMpct)})`, a.surchargeCents]);
  if (a.cashDiscountCents) rows.push([`Non-cash adjustment (${pct(a.cashDiscountRateMpct)})`, a.cashDiscountCents]);
  return `<table>${rows.map(([label, cents]) => `<tr><td>${esc(label)}</td><td>${usd(cents)}</td></tr>`).join('')}</table>`;
}

function summary(m: CheckoutModel): string {
  const s = m.session;
  const header = `<p class="merchant">${esc(m.configuration.companyName)}</p><h1>${esc(s.pageName ?? 'Checkout')}</h1>`;
  const notes = s.paymentNotes ? `<p class="note">${esc(s.paymentNotes)}</p>` : '';
  const text = disclosure(m.configuration);
  const disclose = text ? `<p class="disclosure">${esc(text)}</p>` : '';
  if (s.mode === SessionMode.SaveMethod) {
    return `<section class="card">${header}<p>Save a payment method with ${esc(m.configuration.companyName)}. Nothing is charged now.</p>${notes}</section>`;
  }
  if (s.amountCents === null) {
    const extras: string[] = [];
    if (s.tipCents) extras.push(`a tip of ${usd(s.tipCents)}`);
    if (s.taxRateMpct !== null) extras.push(`tax of ${pct(s.taxRateMpct)}${s.taxMode === 2 ? ' (included)' : ''}`);
    return `<section class="card">${header}${notes}${field(m, 'amount', 'Amount to pay (USD)', 'inputmode="decimal" autocomplete="transaction-amount" required pattern="[0-9]+([.][0-9]{1,2})?"')}${
      extras.length ? `<p class="note">Plus ${esc(extras.join(' and '))}.</p>` : ''
    }${disclose}</section>`;
  }
  const main = m.card ?? m.ach!;
  const totals: string[] = [];
  if (m.card && m.ach && m.card.totalCents !== m.ach.totalCents) {
    totals.push(`Card: ${usd(m.card.totalCents)}`, `Bank account: ${usd(m.ach.totalCents)}`);
  }
  return `<section class="card">${header}<p class="total">${usd(main.totalCents)}</p>${breakdown(main, s)}${
    totals.length ? `<p class="note">${esc(totals.join(' · '))}</p>` : ''
  }${notes}${disclose}</section>`;
}

const STATE_OPTIONS: Array<[string, string]> = [
  ['', 'Choose…'],
  ...STATES.filter((s) => s.countryId === 1).map((s): [string, string] => [s.code, s.name]),
];

function addressFields(m: CheckoutModel, methods: string): string {
  return `<fieldset data-method="${methods}"><legend>Billing address</legend>${field(m, 'line1', 'Street address', 'autocomplete="address-line1" maxlength="100"')}${field(
    m,
    'city',
    'City',
    'autocomplete="address-level2" maxlength="60"',
  )}<div class="row">${select(m, 'state', 'State', STATE_OPTIONS, 'autocomplete="address-level1"')}${field(
    m,
    'postalCode',
    'ZIP code',
    'autocomplete="postal-code" inputmode="numeric" maxlength="10"',
  )}</div></fieldset>`;
}

function cardFields(m: CheckoutModel): string {
  return `<fieldset data-method="card"><legend>Card</legend>${field(m, 'cardName', 'Name on card', 'autocomplete="cc-name" maxlength="100"')}${field(
    m,
    'cardNumber',
    'Card number',
    'autocomplete="cc-number" inputmode="numeric" maxlength="23"',
    { keep: false },
  )}<div class="row">${field(m, 'expiry', 'Expiry (MM/YY)', 'autocomplete="cc-exp" inputmode="numeric" maxlength="7" placeholder="MM/YY"')}${field(
    m,
    'cvc',
    'Security code',
    'autocomplete="cc-csc" inputmode="numeric" maxlength="4"',
    { keep: false },
  )}</div></fieldset>`;
}

function achFields(m: CheckoutModel): string {
  const consent = m.errors.achConsent?.[0];
  return `<fieldset data-method="ach"><legend>Bank account</legend><div class="row">${field(m, 'achFirstName', 'First name', 'autocomplete="given-name" maxlength="50"')}${field(
    m,
    'achLastName',
    'Last name',
    'autocomplete="family-name" maxlength="50"',
  )}</div>${field(m, 'routingNumber', 'Routing number', 'inputmode="numeric" maxlength="9"')}${field(
    m,
    'accountNumber',
    'Account number',
    'inputmode="numeric" maxlength="17"',
    { keep: false },
  )}<div class="row">${select(m, 'accountType', 'Account type', [
    ['1', 'Checking'],
    ['2', 'Savings'],
  ])}${select(m, 'accountHolderType', 'Account holder', [
    ['2', 'Personal'],
    ['1', 'Business'],
  ])}</div>${field(m, 'phone', 'Phone', 'autocomplete="tel" inputmode="tel" maxlength="20"')}<p class="note" id="achConsent-text">By checking the box below, you authorize ${esc(
    m.configuration.companyName,
  )} to debit the bank account above for the amount shown${
    m.session.mode === SessionMode.SaveMethod ? ' on future payments you agree to' : ''
  }, and, if necessary, to correct an erroneous debit. You can revoke this authorization by contacting ${esc(
    m.configuration.companyName,
  )}.</p><label class="choice"><input type="checkbox" id="achConsent" name="achConsent" value="yes" aria-describedby="achConsent-text${
    consent ? ' achConsent-error' : ''
  }"${consent ? ' aria-invalid="true"' : ''}>I authorize this debit</label>${consent ? `<p class="error" id="achConsent-error">${esc(consent)}</p>` : ''}</fieldset>`;
}

/** Set when the form renders inside the elements iframe (it pays with fetch and reports to `parent`). */
export interface FrameOptions {
  parent: string;
  token: string;
  payUrl: string;
}

export function checkoutPage(m: CheckoutModel, assets: Assets, frame?: FrameOptions): string {
  const s = m.session;
  const methods: Array<['card' | 'ach', string]> = [];
  if (s.card.enabled) methods.push(['card', 'Card']);
  if (s.ach.enabled) methods.push(['ach', 'Bank account (ACH)']);
  const chosen = m.values.method ?? methods[0]![0];
  const choice =
    methods.length > 1
      ? `<fieldset><legend>Pay with</legend>${methods
          .map(
            ([value, label]) =>
              `<label class="choice"><input type="radio" name="method" value="${value}"${value === chosen ? ' checked' : ''}>${esc(label)}</label>`,
          )
          .join('')}</fieldset>`
      : `<input type="hidden" name="method" value="${methods[0]![0]}">`;
  const cardAddress = s.card.enabled && !s.skipAddressVerification;
  const addressFor = [cardAddress ? 'card' : '', s.ach.enabled ? 'ach' : ''].filter(Boolean).join(' ');
  const alert = m.alert ? `<div class="alert" role="alert">${esc(m.alert)}</div>` : '';
  const fieldErrors = Object.keys(m.errors).length;
  const errorSummary =
    !m.alert && fieldErrors
      ? `<div class="alert" role="alert">Please correct the ${fieldErrors === 1 ? 'field' : 'fields'} marked below.</div>`
      : '';
  const verb = s.mode === SessionMode.SaveMethod ? 'Save payment method' : 'Pay now';
  // The amount field of a flexible session sits in the summary, which is inside the form.
  const frameData = frame
    ? ` data-parent="${esc(frame.parent)}" data-frame-token="${esc(frame.token)}" data-pay="${esc(frame.payUrl)}"`
    : '';
  const frameAlert = frame ? '<div id="frame-alert" class="alert hidden" role="alert"></div>' : '';
  const body = `<form id="pay" method="post" action="${esc(m.action)}" novalidate${frameData}>${summary(m)}<section class="card">${frameAlert}${alert}${errorSummary}<input type="hidden" name="csrf" value="${esc(
    m.csrf,
  )}">${choice}${s.card.enabled ? cardFields(m) : ''}${s.ach.enabled ? achFields(m) : ''}${
    addressFor ? addressFields(m, addressFor) : ''
  }${field(m, 'email', 'Email for the receipt (optional)', 'type="email" autocomplete="email" maxlength="100"')}<button type="submit" data-busy="Processing…">${verb}</button></section></form>`;
  return layout(s.pageName ?? 'Checkout', body, assets);
}

/** Completed, cancelled, expired, failed: a clear page, never a form. */
export function endedPage(
  session: PaymentSession,
  configuration: MerchantConfiguration,
  assets: Assets,
  paid: { totalCents: number; transactionId: string | null; mask: string | null } | null,
): string {
  const merchant = `<p class="merchant">${esc(configuration.companyName)}</p>`;
  if (session.status === SessionStatus.Completed) {
    const saved = session.mode !== SessionMode.Payment;
    const lines = [
      session.mode === SessionMode.SaveMethod
        ? `<h1>Payment method saved</h1><p>${paid?.mask ? `Your method ending ${esc(paid.mask.slice(-4))} is saved.` : 'Your payment method is saved.'}</p>`
        : `<h1>Payment complete</h1><p class="total">${paid ? usd(paid.totalCents) : ''}</p>${
            saved ? '<p>Your payment method is saved for next time.</p>' : ''
          }`,
      paid?.transactionId ? `<p class="note">Reference: ${esc(paid.transactionId)}</p>` : '',
      session.afterCompletionMessage ? `<p>${esc(session.afterCompletionMessage)}</p>` : '',
      session.returnUrl
        ? `<p><a href="${esc(session.returnUrl)}">Return to ${esc(configuration.companyName)}</a></p>`
        : '',
    ];
    return layout(
      'Payment complete',
      `<section class="card alert ok" role="status">${merchant}${lines.join('')}</section>`,
      assets,
      false,
    );
  }
  const reason =
    session.endReason === 'expired'
      ? 'This payment page has expired.'
      : session.endReason === 'attempts'
        ? 'This payment page is closed after too many unsuccessful attempts.'
        : 'This payment was cancelled.';
  return layout(
    'Payment not available',
    `<section class="card" role="status">${merchant}<h1>Payment not available</h1><p>${reason}</p><p>Nothing was charged on this page. Please contact ${esc(
      configuration.companyName,
    )} for a new payment link.</p></section>`,
    assets,
    false,
  );
}

export function busyPage(assets: Assets, url: string): string {
  return layout(
    'Processing',
    `<section class="card" role="status"><h1>Your payment is being processed</h1><p>Please wait; this page refreshes by itself. Do not pay again.</p><p><a href="${esc(
      url,
    )}">Refresh now</a></p></section>`,
    assets,
    false,
  ).replace('<meta name="robots"', `<meta http-equiv="refresh" content="3;url=${esc(url)}"><meta name="robots"`);
}

export function messagePage(title: string, text: string, assets: Assets): string {
  return layout(
    title,
    `<section class="card" role="status"><h1>${esc(title)}</h1><p>${esc(text)}</p></section>`,
    assets,
    false,
  );
}
