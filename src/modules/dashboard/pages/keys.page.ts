import type { ApiKey, IssuedApiKey } from '../../api-keys/api-keys.service.js';
import { dateTime, esc } from './html.js';

/** API keys: the list, a new key's secret shown once, revoking. */
export function keysMain(m: {
  keys: ApiKey[];
  csrf: string;
  timeZone: string;
  issued?: IssuedApiKey;
  notice?: string;
  refusal?: string;
}): string {
  if (m.refusal) return `<h1>API keys</h1><p class="card">${esc(m.refusal)}</p>`;
  const issued = m.issued
    ? `<section class="card notice" role="status" aria-labelledby="issued-h"><h2 id="issued-h">Your new key</h2>
<p>Copy the secret now: it is shown this once and never again.</p>
<dl class="figures"><div><dt>Client id</dt><dd><code id="new-client-id">${esc(m.issued.clientId)}</code></dd></div>
<div><dt>Client secret</dt><dd><code id="new-client-secret">${esc(m.issued.clientSecret)}</code></dd></div></dl></section>`
    : '';
  const rows = m.keys
    .map(
      (
        k,
      ) => `<tr><td>${esc(k.name)}</td><td><code>${esc(k.clientId)}</code></td><td>${esc(dateTime(k.createdAt, m.timeZone))}</td>
<td><form method="post" action="/dashboard/keys/revoke"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="clientId" value="${esc(k.clientId)}">
<div class="confirm"><input type="checkbox" id="revoke-${esc(k.clientId)}" name="confirm" value="yes" required><label for="revoke-${esc(k.clientId)}">Confirm</label></div>
<button type="submit" aria-label="Revoke ${esc(k.name)}">Revoke</button></form></td></tr>`,
    )
    .join('');
  return `<h1>API keys</h1>${m.notice ? `<p class="notice" role="status">${esc(m.notice)}</p>` : ''}${issued}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Keys</caption><thead><tr><th scope="col">Name</th><th scope="col">Client id</th><th scope="col">Created</th><th scope="col">Revoke</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4">No keys.</td></tr>'}</tbody></table></div></section>
<form method="post" action="/dashboard/keys" class="card" aria-labelledby="new-key-h"><h2 id="new-key-h">Create a key</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}"><label for="key-name">Name</label><input id="key-name" name="name" required maxlength="100">
<button type="submit">Create key</button></form>`;
}
