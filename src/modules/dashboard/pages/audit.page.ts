import { dateTime, esc } from './html.js';

export interface AuditRow {
  at: Date;
  email: string | null;
  action: string;
  target: string | null;
  outcome: string;
  detail: unknown;
  ip: string | null;
}

/** Why an action was refused or failed: the reason the server recorded (a role, a CSRF check, the service's message). */
const why = (detail: unknown) => {
  const d = (detail ?? {}) as { reason?: unknown; message?: unknown };
  const text = typeof d.reason === 'string' ? d.reason : typeof d.message === 'string' ? d.message : '';
  return text ? ` (${esc(text.slice(0, 200))})` : '';
};

/** The audit log: who did what, newest first. */
export function auditMain(rows: readonly AuditRow[], timeZone: string): string {
  const body = rows
    .map(
      (r) => `<tr><td>${esc(dateTime(r.at, timeZone))}</td><td>${esc(r.email ?? '')}</td><td>${esc(r.action)}</td>
<td>${esc(r.target ?? '')}</td><td>${esc(r.outcome)}${why(r.detail)}</td><td>${esc(r.ip ?? '')}</td></tr>`,
    )
    .join('');
  return `<h1>Audit log</h1><section class="card"><div class="scroll" tabindex="0"><table><caption>The newest 100 entries</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">Outcome</th><th scope="col">From</th></tr></thead>
<tbody>${body || '<tr><td colspan="6">Nothing yet.</td></tr>'}</tbody></table></div></section>`;
}
