import type { Customer } from '../../customers/customers.model.js';
import { type PaymentMethod, PaymentMethodType } from '../../vault/vault.model.js';
import { esc, flash } from './html.js';

const nameOf = (c: Customer) =>
  [c.firstName, c.lastName].filter(Boolean).join(' ') || c.companyName || c.email || 'Unnamed customer';

/**
 * The virtual terminal's other charges: a customer's saved card or bank account (a card-not-present sale or
 * authorization, or an ACH debit taken by telephone), and an ACH debit from a bank account keyed in.
 */
export function savedChargeMain(m: {
  csrf: string;
  formId: string;
  customer?: { customer: Customer; methods: PaymentMethod[] } | undefined;
  search?: string | undefined;
  found?: Customer[] | undefined;
  values: Record<string, string>;
  error?: string | undefined;
}): string {
  const v = (name: string) => esc(m.values[name] ?? '');
  const hidden = `<input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="formId" value="${esc(m.formId)}">`;
  const find = `<form method="get" action="/dashboard/terminal/saved" class="card" role="search" aria-label="Find a customer">
<label for="search">Customer name</label><input id="search" name="search" value="${esc(m.search ?? '')}"><button type="submit">Find</button>
${
  m.found
    ? `<ul>${m.found.map((c) => `<li><a href="/dashboard/terminal/saved?customerId=${esc(c.id)}">${esc(nameOf(c))}</a></li>`).join('') || '<li>No customer matches.</li>'}</ul>`
    : ''
}</form>`;
  const methods = m.customer?.methods ?? [];
  const saved = m.customer
    ? `<form method="post" action="/dashboard/terminal/saved" class="card" aria-labelledby="saved-h"><h2 id="saved-h">Charge ${esc(nameOf(m.customer.customer))}</h2>${hidden}
<input type="hidden" name="customerId" value="${esc(m.customer.customer.id)}">
<fieldset><legend>Payment method</legend>${
        methods
          .map(
            (p, n) =>
              `<div class="choice"><input type="radio" id="method-${n}" name="paymentMethodId" value="${esc(p.id)}"${
                m.values.paymentMethodId === p.id || (!m.values.paymentMethodId && n === 0) ? ' checked' : ''
              }><label for="method-${n}">${p.typeId === PaymentMethodType.Ach ? 'Bank account' : 'Card'} ${esc(p.mask)}</label></div>`,
          )
          .join('') || '<p>This customer has no saved payment method.</p>'
      }</fieldset>
<fieldset><legend>A card is charged as</legend>
<div class="choice"><input type="radio" id="saved-sale" name="kind" value="sale"${m.values.kind !== 'authorize' ? ' checked' : ''}><label for="saved-sale">Sale (charge now)</label></div>
<div class="choice"><input type="radio" id="saved-authorize" name="kind" value="authorize"${m.values.kind === 'authorize' ? ' checked' : ''}><label for="saved-authorize">Authorization (capture later)</label></div>
<p class="help">A bank account is debited by ACH (authorized by telephone).</p></fieldset>
<div class="grid"><div><label for="saved-amount">Amount</label><input id="saved-amount" name="amount" inputmode="decimal" required value="${v('amount')}"></div>
<div><label for="saved-reference">Reference</label><input id="saved-reference" name="referenceId" maxlength="100" value="${v('referenceId')}"></div></div>
${methods.length ? '<button type="submit">Charge the saved method</button>' : ''}</form>`
    : '';
  const keyed = `<form method="post" action="/dashboard/terminal/ach" class="card" aria-labelledby="ach-h"><h2 id="ach-h">ACH debit from a bank account</h2>${hidden}
<p class="help">Read the customer the authorization and take their consent by telephone before you submit.</p>
<div class="grid">
<div><label for="ach-amount">Amount</label><input id="ach-amount" name="amount" inputmode="decimal" required value="${v('achAmount')}"></div>
<div><label for="ach-reference">Reference</label><input id="ach-reference" name="referenceId" maxlength="100" value="${v('achReferenceId')}"></div>
<div><label for="ach-first">Account holder first name</label><input id="ach-first" name="firstName" required maxlength="100" autocomplete="off" value="${v('firstName')}"></div>
<div><label for="ach-last">Account holder last name</label><input id="ach-last" name="lastName" required maxlength="100" autocomplete="off" value="${v('lastName')}"></div>
<div><label for="ach-phone">Account holder phone</label><input id="ach-phone" name="phone" type="tel" required maxlength="20" autocomplete="off" value="${v('phone')}"></div>
<div><label for="ach-routing">Routing number</label><input id="ach-routing" name="routingNumber" inputmode="numeric" maxlength="9" required autocomplete="off"></div>
<div><label for="ach-account">Account number</label><input id="ach-account" name="accountNumber" inputmode="numeric" maxlength="17" required autocomplete="off"></div>
<div><label for="ach-type">Account type</label><select id="ach-type" name="accountType"><option value="1">Checking</option><option value="2"${m.values.accountType === '2' ? ' selected' : ''}>Savings</option></select></div>
<div><label for="ach-line1">Street address</label><input id="ach-line1" name="line1" maxlength="100" required autocomplete="off" value="${v('line1')}"></div>
<div><label for="ach-zip">ZIP code</label><input id="ach-zip" name="postalCode" maxlength="10" required autocomplete="off" value="${v('postalCode')}"></div>
</div>
<div class="confirm"><input type="checkbox" id="ach-consent" name="consent" value="yes" required><label for="ach-consent">The account holder authorized this debit</label></div>
<button type="submit">Debit the account</button></form>`;
  return `<p><a href="/dashboard/terminal">Key in a card</a></p><h1>Saved methods and bank accounts</h1>${flash(m)}${find}${saved}${keyed}`;
}
