import {
  FINAL_STATUSES,
  FREQUENCY_UNIT_NAMES,
  INSTALLMENT_STATUS_NAMES,
  SUBSCRIPTION_STATUS_NAMES,
  SubscriptionStatus,
} from '../../subscriptions/subscriptions.model.js';
import type { SubscriptionListRow } from '../../subscriptions/subscriptions.repo.js';
import type { InstallmentWithAttempts, SubscriptionDetails } from '../../subscriptions/subscriptions.service.js';
import type { PaymentMethod } from '../../vault/vault.model.js';
import { actionForm, dateTime, esc, flash, money } from './html.js';
import { methodChoices } from './subscription-new.page.js';

const every = (s: { frequency: number; frequencyUnitId: number }) =>
  `${FREQUENCY_UNIT_NAMES[s.frequencyUnitId] ?? ''}${s.frequency > 1 ? ` (every ${s.frequency})` : ''}`;

const statusOptions = (selected: number | undefined) =>
  Object.entries(SUBSCRIPTION_STATUS_NAMES)
    .map(([id, name]) => `<option value="${id}"${Number(id) === selected ? ' selected' : ''}>${esc(name)}</option>`)
    .join('');

/** The merchant's subscriptions, filtered by status. */
export function subscriptionsMain(m: {
  items: SubscriptionListRow[];
  total: number;
  statusId?: number | undefined;
  timeZone: string;
}): string {
  const rows = m.items
    .map(
      (
        s,
      ) => `<tr><td><a href="/dashboard/subscriptions/${esc(s.id)}">${esc(s.customerName || s.customerEmail || s.id)}</a></td>
<td>${esc(SUBSCRIPTION_STATUS_NAMES[s.statusId] ?? s.statusId)}</td><td>${esc(every(s))}</td>
<td>${s.nextPaymentAt ? esc(dateTime(s.nextPaymentAt, m.timeZone)) : '—'}</td><td class="num">${money(s.totalCents)}</td></tr>`,
    )
    .join('');
  return `<h1>Subscriptions</h1>
<form method="get" action="/dashboard/subscriptions" class="card" role="search" aria-label="Filter subscriptions">
<label for="statusId">Status</label><select id="statusId" name="statusId"><option value="">Any</option>${statusOptions(m.statusId)}</select>
<button type="submit">Filter</button></form>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Subscriptions (${m.total})</caption><thead><tr><th scope="col">Customer</th><th scope="col">Status</th><th scope="col">Frequency</th><th scope="col">Next payment</th><th scope="col" class="num">Each payment</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">No subscriptions match.</td></tr>'}</tbody></table></div></section>`;
}

/** A subscription: its terms, its payment history, and the moves its status allows. */
export function subscriptionMain(m: {
  details: SubscriptionDetails;
  installments: InstallmentWithAttempts[];
  timeZone: string;
  csrf: string;
  canManage: boolean;
  /** The customer's saved methods: another of them may pay from now on. */
  methods: PaymentMethod[];
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const { subscription: s, customer, method } = m.details;
  const when = (d: Date | null) => (d ? esc(dateTime(d, m.timeZone)) : '—');
  const fact = (label: string, value: string) => `<div><dt>${esc(label)}</dt><dd>${value}</dd></div>`;
  const who = customer
    ? `<a href="/dashboard/customers/${esc(customer.id)}">${esc(
        [customer.firstName, customer.lastName].filter(Boolean).join(' ') || customer.email || customer.id,
      )}</a>`
    : '—';
  const facts = [
    fact('Status', esc(SUBSCRIPTION_STATUS_NAMES[s.statusId] ?? s.statusId)),
    fact('Customer', who),
    fact('Each payment', money(s.totalCents)),
    fact('Frequency', esc(every(s))),
    fact('Payments', s.numberOfPayments ? `${s.successfulCount} of ${s.numberOfPayments}` : `${s.successfulCount}`),
    fact('Paid so far', money(s.paidCents)),
    fact('Next payment', when(s.nextPaymentAt)),
    fact('Payment method', esc(method?.mask ?? '—')),
  ].join('');
  const history = m.installments
    .map(
      (
        i,
      ) => `<tr><td>${i.paymentOrder}</td><td>${when(i.dueAt)}</td><td>${esc(INSTALLMENT_STATUS_NAMES[i.statusId] ?? i.statusId)}</td>
<td>${i.transactionId ? `<a href="/dashboard/transactions/${esc(i.transactionId)}">Payment</a>` : ''}</td><td class="num">${money(i.amountCents)}</td></tr>`,
    )
    .join('');
  const actions: string[] = [];
  const base = `/dashboard/subscriptions/${s.id}`;
  if (m.canManage && s.statusId === SubscriptionStatus.Active) {
    actions.push(
      actionForm({
        action: `${base}/suspend`,
        id: 'suspend',
        title: 'Suspend',
        csrf: m.csrf,
        confirm: 'I confirm suspending this subscription',
        button: 'Suspend',
        body: '<p>Nothing is charged until it is resumed.</p>',
      }),
    );
  }
  if (m.canManage && (s.statusId === SubscriptionStatus.Suspended || s.statusId === SubscriptionStatus.Delinquent)) {
    actions.push(
      actionForm({
        action: `${base}/resume`,
        id: 'resume',
        title: 'Resume',
        csrf: m.csrf,
        confirm: 'I confirm resuming this subscription',
        button: 'Resume',
        body: '<p>A failed payment is tried again; what fell due meanwhile is charged or skipped.</p>',
      }),
    );
  }
  const others = m.methods.filter((p) => p.id !== s.paymentMethodId);
  if (m.canManage && !FINAL_STATUSES.has(s.statusId) && others.length > 0) {
    actions.push(`<form method="post" action="${esc(base)}/method" class="card" aria-labelledby="method-h"><h2 id="method-h">Change the payment method</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}"><fieldset><legend>Pay from now on with</legend>${methodChoices(others, undefined)}</fieldset>
<button type="submit">Change</button></form>`);
  }
  if (m.canManage && !FINAL_STATUSES.has(s.statusId)) {
    actions.push(
      actionForm({
        action: `${base}/terminate`,
        id: 'terminate',
        title: 'Terminate',
        csrf: m.csrf,
        confirm: 'I confirm terminating this subscription for good',
        button: 'Terminate',
      }),
    );
  }
  return `<p><a href="/dashboard/subscriptions">All subscriptions</a></p><h1>Subscription</h1>${flash(m)}
<section class="card" aria-labelledby="terms-h"><h2 id="terms-h">Terms</h2><dl class="figures">${facts}</dl></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Payment history</caption><thead><tr><th scope="col">#</th><th scope="col">Due</th><th scope="col">Status</th><th scope="col">Transaction</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${history || '<tr><td colspan="5">No payments yet.</td></tr>'}</tbody></table></div></section>${actions.join('')}`;
}
