import {
  CONNECTION_STATUS_NAMES,
  ConnectionStatus,
  DELIVERY_STATUS_NAMES,
  MANUFACTURER_NAMES,
  MODEL_NAMES,
  TERMINAL_MODE_NAMES,
  type Terminal,
} from './terminals.model.js';
import type { TerminalListRow } from './terminals.repo.js';
import type { Presence } from './terminals.service.js';

/** The terminal record (the list item of GET /pay-api/v1/terminals). */
export function terminalView(t: Terminal, merchantCompanyName: string, online: boolean) {
  const connection = online ? ConnectionStatus.Online : ConnectionStatus.Offline;
  return {
    id: t.id,
    merchantId: t.merchantId,
    serialNumber: t.serialNumber,
    terminalManufacturer: MANUFACTURER_NAMES[t.manufacturerId]!,
    terminalModel: MODEL_NAMES[t.modelId]!,
    deliveryStatusId: t.deliveryStatusId,
    deliveryStatusName: DELIVERY_STATUS_NAMES[t.deliveryStatusId]!,
    createdOn: t.createdAt.toISOString(),
    modifiedOn: t.modifiedAt.toISOString(),
    merchantCompanyName,
    terminalModeId: t.modeId,
    terminalModeName: TERMINAL_MODE_NAMES[t.modeId]!,
    connectionStatusId: connection,
    connectionStatus: CONNECTION_STATUS_NAMES[connection]!,
    lastSeenTimestamp: t.lastSeenAt?.toISOString() ?? null,
  };
}

/** A list row is online like `TerminalsService.presence` says, from the columns the list query computed. */
export function terminalListItem(row: TerminalListRow, sandbox: boolean) {
  const online = row.socketAlive || (sandbox && !row.deactivatedAt && row.virtualOnline);
  return terminalView(row, row.merchantCompanyName, online);
}

export function terminalStatusView(t: Terminal, presence: Presence, busy: boolean) {
  const report = presence.online ? presence.report : null;
  return {
    terminalId: t.id,
    terminalPosStatus: !presence.online ? 'Offline' : busy ? 'Busy' : 'Active',
    connectionStatus: presence.online ? 'Online' : 'Offline',
    connectionType: report?.connectionType ?? null,
    wifiConnectionStrength: report?.wifiConnectionStrength ?? null,
    mobileConnectionStrength: report?.mobileConnectionStrength ?? null,
    batteryLevel: report?.batteryLevel ?? null,
    availabilityStatus: presence.online ? (busy ? 'Busy' : 'Ready') : null,
    ariseTerminalVersion: report?.softwareVersion ?? null,
    printerStatus: report?.printerStatus ?? null,
    lastSeenTimestamp: presence.lastSeenAt?.toISOString() ?? null,
  };
}
