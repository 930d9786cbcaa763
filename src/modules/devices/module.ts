import { defineModule } from '../manifest.js';
import { sandboxDeviceQueues, sandboxDeviceSchedules } from './devices.jobs.js';
import { DEVICE_OPERATIONS } from './devices.operations.js';
import { devicesRoutes } from './devices.routes.js';
import { DevicesService } from './devices.service.js';

declare module '../services.js' {
  interface Services {
    devices: DevicesService;
  }
}

export const devicesModule = defineModule({
  folder: 'modules/devices',
  summary: 'Tap to Pay devices: registration requests, approval, and the device tokens phones take payments with.',
  tables: ['devices', 'device_users'],
  needs: ['signingKeys', 'oauth', 'apiKeys'],
  provides: ['devices'],
  build: ({ pool, clock }, { signingKeys, oauth }) => ({
    devices: new DevicesService({ pool, clock, keyring: signingKeys, issuer: oauth.issuer }),
  }),
  routes: (app, { devices, apiKeys }) => devicesRoutes(app, { devices, apiKeys }),
  operations: DEVICE_OPERATIONS,
  sandbox: {
    queues: ({ devices }) => sandboxDeviceQueues(devices),
    schedules: sandboxDeviceSchedules,
  },
});
