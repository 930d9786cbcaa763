import type { Customer } from '../../customers/customers.model.js';
import { type PaymentMethod, PaymentMethodType } from '../../vault/vault.model.js';
import { esc, flash } from './html.js';

const nameOf = (c: Customer) =>
  [c.firstName, c.lastName].filter(Boolean).join(' ') || c.companyName || c.email || 'Unnamed customer';
const methodLabel = (p: PaymentMethod) => `${p.typeId === PaymentMethodType.Ach ? 'Bank account' : 'Card'} ${p.mask}`;

/** The payment method radio list of a customer's vaulted methods. */
export function methodChoices(methods: PaymentMethod[], chosen: string | undefined): string {
  return (
    methods
      .map(
        (p, n) =>
          `<div class="choice"><input type="radio" id="method-${n}" name="paymentMethodId" value="${esc(p.id)}"${
            chosen === p.id || (!chosen && n === 0) ? ' checked' : ''
          }><label for="method-${n}">${esc(methodLabel(p))}</label></div>`,
      )
      .join('') || '<p>This customer has no saved payment method: add one through the API or a payment page.</p>'
  );
}

/**
 * A new subscription for a customer: which of their saved methods, how much, how often, how many times and from
 * when (the merchant's calendar); the same rules as the API's create.
 */
export function newSubscriptionMain(m: {
  customer: Customer;
  methods: PaymentMethod[];
  csrf: string;
  formId: string;
  values: Record<string, string>;
  error?: string | undefined;
}): string {
  const v = (name: string, fallback = '') => esc(m.values[name] ?? fallback);
  const unit = m.values.unit ?? '3';
  return `<p><a href="/dashboard/customers/${esc(m.customer.id)}">${esc(nameOf(m.customer))}</a></p><h1>New subscription</h1>${flash(m)}
<form method="post" action="/dashboard/subscriptions/new" class="card"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="formId" value="${esc(m.formId)}">
<input type="hidden" name="customerId" value="${esc(m.customer.id)}">
<fieldset><legend>Payment method</legend>${methodChoices(m.methods, m.values.paymentMethodId)}</fieldset>
<div class="grid">
<div><label for="amount">Each payment</label><input id="amount" name="amount" inputmode="decimal" required value="${v('amount')}"></div>
<div><label for="unit">Every</label><select id="unit" name="unit"><option value="3"${unit === '3' ? ' selected' : ''}>month(s)</option><option value="2"${unit === '2' ? ' selected' : ''}>week(s)</option><option value="1"${unit === '1' ? ' selected' : ''}>days (7, 15 or 30)</option></select></div>
<div><label for="frequency">How many of them</label><input id="frequency" name="frequency" inputmode="numeric" required value="${v('frequency', '1')}"></div>
<div><label for="payments">Number of payments</label><input id="payments" name="payments" inputmode="numeric" value="${v('payments')}" aria-describedby="payments-help"><p id="payments-help" class="help">Empty: until it is terminated.</p></div>
<div><label for="start">First payment</label><input id="start" name="start" type="date" value="${v('start')}" aria-describedby="start-help"><p id="start-help" class="help">Empty: now.</p></div>
</div>
<div class="confirm"><input type="checkbox" id="confirm-new" name="confirm" value="yes" required><label for="confirm-new">The customer agreed to these recurring payments</label></div>
<button type="submit">Create subscription</button></form>`;
}
