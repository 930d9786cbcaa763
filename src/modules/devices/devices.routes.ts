import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import { deviceView } from './devices.mapper.js';
import {
  DeviceIdParams,
  DeviceListView,
  DeviceTokenView,
  DeviceView,
  SaveDeviceBody,
  TokenBody,
} from './devices.schemas.js';
import type { DevicesService } from './devices.service.js';

const EMPTY = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });

/** What these routes use. */
export interface DevicesRouteDeps {
  devices: DevicesService;
  apiKeys: ApiKeysService;
}

export function devicesRoutes(app: App, deps: DevicesRouteDeps): void {
  const { devices } = deps;
  const tags = ['Devices'];
  const base = '/pay-api/v1/devices';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List devices',
        response: { 200: DeviceListView, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ({ devices: (await devices.list(merchantOf(request).merchantId)).map(deviceView) }),
  );

  app.get(
    `${base}/:deviceId`,
    { schema: { tags, summary: 'Get a device', params: DeviceIdParams, response: { 200: DeviceView, ...ERRORS } } },
    async (request) => deviceView(await devices.get(merchantOf(request).merchantId, request.params.deviceId)),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create or update a device',
        description:
          'By `deviceId` (lower-cased): a new device starts with Tap to Pay Inactive; saving it again renames it and ' +
          'records the API key used and the time as its last login.',
        body: SaveDeviceBody,
        response: { 200: DeviceView, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const principal = merchantOf(request);
      const device = await devices.save(
        principal.merchantId,
        request.body.deviceId,
        request.body.deviceName,
        await deps.apiKeys.keyName(principal.clientId),
      );
      return deviceView(device);
    },
  );

  app.post(
    `${base}/:deviceId/tap-to-pay/activate`,
    {
      schema: {
        tags,
        summary: 'Request Tap to Pay on a device',
        description:
          'Inactive or Denied → Requested (asking again while Requested changes nothing). The operator approves or ' +
          'denies; in sandbox a request is approved 5 minutes later on the business clock. Approved turns Active ' +
          'when the device first obtains a token. Answers 200 with an empty body.',
        params: DeviceIdParams,
        response: { 200: EMPTY, ...ERRORS },
      },
    },
    async (request, reply) => {
      await devices.activate(merchantOf(request).merchantId, request.params.deviceId);
      return reply.send();
    },
  );

  app.post(
    `${base}/tap-to-pay/jwt`,
    {
      schema: {
        tags,
        summary: 'Get a device token',
        description:
          'A signed token valid 15 minutes, bound to the merchant and the device, for an Approved or Active device ' +
          "(400 otherwise). A sale or authorization with `cardDataSource` 3 (NFC) sends it as 'x-device-token' and " +
          'is recorded with source 9 TapToPay.',
        body: TokenBody,
        response: { 200: DeviceTokenView, ...ERRORS },
      },
    },
    async (request) => devices.issueToken(merchantOf(request).merchantId, request.body.deviceId),
  );
}
