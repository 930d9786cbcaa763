import { type Device, TAP_TO_PAY_STATUS_NAMES, TapToPayStatus } from '../../devices/devices.model.js';
import { DELIVERY_STATUS_NAMES, MODEL_NAMES, TERMINAL_MODE_NAMES } from '../../terminals/terminals.model.js';
import type { TerminalListRow } from '../../terminals/terminals.repo.js';
import type { Presence } from '../../terminals/terminals.service.js';
import { dateTime, esc, flash } from './html.js';

/**
 * The merchant's devices (phones and tablets running its app: Tap to Pay status, who signed in on them, a Tap to Pay
 * request) and its terminals (status, battery, mode).
 */
export function devicesMain(m: {
  devices: Device[];
  terminals: Array<{ terminal: TerminalListRow; presence: Presence }>;
  timeZone: string;
  csrf: string;
  canManage: boolean;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const devices = m.devices
    .map((d) => {
      const users = d.users.map((u) => esc(`${u.firstName} ${u.lastName}`.trim() || u.email)).join(', ') || '—';
      const request =
        m.canManage && (d.tapToPayStatusId === TapToPayStatus.Inactive || d.tapToPayStatusId === TapToPayStatus.Denied)
          ? `<form method="post" action="/dashboard/devices/${encodeURIComponent(d.deviceId)}/tap-to-pay" class="inline"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><button type="submit" aria-label="Request Tap to Pay for ${esc(d.deviceName)}">Request Tap to Pay</button></form>`
          : '';
      return `<tr><td>${esc(d.deviceName)}</td><td><code>${esc(d.deviceId)}</code></td><td>${esc(TAP_TO_PAY_STATUS_NAMES[d.tapToPayStatusId] ?? d.tapToPayStatusId)}</td>
<td>${users}</td><td>${esc(dateTime(d.lastLoginAt, m.timeZone))}</td><td>${request}</td></tr>`;
    })
    .join('');
  const terminals = m.terminals
    .map(({ terminal: t, presence: p }) => {
      const status = t.deactivatedAt ? 'Deactivated' : p.online ? 'Online' : 'Offline';
      const battery = p.report?.batteryLevel != null ? `${p.report.batteryLevel}%` : '—';
      return `<tr><td><code>${esc(t.serialNumber)}</code></td><td>${esc(MODEL_NAMES[t.modelId] ?? t.modelId)}</td><td>${esc(status)}${p.virtual ? ' (sandbox)' : ''}</td>
<td>${esc(battery)}</td><td>${esc(TERMINAL_MODE_NAMES[t.modeId] ?? t.modeId)}</td><td>${esc(DELIVERY_STATUS_NAMES[t.deliveryStatusId] ?? t.deliveryStatusId)}</td>
<td>${p.lastSeenAt ? esc(dateTime(p.lastSeenAt, m.timeZone)) : '—'}</td></tr>`;
    })
    .join('');
  return `<h1>Devices and terminals</h1>${flash(m)}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Devices</caption><thead><tr><th scope="col">Name</th><th scope="col">Device id</th><th scope="col">Tap to Pay</th><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${devices || '<tr><td colspan="6">No devices yet: they appear when the merchant’s app registers one.</td></tr>'}</tbody></table></div></section>
<section class="card"><div class="scroll" tabindex="0"><table><caption>Terminals</caption><thead><tr><th scope="col">Serial number</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col">Battery</th><th scope="col">Mode</th><th scope="col">Delivery</th><th scope="col">Last seen</th></tr></thead>
<tbody>${terminals || '<tr><td colspan="7">No terminals yet.</td></tr>'}</tbody></table></div></section>`;
}
