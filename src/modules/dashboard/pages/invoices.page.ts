import type { Customer } from '../../customers/customers.model.js';
import type { LineItem } from '../../invoices/catalog.model.js';
import { INVOICE_STATUS_NAMES, type Invoice, InvoiceStatus } from '../../invoices/invoices.model.js';
import { calculationOf } from '../../invoices/invoices.service.js';
import { actionForm, dateTime, esc, flash, money } from './html.js';

export const LINE_ROWS = 5;

const statusOptions = (selected: number | undefined) =>
  Object.entries(INVOICE_STATUS_NAMES)
    .map(([id, name]) => `<option value="${id}"${Number(id) === selected ? ' selected' : ''}>${esc(name)}</option>`)
    .join('');

/** The merchant's invoices, filtered by status, and the way to a new one. */
export function invoicesMain(m: {
  items: Invoice[];
  total: number;
  statusId?: number | undefined;
  timeZone: string;
  canManage: boolean;
}): string {
  const rows = m.items
    .map(
      (
        v,
      ) => `<tr><td><a href="/dashboard/invoices/${esc(v.id)}">${esc(v.number)}</a></td><td>${esc(v.customerName ?? '')}</td>
<td>${esc(INVOICE_STATUS_NAMES[v.statusId] ?? v.statusId)}</td><td>${esc(dateTime(v.dueDate, m.timeZone))}</td><td class="num">${money(v.totalCents)}</td></tr>`,
    )
    .join('');
  return `<h1>Invoices</h1><p>${m.canManage ? '<a class="button" href="/dashboard/invoices/new">New invoice</a> ' : ''}<a href="/dashboard/invoices/catalog">The catalog</a></p>
<form method="get" action="/dashboard/invoices" class="card" role="search" aria-label="Filter invoices">
<label for="statusId">Status</label><select id="statusId" name="statusId"><option value="">Any</option>${statusOptions(m.statusId)}</select>
<button type="submit">Filter</button></form>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Invoices (${m.total})</caption><thead><tr><th scope="col">Number</th><th scope="col">Customer</th><th scope="col">Status</th><th scope="col">Due</th><th scope="col" class="num">Total</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">No invoices match.</td></tr>'}</tbody></table></div></section>`;
}

/** A new invoice: a customer of the merchant or a new one by name and e-mail, up to five lines, a due date, notes. */
export function newInvoiceMain(m: {
  customers: Customer[];
  catalog: LineItem[];
  csrf: string;
  values: Record<string, string>;
  error?: string | undefined;
}): string {
  const v = (name: string) => esc(m.values[name] ?? '');
  const customers = m.customers
    .map((c) => {
      const name = [c.firstName, c.lastName].filter(Boolean).join(' ') || c.companyName || c.email || c.id;
      return `<option value="${esc(c.id)}"${m.values.customerId === c.id ? ' selected' : ''}>${esc(name)}</option>`;
    })
    .join('');
  const items = (n: number) =>
    m.catalog.length
      ? `<td><label class="sr-only" for="item${n}">Line ${n + 1} catalog item</label><select id="item${n}" name="item${n}"><option value="">—</option>${m.catalog
          .map(
            (i) =>
              `<option value="${esc(i.id)}"${m.values[`item${n}`] === i.id ? ' selected' : ''}>${esc(i.productName)} (${money(i.unitPriceCents)})</option>`,
          )
          .join('')}</select></td>`
      : '';
  const lines = Array.from(
    { length: LINE_ROWS },
    (
      _,
      n,
    ) => `<tr>${items(n)}<td><label class="sr-only" for="product${n}">Line ${n + 1} product</label><input id="product${n}" name="product${n}" value="${v(`product${n}`)}"></td>
<td><label class="sr-only" for="quantity${n}">Line ${n + 1} quantity</label><input id="quantity${n}" name="quantity${n}" inputmode="decimal" size="5" value="${v(`quantity${n}`) || (n === 0 ? '1' : '')}"></td>
<td><label class="sr-only" for="price${n}">Line ${n + 1} unit price</label><input id="price${n}" name="price${n}" inputmode="decimal" size="8" value="${v(`price${n}`)}"></td></tr>`,
  ).join('');
  return `<p><a href="/dashboard/invoices">All invoices</a></p><h1>New invoice</h1>${flash(m)}
<form method="post" action="/dashboard/invoices" class="card"><input type="hidden" name="csrf" value="${esc(m.csrf)}">
<fieldset><legend>Customer</legend>
<label for="customerId">A customer</label><select id="customerId" name="customerId"><option value="">A new customer (below)</option>${customers}</select>
<div class="grid"><div><label for="firstName">First name</label><input id="firstName" name="firstName" autocomplete="off" value="${v('firstName')}"></div>
<div><label for="lastName">Last name</label><input id="lastName" name="lastName" autocomplete="off" value="${v('lastName')}"></div>
<div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="off" value="${v('email')}"></div></div></fieldset>
<fieldset><legend>Lines</legend><p class="help">A catalog item brings its name, price and tax (<a href="/dashboard/invoices/catalog">the catalog</a>).</p><div class="scroll" tabindex="0"><table><thead><tr>${m.catalog.length ? '<th scope="col">From the catalog</th>' : ''}<th scope="col">Product or service</th><th scope="col">Quantity</th><th scope="col">Unit price</th></tr></thead><tbody>${lines}</tbody></table></div></fieldset>
<div class="grid"><div><label for="dueDate">Due date</label><input id="dueDate" name="dueDate" type="date" value="${v('dueDate')}" aria-describedby="due-help"><p id="due-help" class="help">Empty: as the invoice settings say.</p></div>
<div><label for="notes">Notes</label><textarea id="notes" name="notes" rows="2">${v('notes')}</textarea></div></div>
<button type="submit">Save as draft</button></form>`;
}

/** An invoice: its lines and totals, its hosted page and PDF, and the moves its status allows. */
export function invoiceMain(m: {
  invoice: Invoice;
  payUrl: string | null;
  timeZone: string;
  csrf: string;
  canManage: boolean;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const v = m.invoice;
  const calc = calculationOf(v);
  const fact = (label: string, value: string) => `<div><dt>${esc(label)}</dt><dd>${value}</dd></div>`;
  const facts = [
    fact('Status', esc(INVOICE_STATUS_NAMES[v.statusId] ?? v.statusId)),
    fact('Customer', esc(v.customerName ?? '—')),
    fact('Issued', esc(dateTime(v.issueDate, m.timeZone))),
    fact('Due', esc(dateTime(v.dueDate, m.timeZone))),
    fact('Total', money(v.totalCents)),
    fact('Paid', money(v.paidCents)),
    ...(v.paymentDate ? [fact('Paid on', esc(dateTime(v.paymentDate, m.timeZone)))] : []),
    ...(v.lastPaymentError ? [fact('Last payment error', esc(v.lastPaymentError))] : []),
  ].join('');
  const lines = v.lines
    .map(
      (l, n) =>
        `<tr><td>${esc(l.productName)}</td><td class="num">${l.quantityMilli / 1000}</td><td class="num">${money(l.unitPriceCents)}</td><td class="num">${money(calc.lines[n]?.totalCents ?? 0)}</td></tr>`,
    )
    .join('');
  const totals = [
    ['Subtotal', calc.subtotalCents],
    ['Discount', -calc.discountCents],
    ['Tax', calc.taxCents],
    ['Shipping', calc.shippingFeeCents],
    ['Fees', calc.feesCents],
  ]
    .filter(([label, c]) => label === 'Subtotal' || c !== 0)
    .map(([label, c]) => `<tr><th scope="row" colspan="3">${label}</th><td class="num">${money(c as number)}</td></tr>`)
    .join('');
  const base = `/dashboard/invoices/${v.id}`;
  const actions: string[] = [];
  const action = (name: string, title: string, confirm: string, body?: string) =>
    actionForm({
      action: `${base}/${name}`,
      id: name,
      title,
      csrf: m.csrf,
      confirm,
      button: title,
      ...(body ? { body } : {}),
    });
  const unpaid = v.statusId === InvoiceStatus.Published;
  if (m.canManage && v.statusId === InvoiceStatus.Draft) {
    actions.push(
      action(
        'publish',
        'Publish',
        'I confirm publishing and sending this invoice',
        '<p>Opens its payment page and e-mails the customer.</p>',
      ),
    );
  }
  if (m.canManage && unpaid) {
    actions.push(action('send', 'Send again', 'I confirm sending the invoice by e-mail again'));
    actions.push(
      action(
        'mark-paid',
        'Mark as paid',
        'I confirm this invoice was paid outside Tessera',
        '<label for="note">Note</label><input id="note" name="note" maxlength="200" aria-describedby="note-help"><p id="note-help" class="help">How it was paid: cash, a check.</p>',
      ),
    );
    actions.push(action('cancel', 'Cancel', 'I confirm canceling this invoice'));
  }
  const links = [
    `<a href="${esc(base)}/invoice.pdf">Preview the PDF</a>`,
    ...(m.payUrl && unpaid ? [`<a href="${esc(m.payUrl)}">Its payment page</a>`] : []),
    ...v.transactionIds.map((id) => `<a href="/dashboard/transactions/${esc(id)}">Payment</a>`),
  ];
  return `<p><a href="/dashboard/invoices">All invoices</a></p><h1>Invoice ${esc(v.number)}</h1>${flash(m)}
<section class="card" aria-labelledby="facts-h"><h2 id="facts-h">Details</h2><dl class="figures">${facts}</dl><p>${links.join(' · ')}</p></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Lines</caption><thead><tr><th scope="col">Product or service</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Total</th></tr></thead>
<tbody>${lines}</tbody><tfoot>${totals}<tr><th scope="row" colspan="3">Total</th><td class="num">${money(v.totalCents)}</td></tr></tfoot></table></div></section>${actions.join('')}`;
}
