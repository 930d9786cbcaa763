import type { Portfolio } from '../../merchants/portfolio/portfolio.model.js';
import { PCI_STATUSES, PORTFOLIO_STATUSES } from '../../merchants/portfolio/portfolio.model.js';
import { dateTime, esc } from './html.js';

const LABELS: Record<string, string> = {
  active: 'Active',
  closed: 'Closed',
  terminated: 'Terminated',
  other: 'Other',
  compliant: 'Compliant',
  non_compliant: 'Not compliant',
  unknown: 'Unknown',
};
const options = (values: readonly string[], selected: string | undefined) =>
  values
    .map((v) => `<option value="${v}"${v === selected ? ' selected' : ''}>${esc(LABELS[v] ?? v)}</option>`)
    .join('');

/**
 * A partner's portfolio, as the partner API reports it: each merchant's status and PCI compliance (with the SAQ due
 * date), filtered and searched as the API's list is, and each merchant's dashboard opened with the user's role.
 */
export function portfolioMain(m: {
  merchants: Portfolio[];
  total: number;
  csrf: string;
  filter: { search?: string | undefined; status?: string | undefined; pci?: string | undefined };
}): string {
  const rows = m.merchants
    .map(
      (p) => `<tr><td>${esc(p.dbaName)}</td><td>${esc(LABELS[p.status] ?? p.status)}</td>
<td>${esc(LABELS[p.compliance.status] ?? p.compliance.status)}</td><td>${esc(p.compliance.saqDueDate ?? '—')}</td>
<td>${p.compliance.lastUpdated ? esc(dateTime(p.compliance.lastUpdated, 'UTC')) : '—'}</td>
<td><form method="post" action="/dashboard/partner/open"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="merchantId" value="${esc(p.merchantId)}"><button type="submit" aria-label="Open ${esc(p.dbaName)}">Open</button></form></td></tr>`,
    )
    .join('');
  return `<h1>Portfolio</h1>
<form method="get" action="/dashboard/partner" class="card" role="search" aria-label="Filter the portfolio"><div class="grid">
<div><label for="search">Name or id</label><input id="search" name="search" value="${esc(m.filter.search ?? '')}"></div>
<div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${options(PORTFOLIO_STATUSES, m.filter.status)}</select></div>
<div><label for="pci">PCI compliance</label><select id="pci" name="pci"><option value="">Any</option>${options(PCI_STATUSES, m.filter.pci)}</select></div>
</div><button type="submit">Filter</button></form>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Your merchants (${m.total})</caption>
<thead><tr><th scope="col">Merchant</th><th scope="col">Status</th><th scope="col">PCI compliance</th><th scope="col">SAQ due</th><th scope="col">Compliance updated (UTC)</th><th scope="col">Dashboard</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No merchants match.</td></tr>'}</tbody></table></div></section>`;
}
