import { type Device, deviceRecordId, TAP_TO_PAY_STATUS_NAMES, TOKEN_STATUSES } from './devices.model.js';

export function deviceView(d: Device) {
  return {
    id: deviceRecordId(d.merchantId, d.deviceId),
    deviceId: d.deviceId,
    deviceName: d.deviceName,
    lastLoginAt: d.lastLoginAt.toISOString(),
    tapToPayStatus: TAP_TO_PAY_STATUS_NAMES[d.tapToPayStatusId]!,
    tapToPayStatusId: d.tapToPayStatusId,
    tapToPayEnabled: TOKEN_STATUSES.has(d.tapToPayStatusId),
    apiKeyName: d.apiKeyName,
    userProfiles: d.users,
  };
}
