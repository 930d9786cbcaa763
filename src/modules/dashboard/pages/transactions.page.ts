import type { Transaction } from '../../payments/transactions.model.js';
import { STATUS_NAMES, TransactionStatus, TYPE_NAMES } from '../../payments/transactions.model.js';
import { dateTime, esc, money } from './html.js';

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
<section class="card"><div class="scroll"><table><caption>Transactions</caption><thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Card</th><th scope="col">Customer</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${
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
  refundableCents: number;
  events: Array<{ type: string; occurredAt: Date }>;
  notice?: string;
  error?: string;
}

/** A transaction: what it is, its timeline, and the actions it allows (each asking for confirmation). */
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
    fact('Transaction id', `<code>${esc(t.id)}</code>`),
  ].join('');
  const timeline = m.events.length
    ? `<ol class="timeline">${m.events
        .map((e) => `<li><time>${esc(dateTime(e.occurredAt, m.timeZone))}</time> ${esc(e.type)}</li>`)
        .join('')}</ol>`
    : '<p>No events yet.</p>';
  const hidden = `<input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="formId" value="${esc(m.formId)}">`;
  const confirm = (id: string, text: string) =>
    `<div class="confirm"><input type="checkbox" id="${id}" name="confirm" value="yes" required><label for="${id}">${esc(text)}</label></div>`;
  const actions: string[] = [];
  if (m.canManage && m.refundableCents > 0) {
    actions.push(`<form method="post" action="/dashboard/transactions/${esc(t.id)}/refund" class="card" aria-labelledby="refund-h">
<h2 id="refund-h">Refund</h2>${hidden}
<label for="amount">Amount to refund</label><input id="amount" name="amount" inputmode="decimal" required value="${(m.refundableCents / 100).toFixed(2)}" aria-describedby="amount-help">
<p id="amount-help" class="help">Up to ${money(m.refundableCents)}.</p>
${confirm('confirm-refund', 'I confirm this refund')}<button type="submit">Refund</button></form>`);
  }
  if (
    m.canManage &&
    t.refundedCents === 0 &&
    (t.statusId === TransactionStatus.Authorized || (t.statusId === TransactionStatus.Captured && !t.settledAt))
  ) {
    actions.push(`<form method="post" action="/dashboard/transactions/${esc(t.id)}/void" class="card" aria-labelledby="void-h">
<h2 id="void-h">Void</h2>${hidden}<p>Cancels the payment before it settles.</p>
${confirm('confirm-void', 'I confirm voiding this payment')}<button type="submit">Void</button></form>`);
  }
  return `<p><a href="/dashboard/transactions">All transactions</a></p><h1>${money(t.totalCents)} ${esc(TYPE_NAMES[t.typeId] ?? '')}</h1>
${m.notice ? `<p class="notice" role="status">${esc(m.notice)}</p>` : ''}${m.error ? `<p class="alert" role="alert">${esc(m.error)}</p>` : ''}
<section class="card" aria-labelledby="details-h"><h2 id="details-h">Details</h2><dl class="figures">${facts}</dl></section>
<section class="card" aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>${timeline}</section>
${actions.join('')}`;
}
