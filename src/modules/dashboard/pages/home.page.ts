import { STATUS_NAMES, TYPE_NAMES } from '../../payments/transactions.model.js';
import type { HomeFigures, PeriodFigures } from './home.reads.js';
import { dateTime, esc, money } from './html.js';

function figures(title: string, p: PeriodFigures): string {
  return `<section class="card" aria-labelledby="${esc(title)}-h"><h2 id="${esc(title)}-h">${esc(title)}</h2><dl class="figures">
<div><dt>Sales</dt><dd>${money(p.salesCents)}</dd></div>
<div><dt>Approved</dt><dd>${p.approved}</dd></div>
<div><dt>Declined</dt><dd>${p.declined}</dd></div>
<div><dt>Refunds</dt><dd>${money(p.refundsCents)}</dd></div></dl></section>`;
}

/** Sales as bars: an SVG drawn on the server, with its figures in a table for screen readers. */
function barChart(id: string, title: string, values: number[], label: (index: number) => string): string {
  const max = Math.max(1, ...values);
  const width = 240 / Math.max(1, values.length);
  const bars = values
    .map((cents, i) => {
      const height = Math.round((cents / max) * 100);
      return `<rect x="${(i * width + width * 0.1).toFixed(2)}" y="${100 - height}" width="${(width * 0.8).toFixed(2)}" height="${height}"><title>${esc(label(i))} ${money(cents)}</title></rect>`;
    })
    .join('');
  const rows = values
    .map((cents, i) => (cents > 0 ? `<tr><th scope="row">${esc(label(i))}</th><td>${money(cents)}</td></tr>` : ''))
    .join('');
  return `<section class="card" aria-labelledby="${id}-h"><h2 id="${id}-h">${esc(title)}</h2>
<svg class="chart" viewBox="0 0 240 100" preserveAspectRatio="none" role="img" aria-label="${esc(title)}: sales"><g>${bars}</g></svg>
<table class="sr-only"><caption>${esc(title)}: sales</caption><tbody>${rows || '<tr><td>No sales yet.</td></tr>'}</tbody></table></section>`;
}

export function homeMain(h: HomeFigures, companyName: string): string {
  const recent = h.recent.length
    ? `<div class="scroll" tabindex="0"><table><caption>Recent activity</caption><thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${h.recent
        .map(
          (t) =>
            `<tr><td><a href="/dashboard/transactions/${esc(t.id)}">${esc(dateTime(t.createdAt, h.timeZone))}</a></td><td>${esc(TYPE_NAMES[t.typeId] ?? t.typeId)}</td><td>${esc(
              STATUS_NAMES[t.statusId] ?? t.statusId,
            )}</td><td class="num">${money(t.totalCents)}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : '<p>No transactions yet.</p>';
  return `<h1>${esc(companyName)}</h1><div class="grid">${figures('Today', h.today)}${figures('This month', h.month)}</div>
<div class="grid">${barChart('hourly', 'Today by hour', h.hourly, (hour) => `${hour}:00`)}${barChart(
    'daily',
    'This month by day',
    h.daily,
    (day) => `Day ${day + 1}`,
  )}</div><section class="card">${recent}</section>`;
}
