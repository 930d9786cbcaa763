import type { Merchant } from '../../merchants/merchants.model.js';
import { dateTime, esc } from './html.js';

const STATUS: Record<number, string> = { 1: 'Active', 2: 'Suspended', 3: 'Closed' };

/** A partner's portfolio: its merchants, each opened in its own dashboard with the user's role. */
export function portfolioMain(m: { merchants: Merchant[]; total: number; csrf: string }): string {
  const rows = m.merchants
    .map(
      (
        merchant,
      ) => `<tr><td>${esc(merchant.companyName)}</td><td>${esc(STATUS[merchant.statusId] ?? merchant.statusId)}</td>
<td>${merchant.lastTransactionAt ? esc(dateTime(merchant.lastTransactionAt, 'UTC')) : '—'}</td>
<td><form method="post" action="/dashboard/partner/open"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="merchantId" value="${esc(merchant.id)}"><button type="submit" aria-label="Open ${esc(merchant.companyName)}">Open</button></form></td></tr>`,
    )
    .join('');
  return `<h1>Portfolio</h1><section class="card"><div class="scroll"><table><caption>Your merchants (${m.total})</caption>
<thead><tr><th scope="col">Merchant</th><th scope="col">Status</th><th scope="col">Last transaction (UTC)</th><th scope="col">Dashboard</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4">No merchants yet.</td></tr>'}</tbody></table></div></section>`;
}
