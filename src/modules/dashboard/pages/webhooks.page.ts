import { dateTime, esc } from './html.js';

export interface EndpointView {
  id: string;
  name: string;
  url: string;
  eventTypes: string[];
  status: string;
}

export interface LogView {
  id: string;
  endpointName: string;
  eventType: string;
  attempt: number;
  status: 'Success' | 'Failure';
  httpStatus: number | null;
  error: string | null;
  at: Date;
  retryable: boolean;
}

/** Webhook endpoints and the latest delivery attempts, a failed one retried from here. */
export function webhooksMain(m: {
  endpoints: EndpointView[];
  logs: LogView[];
  csrf: string;
  canManage: boolean;
  timeZone: string;
  /** The form that adds an endpoint (managers only). */
  addForm: string;
  notice?: string;
  error?: string;
}): string {
  const endpoints = m.endpoints
    .map(
      (e) =>
        `<tr><td><a href="/dashboard/webhooks/endpoints/${esc(e.id)}">${esc(e.name)}</a></td><td><code>${esc(e.url)}</code></td><td>${esc(e.eventTypes.join(', '))}</td><td>${esc(e.status)}</td></tr>`,
    )
    .join('');
  const logs = m.logs
    .map((l) => {
      const retry =
        m.canManage && l.retryable
          ? `<form method="post" action="/dashboard/webhooks/logs/${esc(l.id)}/retry"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><button type="submit" aria-label="Retry the ${esc(l.eventType)} delivery to ${esc(l.endpointName)}">Retry</button></form>`
          : '';
      return `<tr><td><a href="/dashboard/webhooks/logs/${esc(l.id)}">${esc(dateTime(l.at, m.timeZone))}</a></td><td>${esc(l.endpointName)}</td><td>${esc(l.eventType)}</td><td>${l.attempt}</td>
<td>${esc(l.status)}${l.httpStatus ? ` (${l.httpStatus})` : ''}${l.error ? `: ${esc(l.error)}` : ''}</td><td>${retry}</td></tr>`;
    })
    .join('');
  return `<h1>Webhooks</h1>${m.notice ? `<p class="notice" role="status">${esc(m.notice)}</p>` : ''}${
    m.error ? `<p class="alert" role="alert">${esc(m.error)}</p>` : ''
  }
<section class="card"><div class="scroll" tabindex="0"><table><caption>Endpoints</caption><thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th></tr></thead>
<tbody>${endpoints || '<tr><td colspan="4">No endpoints yet.</td></tr>'}</tbody></table></div></section>${m.addForm}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Latest deliveries</caption><thead><tr><th scope="col">When</th><th scope="col">Endpoint</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Retry</th></tr></thead>
<tbody>${logs || '<tr><td colspan="6">No deliveries yet.</td></tr>'}</tbody></table></div></section>`;
}
