import type { OperatorOperation } from '../manifest.js';
import { deviceView } from './devices.mapper.js';
import { DeviceView, OperatorDeviceParams } from './devices.schemas.js';

/** The operator's Tap to Pay decisions (`/admin/v1`, and `tessera admin devices …`). */
export const DEVICE_OPERATIONS: OperatorOperation[] = [
  {
    group: 'devices',
    verb: 'approve',
    method: 'POST',
    path: '/admin/v1/merchants/:merchantId/devices/:deviceId/tap-to-pay/approve',
    summary: 'Approve Tap to Pay on a device that requested it (Requested → Approved)',
    params: OperatorDeviceParams,
    response: DeviceView,
    async run(ctx, { params }) {
      return deviceView(await ctx.services.devices.decide(params.merchantId, params.deviceId, true));
    },
  },
  {
    group: 'devices',
    verb: 'deny',
    method: 'POST',
    path: '/admin/v1/merchants/:merchantId/devices/:deviceId/tap-to-pay/deny',
    summary: 'Deny Tap to Pay on a device that requested it (Requested → Denied; it may request again)',
    params: OperatorDeviceParams,
    response: DeviceView,
    async run(ctx, { params }) {
      return deviceView(await ctx.services.devices.decide(params.merchantId, params.deviceId, false));
    },
  },
];
