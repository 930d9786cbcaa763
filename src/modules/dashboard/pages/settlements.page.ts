import { BATCH_STATUS_NAMES } from '../../settlements/settlements.model.js';
import type { Batch } from '../../settlements/settlements.service.js';
import { dateTime, esc, money } from './html.js';

/** Net settled per batch as bars (oldest on the left), with its figures in a table for screen readers. */
function netChart(batches: Batch[], timeZone: string): string {
  const settled = batches
    .filter((b) => b.settledAt)
    .slice(0, 30)
    .reverse();
  if (settled.length === 0) return '';
  const max = Math.max(1, ...settled.map((b) => Math.abs(b.netCents)));
  const width = 10;
  const bars = settled
    .map((b, i) => {
      const height = Math.max(1, Math.round((Math.abs(b.netCents) / max) * 100));
      return `<rect x="${i * width + 1}" y="${100 - height}" width="${width - 2}" height="${height}"><title>${esc(
        dateTime(b.settledAt!, timeZone),
      )}: ${money(b.netCents)}</title></rect>`;
    })
    .join('');
  return `<section class="card" aria-labelledby="net-h"><h2 id="net-h">Net settled, last ${settled.length} batches</h2>
<svg class="chart" viewBox="0 0 ${settled.length * width} 100" preserveAspectRatio="none" role="img" aria-label="Net settled per batch">${bars}</svg></section>`;
}

/** The merchant's settlement batches, newest first, with their totals. */
export function settlementsMain(m: { batches: Batch[]; total: number; timeZone: string }): string {
  const rows = m.batches
    .map(
      (b) => `<tr><td>${esc(dateTime(b.settledAt ?? b.openedAt, m.timeZone))}</td><td>${esc(b.processorName)}</td>
<td>${esc(BATCH_STATUS_NAMES[b.statusId] ?? b.statusId)}</td><td class="num">${b.transactionCount}</td>
<td class="num">${money(b.salesCents)}</td><td class="num">${money(b.refundsCents)}</td><td class="num">${money(b.netCents)}</td></tr>`,
    )
    .join('');
  return `<h1>Settlements</h1>${netChart(m.batches, m.timeZone)}<section class="card"><div class="scroll" tabindex="0"><table>
<caption>Batches (${m.total})</caption><thead><tr><th scope="col">Date</th><th scope="col">Processor</th><th scope="col">Status</th>
<th scope="col" class="num">Transactions</th><th scope="col" class="num">Sales</th><th scope="col" class="num">Refunds</th><th scope="col" class="num">Net</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No batches yet.</td></tr>'}</tbody></table></div></section>`;
}
