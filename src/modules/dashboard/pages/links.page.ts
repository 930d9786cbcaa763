import type { PaymentLink } from '../../links/links.model.js';
import { dateTime, esc, flash, money } from './html.js';

const STATUS: Record<string, string> = {
  created: 'Created',
  active: 'Active',
  inactive: 'Inactive',
  expired: 'Expired',
  completed: 'Completed',
};

/**
 * Payment links and quick payments: a new link, the list with each one's page, what it collected, and the moves its
 * status allows (deactivate, activate again, share an active one by e-mail or SMS).
 */
export function linksMain(m: {
  items: PaymentLink[];
  total: number;
  urlOf: (link: PaymentLink) => string;
  timeZone: string;
  csrf: string;
  canManage: boolean;
  values?: Record<string, string>;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const v = (name: string) => esc(m.values?.[name] ?? '');
  const rows = m.items
    .map((l) => {
      const move = (verb: 'deactivate' | 'activate', label: string) =>
        `<form method="post" action="/dashboard/links/${esc(l.id)}/${verb}" class="inline"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="confirm" value="yes"><button type="submit" aria-label="${label} ${esc(l.name ?? l.code)}">${label}</button></form>`;
      const canActivate =
        l.surface === 'quick'
          ? l.status === 'created' || (l.status === 'inactive' && !l.singleUse)
          : l.status === 'inactive';
      const deactivate = m.canManage
        ? `${l.status === 'active' ? move('deactivate', 'Deactivate') : ''}${canActivate ? move('activate', 'Activate') : ''}${
            l.status === 'active'
              ? ` <a href="/dashboard/links/${esc(l.id)}/share" aria-label="Share ${esc(l.name ?? l.code)}">Share</a>`
              : ''
          }`
        : '';
      return `<tr><td>${esc(l.name ?? '—')}</td><td>${l.surface === 'quick' ? 'Quick payment' : 'Payment link'}</td><td>${esc(STATUS[l.status] ?? l.status)}</td><td>${l.singleUse ? 'Once' : 'Many times'}</td>
<td class="num">${l.amountCents === null ? 'Payer chooses' : money(l.amountCents)}</td><td class="num">${l.paymentCount} (${money(l.totalCollectedCents)})</td>
<td>${esc(dateTime(l.createdAt, m.timeZone))}</td><td><a href="${esc(m.urlOf(l))}">${esc(m.urlOf(l))}</a></td><td>${deactivate}</td></tr>`;
    })
    .join('');
  const form = m.canManage
    ? `<form method="post" action="/dashboard/links" class="card" aria-labelledby="new-h"><h2 id="new-h">New payment link</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}"><div class="grid">
<div><label for="name">Name</label><input id="name" name="name" maxlength="100" required value="${v('name')}"></div>
<div><label for="amount">Amount</label><input id="amount" name="amount" inputmode="decimal" value="${v('amount')}" aria-describedby="amount-help"><p id="amount-help" class="help">Empty: the payer enters it.</p></div>
<div><label for="description">Description</label><input id="description" name="description" maxlength="500" value="${v('description')}"></div>
<div><label for="singleUse">Use</label><select id="singleUse" name="singleUse"><option value="no">Many times</option><option value="yes"${m.values?.singleUse === 'yes' ? ' selected' : ''}>Once</option></select></div>
</div><button type="submit">Create link</button></form>`
    : '';
  return `<h1>Payment links</h1>${flash(m)}${form}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Payment links (${m.total})</caption><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Paid</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Payments</th><th scope="col">Created</th><th scope="col">Page to share</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows || '<tr><td colspan="9">No payment links yet.</td></tr>'}</tbody></table></div></section>`;
}

/** Share an active link by e-mail or SMS: only with the recipient's consent (the API's rule). */
export function shareLinkMain(m: { link: PaymentLink; url: string; csrf: string; error?: string | undefined }): string {
  return `<p><a href="/dashboard/links">All payment links</a></p><h1>Share ${esc(m.link.name ?? m.link.code)}</h1>${flash(m)}
<p><a href="${esc(m.url)}">${esc(m.url)}</a></p>
<form method="post" action="/dashboard/links/${esc(m.link.id)}/share" class="card"><input type="hidden" name="csrf" value="${esc(m.csrf)}">
<fieldset><legend>Send by</legend><div class="choice"><input type="radio" id="by-email" name="shareBy" value="Email" checked><label for="by-email">E-mail</label></div>
<div class="choice"><input type="radio" id="by-sms" name="shareBy" value="Sms"><label for="by-sms">SMS</label></div></fieldset>
<label for="recipient">E-mail address or mobile number</label><input id="recipient" name="recipient" required maxlength="254" autocomplete="off">
<div class="confirm"><input type="checkbox" id="consent" name="consent" value="yes" required><label for="consent">The recipient agreed to receive it</label></div>
<button type="submit">Send</button></form>`;
}
