import type { RequestLogRow } from '../../request-logs/request-logs.repo.js';
import { dateTime, esc } from './html.js';

const CLASSES = ['2xx', '3xx', '4xx', '5xx'];

/** The merchant's latest requests (API and dashboard alike), newest first, filtered by status class and path. */
export function logsMain(m: { rows: RequestLogRow[]; status?: string; path?: string; timeZone: string }): string {
  const rows = [...m.rows]
    .reverse()
    .map(
      (
        r,
      ) => `<tr><td>${esc(dateTime(r.at, m.timeZone))}</td><td>${esc(r.method)}</td><td><code>${esc(r.path)}</code></td>
<td class="num">${r.status}</td><td class="num">${Math.round(r.durationMs)} ms</td><td><code>${esc(r.correlationId)}</code></td></tr>`,
    )
    .join('');
  const options = CLASSES.map((c) => `<option value="${c}"${m.status === c ? ' selected' : ''}>${c}</option>`).join('');
  return `<h1>Request log</h1><p>The last day of requests to the API and the dashboard. <code>tessera logs tail</code> follows it live.</p>
<form method="get" action="/dashboard/logs" class="card" role="search" aria-label="Filter the request log"><div class="grid">
<div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${options}</select></div>
<div><label for="path">Path starts with</label><input id="path" name="path" maxlength="200" value="${esc(m.path ?? '')}"></div>
</div><button type="submit">Filter</button></form>
<section class="card"><div class="scroll" tabindex="0"><table><caption>The latest 100 requests</caption><thead><tr><th scope="col">When</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col" class="num">Status</th><th scope="col" class="num">Time</th><th scope="col">Correlation id</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No requests match.</td></tr>'}</tbody></table></div></section>`;
}
