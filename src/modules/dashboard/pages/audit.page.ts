import { dateTime, esc } from './html.js';

export interface AuditRow {
  at: Date;
  email: string | null;
  action: string;
  target: string | null;
  outcome: string;
  ip: string | null;
}

/** The audit log: who did what, newest first. */
export function auditMain(rows: readonly AuditRow[], timeZone: string): string {
  const body = rows
    .map(
      (r) => `<tr><td>${esc(dateTime(r.at, timeZone))}</td><td>${esc(r.email ?? '')}</td><td>${esc(r.action)}</td>
<td>${esc(r.target ?? '')}</td><td>${esc(r.outcome)}</td><td>${esc(r.ip ?? '')}</td></tr>`,
    )
    .join('');
  return `<h1>Audit log</h1><section class="card"><div class="scroll"><table><caption>The newest 100 entries</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">Outcome</th><th scope="col">From</th></tr></thead>
<tbody>${body || '<tr><td colspan="6">Nothing yet.</td></tr>'}</tbody></table></div></section>`;
}
