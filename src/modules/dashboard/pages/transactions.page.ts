import type { Transaction } from '../../payments/transactions.model.js';
import { STATUS_NAMES, TransactionStatus, TransactionType, TYPE_NAMES } from '../../payments/transactions.model.js';
import { actionForm, dateTime, esc, flash, money } from './html.js';

export interface ListQuery {
  search?: string;
  statusId?: number;
  typeId?: number;
  from?: string;
  to?: string;
  min?: string;
  max?: string;
  /** Where the page starts (a cursor from the previous page's "Older" link); none: the newest. */
  after?: string;
}

const options = (names: Record<number, string>, selected: number | undefined) =>
  Object.entries(names)
    .map(([id, name]) => `<option value="${id}"${Number(id) === selected ? ' selected' : ''}>${esc(name)}</option>`)
    .join('');

/** The list with its filters (a GET form: a filtered list is a link that can be shared or bookmarked). */
export function transactionsMain(
  q: ListQuery,
  result: { items: Array<Transaction & { customerName: string | null }>; older: string | undefined },
  timeZone: string,
  note?: string,
  canExport = false,
): string {
  /** The filters alone (no cursor): what the CSV export and the first page take. */
  const filters = (extra: Record<string, string> = {}) => {
    const { after: _after, ...rest } = q;
    const params = new URLSearchParams(
      Object.entries({ ...rest, ...extra }).filter(([, v]) => v !== undefined && v !== '') as Array<[string, string]>,
    ).toString();
    return params ? `?${params}` : '';
  };
  const rows = result.items
    .map(
      (t) => `<tr><td><a href="/dashboard/transactions/${esc(t.id)}">${esc(dateTime(t.createdAt, timeZone))}</a></td>
<td>${esc(TYPE_NAMES[t.typeId] ?? t.typeId)}</td><td>${esc(STATUS_NAMES[t.statusId] ?? t.statusId)}</td>
<td>${esc(t.panMask ?? '')}</td><td>${esc(t.customerName ?? '')}</td><td>${esc(t.referenceId ?? '')}</td>
<td class="num">${money(t.totalCents)}</td></tr>`,
    )
    .join('');
  const nav = `<nav aria-label="Pages" class="pager">${
    q.after ? `<a href="/dashboard/transactions${esc(filters())}">Newest</a>` : ''
  } ${
    result.older ? `<a href="/dashboard/transactions${esc(filters({ after: result.older }))}" rel="next">Older</a>` : ''
  }</nav>`;
  return `<h1>Transactions</h1>
<form method="get" action="/dashboard/transactions" class="card filters" role="search" aria-label="Filter transactions">
<div class="grid">
<div><label for="search">Search</label><input id="search" name="search" value="${esc(q.search ?? '')}" aria-describedby="search-help"><p id="search-help" class="help">Reference, card digits, customer, authorization code.</p></div>
<div><label for="statusId">Status</label><select id="statusId" name="statusId"><option value="">Any</option>${options(STATUS_NAMES, q.statusId)}</select></div>
<div><label for="typeId">Type</label><select id="typeId" name="typeId"><option value="">Any</option>${options(TYPE_NAMES, q.typeId)}</select></div>
<div><label for="from">From</label><input id="from" name="from" type="date" value="${esc(q.from ?? '')}"></div>
<div><label for="to">To</label><input id="to" name="to" type="date" value="${esc(q.to ?? '')}"></div>
<div><label for="min">Amount from</label><input id="min" name="min" inputmode="decimal" value="${esc(q.min ?? '')}"></div>
<div><label for="max">Amount to</label><input id="max" name="max" inputmode="decimal" value="${esc(q.max ?? '')}"></div>
</div><button type="submit">Filter</button></form>
${note ? `<p class="card">${esc(note)}</p>` : ''}${
  canExport
    ? `<p><a href="/dashboard/transactions/export.csv${esc(filters())}" download>Download this list as CSV</a></p>`
    : ''
}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Transactions</caption><thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Card</th><th scope="col">Customer</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${
    rows || '<tr><td colspan="7">No transactions match.</td></tr>'
  }</tbody></table></div>${nav}</section>`;
}

export interface DetailModel {
  t: Transaction;
  timeZone: string;
  csrf: string;
  /** A fresh id for each action form: submitting it twice does the action once. */
  formId: string;
  canManage: boolean;
  /** Tips are enabled in the merchant's settings. */
  tips: boolean;
  canReceipt: boolean;
  refundableCents: number;
  events: Array<{ type: string; occurredAt: Date }>;
  deliveries: Array<{ at: Date; endpoint: string; eventType: string; attempt: number; outcome: string }>;
  ledger: Array<{ account: string; kind: string; amountCents: number; createdAt: Date }>;
  /** Its refunds, each a transaction of its own. */
  refunds: Array<{ id: string; totalCents: number; statusId: number; createdAt: Date }>;
  notice?: string;
  error?: string;
}

/**
 * A transaction: what it is, its timeline (events, webhook deliveries, ledger entries), and the actions it allows
 * (each asking for confirmation): capture, tip adjustment, refund, void, and a receipt by e-mail or SMS.
 */
export function transactionMain(m: DetailModel): string {
  const t = m.t;
  const fact = (label: string, value: string) => `<div><dt>${esc(label)}</dt><dd>${value}</dd></div>`;
  const facts = [
    fact('Amount', money(t.totalCents)),
    fact('Status', esc(STATUS_NAMES[t.statusId] ?? t.statusId)),
    fact('Type', esc(TYPE_NAMES[t.typeId] ?? t.typeId)),
    fact('Created', esc(dateTime(t.createdAt, m.timeZone))),
    fact('Card', esc(t.panMask ?? '—')),
    fact('Reference', esc(t.referenceId ?? '—')),
    fact('Authorization code', esc(t.authCode ?? '—')),
    ...(t.tipCents ? [fact('Tip', money(t.tipCents))] : []),
    ...(t.refundedCents ? [fact('Refunded', money(t.refundedCents))] : []),
    fact('Transaction id', `<code>${esc(t.id)}</code>`),
  ].join('');
  const timeline = m.events.length
    ? `<ol class="timeline">${m.events
        .map((e) => `<li><time>${esc(dateTime(e.occurredAt, m.timeZone))}</time> ${esc(e.type)}</li>`)
        .join('')}</ol>`
    : '<p>No events yet.</p>';
  const deliveries = m.deliveries.length
    ? `<div class="scroll" tabindex="0"><table><caption>Webhook deliveries</caption><thead><tr><th scope="col">When</th><th scope="col">Endpoint</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Outcome</th></tr></thead><tbody>${m.deliveries
        .map(
          (d) =>
            `<tr><td>${esc(dateTime(d.at, m.timeZone))}</td><td>${esc(d.endpoint)}</td><td>${esc(d.eventType)}</td><td>${d.attempt}</td><td>${esc(d.outcome)}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : '';
  const ledger = m.ledger.length
    ? `<div class="scroll" tabindex="0"><table><caption>Ledger entries</caption><thead><tr><th scope="col">When</th><th scope="col">Account</th><th scope="col">Entry</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${m.ledger
        .map(
          (e) =>
            `<tr><td>${esc(dateTime(e.createdAt, m.timeZone))}</td><td>${esc(e.account)}</td><td>${esc(e.kind)}</td><td class="num">${money(e.amountCents)}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : '';
  const refunds = m.refunds.length
    ? `<h3>Refunds</h3><ul>${m.refunds
        .map(
          (r) =>
            `<li><a href="/dashboard/transactions/${esc(r.id)}">${money(r.totalCents)}</a> ${esc(STATUS_NAMES[r.statusId] ?? r.statusId)}, ${esc(dateTime(r.createdAt, m.timeZone))}</li>`,
        )
        .join('')}</ul>`
    : '';
  const base = `/dashboard/transactions/${t.id}`;
  const act = (name: string, title: string, confirm: string, body = '') =>
    actionForm({
      action: `${base}/${name}`,
      id: name,
      title,
      csrf: m.csrf,
      formId: m.formId,
      confirm,
      button: title,
      body,
    });
  const amountField = (id: string, label: string, value: string, help: string) =>
    `<label for="${id}">${esc(label)}</label><input id="${id}" name="amount" inputmode="decimal" required value="${esc(value)}" aria-describedby="${id}-help"><p id="${id}-help" class="help">${help}</p>`;
  const actions: string[] = [];
  const card = t.method === 'card';
  const unsettled = !t.settledAt;
  if (m.canManage && card && t.statusId === TransactionStatus.Authorized) {
    actions.push(
      act(
        'capture',
        'Capture',
        'I confirm capturing this payment',
        amountField(
          'capture-amount',
          'Amount to capture',
          (t.authorizedCents / 100).toFixed(2),
          `Up to ${money(t.authorizedCents)}.`,
        ),
      ),
    );
  }
  if (
    m.canManage &&
    m.tips &&
    card &&
    unsettled &&
    (t.typeId === TransactionType.Sale || t.typeId === TransactionType.Authorization) &&
    (t.statusId === TransactionStatus.Authorized || t.statusId === TransactionStatus.Captured)
  ) {
    actions.push(
      act(
        'tip',
        'Adjust the tip',
        'I confirm this tip',
        amountField(
          'tip-amount',
          'Tip',
          ((t.tipCents ?? 0) / 100).toFixed(2),
          'The whole tip, replacing any tip before.',
        ),
      ),
    );
  }
  if (m.canManage && m.refundableCents > 0) {
    actions.push(
      act(
        'refund',
        'Refund',
        'I confirm this refund',
        amountField(
          'amount',
          'Amount to refund',
          (m.refundableCents / 100).toFixed(2),
          `Up to ${money(m.refundableCents)}.`,
        ),
      ),
    );
  }
  if (
    m.canManage &&
    t.refundedCents === 0 &&
    (t.statusId === TransactionStatus.Authorized || (t.statusId === TransactionStatus.Captured && unsettled))
  ) {
    actions.push(
      act('void', 'Void', 'I confirm voiding this payment', '<p>Cancels the payment before it settles.</p>'),
    );
  }
  if (m.canReceipt) {
    actions.push(`<form method="post" action="${esc(base)}/receipt" class="card" aria-labelledby="receipt-h"><h2 id="receipt-h">Send the receipt</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}">
<fieldset><legend>By</legend><div class="confirm"><input type="radio" id="by-email" name="channel" value="email" checked><label for="by-email">E-mail</label></div>
<div class="confirm"><input type="radio" id="by-sms" name="channel" value="sms"><label for="by-sms">SMS</label></div></fieldset>
<label for="receipt-to">E-mail address or mobile number</label><input id="receipt-to" name="to" required maxlength="254" autocomplete="off">
<div class="confirm"><input type="checkbox" id="receipt-consent" name="consent" value="yes"><label for="receipt-consent">The customer agreed to receive it by SMS</label></div>
<button type="submit">Send the receipt</button></form>`);
  }
  return `<p><a href="/dashboard/transactions">All transactions</a></p><h1>${money(t.totalCents)} ${esc(TYPE_NAMES[t.typeId] ?? '')}</h1>
${flash(m)}
<section class="card" aria-labelledby="details-h"><h2 id="details-h">Details</h2><dl class="figures">${facts}</dl></section>
<section class="card" aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>${timeline}${refunds}${deliveries}${ledger}</section>
${actions.join('')}`;
}
