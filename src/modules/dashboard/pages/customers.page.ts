import type { Customer } from '../../customers/customers.model.js';
import { stateById } from '../../reference/states.js';
import type { PaymentMethod } from '../../vault/vault.model.js';
import { actionForm, dateTime, esc, flash } from './html.js';

const nameOf = (c: Customer) =>
  [c.firstName, c.lastName].filter(Boolean).join(' ') || c.companyName || c.email || 'Unnamed customer';

/** The merchant's customers: a search and the list. */
export function customersMain(m: {
  customers: Customer[];
  total: number;
  search?: string;
  timeZone: string;
  canManage: boolean;
  notice?: string | undefined;
}): string {
  const rows = m.customers
    .map(
      (
        c,
      ) => `<tr><td><a href="/dashboard/customers/${esc(c.id)}">${esc(nameOf(c))}</a></td><td>${esc(c.companyName ?? '')}</td>
<td>${esc(c.email ?? '')}</td><td>${esc(dateTime(c.createdAt, m.timeZone))}</td></tr>`,
    )
    .join('');
  return `<h1>Customers</h1>${flash(m)}${m.canManage ? '<p><a class="button" href="/dashboard/customers/new">New customer</a></p>' : ''}<form method="get" action="/dashboard/customers" class="card" role="search" aria-label="Find customers">
<label for="search">Name</label><input id="search" name="search" value="${esc(m.search ?? '')}"><button type="submit">Find</button></form>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Customers (${m.total})</caption><thead><tr><th scope="col">Name</th><th scope="col">Company</th><th scope="col">Email</th><th scope="col">Since</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4">No customers match.</td></tr>'}</tbody></table></div></section>`;
}

/** A customer and the payment methods in the vault for them, masked. */
export function customerMain(m: {
  customer: Customer;
  methods: PaymentMethod[];
  timeZone: string;
  canCharge: boolean;
  canSubscribe: boolean;
  canManage: boolean;
  csrf: string;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const c = m.customer;
  const methods = m.methods
    .map((p) => {
      const kind = p.routingNumber ? 'Bank account' : 'Card';
      const expiry =
        p.expirationMonth && p.expirationYear
          ? `${String(p.expirationMonth).padStart(2, '0')}/${p.expirationYear}`
          : '';
      const isDefault = p.id === c.defaultPaymentMethodId || p.id === c.defaultAchPaymentMethodId;
      const remove = m.canManage
        ? `<form method="post" action="/dashboard/customers/${esc(c.id)}/methods/${esc(p.id)}/delete" class="inline"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="confirm" value="yes"><button type="submit" aria-label="Remove the ${kind.toLowerCase()} ${esc(p.mask)}">Remove</button></form>`
        : '';
      return `<tr><td>${kind}</td><td>${esc(p.mask)}</td><td>${esc(expiry)}</td><td>${isDefault ? 'Default' : ''}</td><td>${remove}</td></tr>`;
    })
    .join('');
  return `<p><a href="/dashboard/customers">All customers</a>${m.canManage ? ` · <a href="/dashboard/customers/${esc(c.id)}/edit">Edit</a>` : ''}</p><h1>${esc(nameOf(c))}</h1>${flash(m)}
<section class="card" aria-labelledby="contact-h"><h2 id="contact-h">Contact</h2><dl class="figures">
<div><dt>Email</dt><dd>${esc(c.email ?? '—')}</dd></div><div><dt>Mobile</dt><dd>${esc(c.mobilePhoneNumber ?? '—')}</dd></div>
<div><dt>Company</dt><dd>${esc(c.companyName ?? '—')}</dd></div><div><dt>Since</dt><dd>${esc(dateTime(c.createdAt, m.timeZone))}</dd></div></dl></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Payment methods</caption><thead><tr><th scope="col">Kind</th><th scope="col">Number</th><th scope="col">Expires</th><th scope="col">Default</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${methods || '<tr><td colspan="5">None in the vault.</td></tr>'}</tbody></table></div></section>
<p><a href="/dashboard/transactions?search=${encodeURIComponent(c.email ?? nameOf(c))}">This customer's transactions</a>${
    m.canCharge ? ` · <a href="/dashboard/terminal/saved?customerId=${esc(c.id)}">Charge this customer</a>` : ''
  }${m.canSubscribe ? ` · <a href="/dashboard/subscriptions/new?customerId=${esc(c.id)}">New subscription</a>` : ''}</p>${
    m.canManage
      ? actionForm({
          action: `/dashboard/customers/${c.id}/delete`,
          id: 'delete',
          title: 'Delete',
          csrf: m.csrf,
          confirm: 'I confirm deleting this customer and their saved methods',
          button: 'Delete customer',
        })
      : ''
  }`;
}

/** The customer form's fields, from a stored customer (editing) or as typed (after a refusal). */
export function customerFormValues(c: Customer): Record<string, string> {
  const a = c.billingAddress;
  return {
    firstName: c.firstName ?? '',
    lastName: c.lastName ?? '',
    companyName: c.companyName ?? '',
    email: c.email ?? '',
    phone: c.mobilePhoneNumber ?? '',
    line1: a?.line1 ?? '',
    city: a?.city ?? '',
    stateCode: a?.stateId ? (stateById(a.stateId)?.code ?? '') : '',
    postalCode: a?.postalCode ?? '',
  };
}

/** A new customer, or one to change: name, company, contact and billing address (the API's rules). */
export function customerFormMain(m: {
  action: string;
  title: string;
  back: string;
  csrf: string;
  values: Record<string, string>;
  error?: string | undefined;
}): string {
  const input = (name: string, label: string, attrs = '') =>
    `<div><label for="${name}">${esc(label)}</label><input id="${name}" name="${name}" value="${esc(m.values[name] ?? '')}"${attrs}></div>`;
  return `<p><a href="${esc(m.back)}">Back</a></p><h1>${esc(m.title)}</h1>${flash(m)}
<form method="post" action="${esc(m.action)}" class="card"><input type="hidden" name="csrf" value="${esc(m.csrf)}">
<div class="grid">${input('firstName', 'First name', ' maxlength="100" autocomplete="off"')}${input('lastName', 'Last name', ' maxlength="100" autocomplete="off"')}
${input('companyName', 'Company', ' maxlength="200" autocomplete="off"')}${input('email', 'Email', ' type="email" maxlength="254" autocomplete="off"')}
${input('phone', 'Mobile number', ' type="tel" maxlength="20" autocomplete="off"')}</div>
<fieldset><legend>Billing address</legend><div class="grid">${input('line1', 'Street address', ' maxlength="100" autocomplete="off"')}${input('city', 'City', ' maxlength="60" autocomplete="off"')}
${input('stateCode', 'State (two letters)', ' maxlength="2" autocomplete="off"')}${input('postalCode', 'ZIP code', ' maxlength="16" autocomplete="off"')}</div></fieldset>
<button type="submit">Save</button></form>`;
}
