import type { EventTypeEntry } from '../../events/event-catalog.js';
import type { LogDetailRow } from '../../webhooks/webhooks.repo.js';
import { actionForm, dateTime, esc, flash } from './html.js';

/** The event types a merchant endpoint may take, in their groups, as checkboxes. */
function eventBoxes(types: readonly EventTypeEntry[], chosen: ReadonlySet<string>): string {
  const groups = new Map<string, EventTypeEntry[]>();
  for (const t of types) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  return [...groups]
    .map(
      ([group, entries]) =>
        `<fieldset><legend>${esc(group)}</legend>${entries
          .map(
            (t) =>
              `<div class="confirm"><input type="checkbox" id="event-${t.eventTypeId}" name="eventTypes" value="${esc(t.eventType)}"${
                chosen.has(t.eventType) || t.aliases.some((a) => chosen.has(a)) ? ' checked' : ''
              }><label for="event-${t.eventTypeId}">${esc(t.eventType)}</label></div>`,
          )
          .join('')}</fieldset>`,
    )
    .join('');
}

/** A new endpoint, or one to change: its name, URL (https; checked as the API checks it) and event types. */
export function endpointForm(m: {
  action: string;
  title: string;
  csrf: string;
  types: readonly EventTypeEntry[];
  values: { name?: string; url?: string; eventTypes?: readonly string[]; status?: string };
  button: string;
  withStatus?: boolean;
}): string {
  const status = m.withStatus
    ? `<div><label for="status">Status</label><select id="status" name="status"><option value="Active">Active</option><option value="Inactive"${
        m.values.status === 'Inactive' ? ' selected' : ''
      }>Inactive (nothing is sent)</option></select></div>`
    : '';
  return `<form method="post" action="${esc(m.action)}" class="card" aria-labelledby="endpoint-h"><h2 id="endpoint-h">${esc(m.title)}</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}"><div class="grid">
<div><label for="name">Name</label><input id="name" name="name" required maxlength="100" value="${esc(m.values.name ?? '')}"></div>
<div><label for="url">URL</label><input id="url" name="url" type="url" required maxlength="2000" value="${esc(m.values.url ?? '')}"></div>${status}
</div><details${(m.values.eventTypes ?? []).length ? ' open' : ''}><summary>Event types (${(m.values.eventTypes ?? []).length} chosen)</summary>${eventBoxes(
    m.types,
    new Set(m.values.eventTypes ?? []),
  )}</details><button type="submit">${esc(m.button)}</button></form>`;
}

/** One endpoint: change it, send it a ping, delete it. */
export function endpointMain(m: {
  id: string;
  name: string;
  form: string;
  csrf: string;
  secret?: string | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const secret = m.secret
    ? `<section class="card" aria-labelledby="secret-h"><h2 id="secret-h">Signing secret</h2><p>Copy it now: it is shown once. Each delivery is signed with it: check the signature before you trust a delivery (docs/webhooks.md).</p>
<p><code id="new-signing-secret">${esc(m.secret)}</code></p></section>`
    : '';
  const base = `/dashboard/webhooks/endpoints/${m.id}`;
  return `<p><a href="/dashboard/webhooks">All webhooks</a></p><h1>${esc(m.name)}</h1>${flash(m)}${secret}${m.form}
<form method="post" action="${esc(base)}/ping" class="card" aria-labelledby="ping-h"><h2 id="ping-h">Test</h2><input type="hidden" name="csrf" value="${esc(m.csrf)}"><p>Sends a signed <code>ping</code> now and shows the answer.</p><button type="submit">Send a ping</button></form>
${actionForm({ action: `${base}/delete`, id: 'delete', title: 'Delete', csrf: m.csrf, confirm: 'I confirm deleting this endpoint (its pending deliveries are canceled)', button: 'Delete' })}`;
}

/** One delivery attempt: what was sent and what came back. */
export function deliveryMain(m: { log: LogDetailRow; timeZone: string }): string {
  const l = m.log;
  const headers = (h: Record<string, string> | null) =>
    h
      ? `<dl class="headers">${Object.entries(h)
          .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd><code>${esc(v)}</code></dd></div>`)
          .join('')}</dl>`
      : '<p>None.</p>';
  return `<p><a href="/dashboard/webhooks">All webhooks</a></p><h1>Delivery of ${esc(l.event_type)}</h1>
<section class="card" aria-labelledby="facts-h"><h2 id="facts-h">Attempt</h2><dl class="figures">
<div><dt>When</dt><dd>${esc(dateTime(l.created_at, m.timeZone))}</dd></div><div><dt>Endpoint</dt><dd>${esc(l.endpoint_name)}</dd></div>
<div><dt>Attempt</dt><dd>${l.attempt_number}</dd></div><div><dt>Outcome</dt><dd>${esc(l.status)}${l.response_status_code ? ` (${l.response_status_code})` : ''}</dd></div>
<div><dt>Time</dt><dd>${l.duration_ms} ms</dd></div>${l.error_message ? `<div><dt>Error</dt><dd>${esc(l.error_message)}</dd></div>` : ''}</dl></section>
<section class="card" aria-labelledby="request-h"><h2 id="request-h">Request</h2><p><code>POST ${esc(l.endpoint_url)}</code></p>${headers(l.request_headers)}<pre class="body">${esc(l.request_body)}</pre></section>
<section class="card" aria-labelledby="response-h"><h2 id="response-h">Answer</h2>${headers(l.response_headers)}<pre class="body">${esc(l.response_body ?? '')}</pre></section>`;
}
