import type { Customer } from '../../customers/customers.model.js';
import type { PaymentMethod } from '../../vault/vault.model.js';
import { dateTime, esc } from './html.js';

const nameOf = (c: Customer) =>
  [c.firstName, c.lastName].filter(Boolean).join(' ') || c.companyName || c.email || 'Unnamed customer';

/** The merchant's customers: a search and the list. */
export function customersMain(m: { customers: Customer[]; total: number; search?: string; timeZone: string }): string {
  const rows = m.customers
    .map(
      (
        c,
      ) => `<tr><td><a href="/dashboard/customers/${esc(c.id)}">${esc(nameOf(c))}</a></td><td>${esc(c.companyName ?? '')}</td>
<td>${esc(c.email ?? '')}</td><td>${esc(dateTime(c.createdAt, m.timeZone))}</td></tr>`,
    )
    .join('');
  return `<h1>Customers</h1><form method="get" action="/dashboard/customers" class="card" role="search" aria-label="Find customers">
<label for="search">Name</label><input id="search" name="search" value="${esc(m.search ?? '')}"><button type="submit">Find</button></form>
<section class="card"><div class="scroll"><table><caption>Customers (${m.total})</caption><thead><tr><th scope="col">Name</th><th scope="col">Company</th><th scope="col">Email</th><th scope="col">Since</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4">No customers match.</td></tr>'}</tbody></table></div></section>`;
}

/** A customer and the payment methods in the vault for them, masked. */
export function customerMain(m: {
  customer: Customer;
  methods: PaymentMethod[];
  timeZone: string;
  canCharge: boolean;
  canSubscribe: boolean;
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
      return `<tr><td>${kind}</td><td>${esc(p.mask)}</td><td>${esc(expiry)}</td><td>${isDefault ? 'Default' : ''}</td></tr>`;
    })
    .join('');
  return `<p><a href="/dashboard/customers">All customers</a></p><h1>${esc(nameOf(c))}</h1>
<section class="card" aria-labelledby="contact-h"><h2 id="contact-h">Contact</h2><dl class="figures">
<div><dt>Email</dt><dd>${esc(c.email ?? '—')}</dd></div><div><dt>Mobile</dt><dd>${esc(c.mobilePhoneNumber ?? '—')}</dd></div>
<div><dt>Company</dt><dd>${esc(c.companyName ?? '—')}</dd></div><div><dt>Since</dt><dd>${esc(dateTime(c.createdAt, m.timeZone))}</dd></div></dl></section>
<section class="card"><div class="scroll"><table><caption>Payment methods</caption><thead><tr><th scope="col">Kind</th><th scope="col">Number</th><th scope="col">Expires</th><th scope="col">Default</th></tr></thead>
<tbody>${methods || '<tr><td colspan="4">None in the vault.</td></tr>'}</tbody></table></div></section>
<p><a href="/dashboard/transactions?search=${encodeURIComponent(c.email ?? nameOf(c))}">This customer's transactions</a>${
    m.canCharge ? ` · <a href="/dashboard/terminal/saved?customerId=${esc(c.id)}">Charge this customer</a>` : ''
  }${m.canSubscribe ? ` · <a href="/dashboard/subscriptions/new?customerId=${esc(c.id)}">New subscription</a>` : ''}</p>`;
}
