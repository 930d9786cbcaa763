import { centsToDecimal } from '../../../platform/money.js';
import type { InvoiceSettings } from '../../invoices/invoice-settings.js';
import type { MerchantSettings } from '../../merchants/merchants.model.js';
import { esc, flash } from './html.js';

const pct = (mpct: number | null | undefined) => (mpct == null ? '' : String(mpct / 1000));
const box = (id: string, label: string, checked: boolean) =>
  `<div class="confirm"><input type="checkbox" id="${id}" name="${id}" value="yes"${checked ? ' checked' : ''}><label for="${id}">${esc(label)}</label></div>`;
const field = (id: string, label: string, value: string, help?: string, attrs = '') =>
  `<div><label for="${id}">${esc(label)}</label><input id="${id}" name="${id}" value="${esc(value)}"${attrs}${
    help ? ` aria-describedby="${id}-help"` : ''
  }>${help ? `<p id="${id}-help" class="help">${esc(help)}</p>` : ''}</div>`;

/**
 * The merchant's settings: the payment configuration (time zone, tips, the largest payment, address checks, when a
 * failed subscription payment is tried again) and the invoice defaults. Each form saves through the same rules as
 * the API's.
 */
export function settingsMain(m: {
  payments: MerchantSettings;
  invoices: InvoiceSettings;
  csrf: string;
  canManage: boolean;
  /** What was typed, kept after a refusal. */
  values?: Record<string, string>;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const p = m.payments;
  const i = m.invoices;
  const v = (name: string, stored: string) => m.values?.[name] ?? stored;
  const hidden = `<input type="hidden" name="csrf" value="${esc(m.csrf)}">`;
  const save = m.canManage
    ? '<button type="submit">Save</button>'
    : '<p class="help">Owners and admins change these.</p>';
  return `<h1>Settings</h1>${flash(m)}
<form method="post" action="/dashboard/settings/payments" class="card" aria-labelledby="payments-h"><h2 id="payments-h">Payments</h2>${hidden}
<div class="grid">
${field('timeZone', 'Time zone', v('timeZone', p.timeZone), 'An IANA name, e.g. America/Chicago: days and reports follow it.', ' maxlength="64"')}
${field('maxTransactionAmount', 'Largest payment', v('maxTransactionAmount', p.maxTransactionAmountCents == null ? '' : centsToDecimal(p.maxTransactionAmountCents)), 'Empty: no limit.', ' inputmode="decimal"')}
${field('tipOptions', 'Tip options (%)', v('tipOptions', (p.defaultTipsOptionsMpct ?? []).map((x) => pct(x)).join(', ')), 'Comma separated, e.g. 15, 18, 20.')}
${field('retryDays', 'Retry a failed subscription payment after (days)', v('retryDays', p.subscriptionRetryDays.join(', ')), 'Comma separated and increasing, e.g. 1, 3, 5. Empty: no retries.')}
</div>
${box('isTipsEnabled', 'Take tips', m.values ? m.values.isTipsEnabled === 'yes' : p.isTipsEnabled)}
${box('avsEnabled', 'Check the billing address with the card issuer (AVS)', m.values ? m.values.avsEnabled === 'yes' : p.avs.isEnabled)}
${save}</form>
<form method="post" action="/dashboard/settings/invoices" class="card" aria-labelledby="invoices-h"><h2 id="invoices-h">Invoices</h2>${hidden}
<div class="grid">
${field('dueDateAfterDays', 'Due after (days)', v('dueDateAfterDays', i.dueDateAfterDays == null ? '' : String(i.dueDateAfterDays)), undefined, ' inputmode="numeric"')}
${field('taxPercentage', 'Tax (%)', v('taxPercentage', pct(i.taxMpct)), undefined, ' inputmode="decimal"')}
${field('discountPercentage', 'Discount (%)', v('discountPercentage', pct(i.discountMpct)), undefined, ' inputmode="decimal"')}
${field('shippingFeeAmount', 'Shipping fee', v('shippingFeeAmount', i.shippingFeeCents == null ? '' : centsToDecimal(i.shippingFeeCents)), undefined, ' inputmode="decimal"')}
${field('feesPercentage', 'Fees (%)', v('feesPercentage', pct(i.feesMpct)), undefined, ' inputmode="decimal"')}
<div><label for="notes">Notes on every invoice</label><textarea id="notes" name="notes" rows="2" maxlength="2000">${esc(v('notes', i.notes ?? ''))}</textarea></div>
</div>
${box('isDiscountEnabled', 'Allow a discount', m.values ? m.values.isDiscountEnabled === 'yes' : i.isDiscountEnabled)}
${box('isShippingFeeEnabled', 'Add a shipping fee', m.values ? m.values.isShippingFeeEnabled === 'yes' : i.isShippingFeeEnabled)}
${box('isFeesEnabled', 'Add fees', m.values ? m.values.isFeesEnabled === 'yes' : i.isFeesEnabled)}
${save}</form>`;
}
