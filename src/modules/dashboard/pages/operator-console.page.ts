import { type Device, TAP_TO_PAY_STATUS_NAMES, TapToPayStatus } from '../../devices/devices.model.js';
import type { Merchant } from '../../merchants/merchants.model.js';
import type { Message } from '../../messages/messages.model.js';
import type { Partner } from '../../partners/partners.service.js';
import type { processorAdminView } from '../../processors/processors.mapper.js';
import { MODEL_NAMES } from '../../terminals/terminals.model.js';
import type { TerminalListRow } from '../../terminals/terminals.repo.js';
import type { DashboardUser } from '../accounts/users.repo.js';
import { dateTime, esc, flash } from './html.js';

const STATUS: Record<number, string> = { 1: 'Active', 2: 'Suspended', 3: 'Closed' };
const search = (action: string, label: string, value: string | undefined) =>
  `<form method="get" action="${action}" class="card" role="search" aria-label="Find ${esc(label.toLowerCase())}"><label for="search">${esc(label)}</label><input id="search" name="search" value="${esc(value ?? '')}"><button type="submit">Find</button></form>`;
const hidden = (csrf: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;

/** The deployment's merchants, newest first. */
export function operatorMerchantsMain(m: { merchants: Merchant[]; search?: string | undefined }): string {
  const rows = m.merchants
    .map(
      (
        x,
      ) => `<tr><td><a href="/dashboard/operator/merchants/${esc(x.id)}">${esc(x.companyName)}</a></td><td>${esc(STATUS[x.statusId] ?? x.statusId)}</td>
<td>${x.partnerId ? `<code>${esc(x.partnerId)}</code>` : '—'}</td><td>${esc(dateTime(x.createdAt, 'UTC'))}</td></tr>`,
    )
    .join('');
  return `<h1>Merchants</h1>${search('/dashboard/operator/merchants', 'Name, e-mail or id', m.search)}
<section class="card"><div class="scroll" tabindex="0"><table><caption>The newest ${m.merchants.length} merchants (times in UTC)</caption><thead><tr><th scope="col">Merchant</th><th scope="col">Status</th><th scope="col">Partner</th><th scope="col">Created</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4">No merchants match.</td></tr>'}</tbody></table></div></section>`;
}

/** The deployment's partners, newest first. */
export function operatorPartnersMain(m: { partners: Partner[]; search?: string | undefined }): string {
  const rows = m.partners
    .map(
      (p) =>
        `<tr><td>${esc(p.name)}</td><td><code>${esc(p.id)}</code></td><td>${p.statusId === 1 ? 'Active' : 'Suspended'}</td><td>${esc(dateTime(p.createdOn, 'UTC'))}</td></tr>`,
    )
    .join('');
  return `<h1>Partners</h1>${search('/dashboard/operator/partners', 'Name', m.search)}
<section class="card"><div class="scroll" tabindex="0"><table><caption>The newest ${m.partners.length} partners (times in UTC)</caption><thead><tr><th scope="col">Partner</th><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4">No partners match.</td></tr>'}</tbody></table></div></section>`;
}

type ProcessorView = ReturnType<typeof processorAdminView>;

/**
 * One merchant as the operator sees it: its processors (each credential only as set or unset), its terminals (in
 * the sandbox, with the operator's hand on each), and its devices' Tap to Pay requests to approve or deny.
 */
export function operatorMerchantMain(m: {
  merchant: Merchant;
  processors: ProcessorView[];
  terminals: TerminalListRow[];
  devices: Device[];
  csrf: string;
  canManage: boolean;
  sandbox: boolean;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const x = m.merchant;
  const processors = m.processors
    .map((p) => {
      const credentials = p.credentials
        ? Object.entries(p.credentials)
            .map(([name, c]) => `${esc(name)}: ${c.isSet ? `set (version ${c.version})` : 'not set'}`)
            .join('; ')
        : 'none needed';
      return `<tr><td>${esc(p.name)}</td><td>${esc(p.connector)}</td><td>${esc(p.status)}${p.isDefault ? ' (default)' : ''}</td><td>${credentials}</td></tr>`;
    })
    .join('');
  const base = `/dashboard/operator/merchants/${x.id}`;
  const terminals = m.terminals
    .map((t) => {
      const act =
        m.sandbox && m.canManage && !t.deactivatedAt
          ? `<form method="post" action="${esc(base)}/terminals/${esc(t.id)}/act" class="inline">${hidden(m.csrf)}
<label class="sr-only" for="act-${esc(t.id)}">Action on ${esc(t.serialNumber)}</label><select id="act-${esc(t.id)}" name="action">
<option value="present-card">Present a card (4111…1111, chip)</option><option value="decline">Decline on the terminal</option>
<option value="paper-out">Out of paper</option><option value="paper-in">Paper loaded</option><option value="offline">Switch off</option><option value="online">Switch on</option><option value="battery-low">Battery at 5%</option></select>
<button type="submit" aria-label="Do it on ${esc(t.serialNumber)}">Do it</button></form>`
          : '';
      return `<tr><td><code>${esc(t.serialNumber)}</code></td><td>${esc(MODEL_NAMES[t.modelId] ?? t.modelId)}</td><td>${t.deactivatedAt ? 'Deactivated' : t.socketAlive || t.virtualOnline ? 'Online' : 'Offline'}</td><td>${act}</td></tr>`;
    })
    .join('');
  const devices = m.devices
    .map((d) => {
      const decide =
        m.canManage && d.tapToPayStatusId === TapToPayStatus.Requested
          ? ['approve', 'deny']
              .map(
                (verb) =>
                  `<form method="post" action="${esc(base)}/devices/${encodeURIComponent(d.deviceId)}/${verb}" class="inline">${hidden(m.csrf)}<button type="submit" aria-label="${verb === 'approve' ? 'Approve' : 'Deny'} Tap to Pay for ${esc(d.deviceName)}">${verb === 'approve' ? 'Approve' : 'Deny'}</button></form>`,
              )
              .join(' ')
          : '';
      return `<tr><td>${esc(d.deviceName)}</td><td>${esc(TAP_TO_PAY_STATUS_NAMES[d.tapToPayStatusId] ?? d.tapToPayStatusId)}</td><td>${decide}</td></tr>`;
    })
    .join('');
  return `<p><a href="/dashboard/operator/merchants">All merchants</a></p><h1>${esc(x.companyName)}</h1>${flash(m)}
<section class="card" aria-labelledby="facts-h"><h2 id="facts-h">Merchant</h2><dl class="figures">
<div><dt>Status</dt><dd>${esc(STATUS[x.statusId] ?? x.statusId)}</dd></div><div><dt>Id</dt><dd><code>${esc(x.id)}</code></dd></div>
<div><dt>Partner</dt><dd>${x.partnerId ? `<code>${esc(x.partnerId)}</code>` : '—'}</dd></div><div><dt>Time zone</dt><dd>${esc(x.settings.timeZone)}</dd></div></dl></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Processors (credentials only as set or unset)</caption><thead><tr><th scope="col">Name</th><th scope="col">Connector</th><th scope="col">Status</th><th scope="col">Credentials</th></tr></thead>
<tbody>${processors || '<tr><td colspan="4">No processors.</td></tr>'}</tbody></table></div></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Terminals</caption><thead><tr><th scope="col">Serial number</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col">${m.sandbox ? 'Sandbox' : '<span class="sr-only">Actions</span>'}</th></tr></thead>
<tbody>${terminals || '<tr><td colspan="4">No terminals.</td></tr>'}</tbody></table></div></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Devices</caption><thead><tr><th scope="col">Device</th><th scope="col">Tap to Pay</th><th scope="col"><span class="sr-only">Decision</span></th></tr></thead>
<tbody>${devices || '<tr><td colspan="3">No devices.</td></tr>'}</tbody></table></div></section>`;
}

/** The sandbox's controls: the business clock, the card network's weather, and the outbox of e-mails and SMS. */
export function sandboxMain(m: {
  now: Date;
  network: { extraLatencyMs: number; until: Date | null };
  outbox: Message[];
  csrf: string;
  canManage: boolean;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const spike =
    m.network.until && m.network.until > new Date()
      ? `${m.network.extraLatencyMs} ms extra until ${esc(dateTime(m.network.until, 'UTC'))}`
      : 'Normal';
  const outbox = m.outbox
    .map(
      (x) =>
        `<tr><td>${esc(dateTime(x.createdAt, 'UTC'))}</td><td>${esc(x.channel)}</td><td>${esc(x.to)}</td><td>${esc(x.subject ?? x.text.slice(0, 80))}</td><td>${esc(x.status)}</td></tr>`,
    )
    .join('');
  const forms = m.canManage
    ? `<form method="post" action="/dashboard/operator/sandbox/clock" class="card" aria-labelledby="clock-h"><h2 id="clock-h">Move the clock forward</h2>${hidden(m.csrf)}
<div class="grid"><div><label for="amount">By</label><input id="amount" name="amount" inputmode="numeric" required value="1"></div>
<div><label for="unit">Unit</label><select id="unit" name="unit"><option value="minutes">minutes</option><option value="hours">hours</option><option value="days" selected>days</option></select></div></div>
<p class="help">Business time only moves forward: subscriptions fall due, invoices expire, batches close as they would.</p><button type="submit">Move forward</button></form>
<form method="post" action="/dashboard/operator/sandbox/card-network" class="card" aria-labelledby="network-h"><h2 id="network-h">Slow the card network</h2>${hidden(m.csrf)}
<div class="grid"><div><label for="latency">Extra latency (ms)</label><input id="latency" name="extraLatencyMs" inputmode="numeric" required value="35000"></div>
<div><label for="seconds">For (seconds)</label><input id="seconds" name="seconds" inputmode="numeric" required value="10"></div></div>
<p class="help">Above 30 seconds, card calls time out and the reconciler settles them. 0 seconds ends a spike.</p><button type="submit">Apply</button></form>`
    : '';
  return `<h1>Sandbox</h1>${flash(m)}
<section class="card" aria-labelledby="now-h"><h2 id="now-h">Now</h2><dl class="figures"><div><dt>Business time (UTC)</dt><dd>${esc(dateTime(m.now, 'UTC'))}</dd></div><div><dt>Card network</dt><dd>${spike}</dd></div></dl></section>
${forms}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Outbox: the latest e-mails and SMS (times in UTC)</caption><thead><tr><th scope="col">When</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Subject or text</th><th scope="col">Status</th></tr></thead>
<tbody>${outbox || '<tr><td colspan="5">Nothing sent yet.</td></tr>'}</tbody></table></div></section>`;
}

/** Partners' and the operator's users, each given a reset link here (shown once) when they lose their password. */
export function operatorUsersMain(m: {
  users: DashboardUser[];
  csrf: string;
  canManage: boolean;
  issued?: { email: string; url: string } | undefined;
  error?: string | undefined;
}): string {
  const rows = m.users
    .map((u) => {
      const reset =
        m.canManage && u.status === 'active'
          ? `<form method="post" action="/dashboard/operator/users/${esc(u.id)}/reset" class="inline">${hidden(m.csrf)}<button type="submit" aria-label="A reset link for ${esc(u.email)}">Reset link</button></form>`
          : '';
      return `<tr><td>${esc(u.name)}</td><td>${esc(u.email)}</td><td>${u.ownerKind === 'partner' ? `Partner <code>${esc(u.partnerId ?? '')}</code>` : 'Operator'}</td><td>${esc(u.role)}</td><td>${esc(u.status)}</td><td>${reset}</td></tr>`;
    })
    .join('');
  const issued = m.issued
    ? `<section class="card" aria-labelledby="issued-h"><h2 id="issued-h">Reset link for ${esc(m.issued.email)}</h2><p>Give it to them yourself: it works once, for one hour, and is not shown again.</p><p><code id="reset-link">${esc(m.issued.url)}</code></p></section>`
    : '';
  return `<h1>Users of partners and of the operator</h1>${flash(m)}${issued}<p>Merchants' users reset their own passwords by e-mail.</p>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Users</caption><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Of</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No users.</td></tr>'}</tbody></table></div></section>`;
}
