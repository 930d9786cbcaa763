import Type from 'typebox';

const DEVICE_ID = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._:-]+$',
  description: 'The id the device reports (compared case-insensitively; stored lower-cased).',
});

export const DeviceIdParams = Type.Object({ deviceId: DEVICE_ID });
export const OperatorDeviceParams = Type.Object({ merchantId: Type.String({ format: 'uuid' }), deviceId: DEVICE_ID });

export const SaveDeviceBody = Type.Object(
  { deviceId: DEVICE_ID, deviceName: Type.String({ minLength: 1, maxLength: 100 }) },
  {
    additionalProperties: false,
    examples: [{ deviceId: '6f1d2a4b-5c60-4e1a-9b3c-0a1b2c3d4e5f', deviceName: 'Till 1' }],
  },
);

export const TokenBody = Type.Object(
  { deviceId: DEVICE_ID },
  { additionalProperties: false, examples: [{ deviceId: '6f1d2a4b-5c60-4e1a-9b3c-0a1b2c3d4e5f' }] },
);

const DEVICE_EXAMPLE = {
  id: '01936f6e-3f5b-5a21-9c3e-6f1d2a4b5c9d',
  deviceId: '6f1d2a4b-5c60-4e1a-9b3c-0a1b2c3d4e5f',
  deviceName: 'Till 1',
  lastLoginAt: '2026-11-24T10:00:00.000Z',
  tapToPayStatus: 'Active',
  tapToPayStatusId: 4,
  tapToPayEnabled: true,
  apiKeyName: 'Store app',
  userProfiles: [],
};

export const DeviceView = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: "The device in Tessera's records: its Tap to Pay payments carry it as `source.id`.",
    }),
    deviceId: Type.String({ description: 'The id the device reports.' }),
    deviceName: Type.String(),
    lastLoginAt: Type.String({ format: 'date-time' }),
    tapToPayStatus: Type.String({ description: 'Inactive, Requested, Approved, Active or Denied.' }),
    tapToPayStatusId: Type.Integer({ description: '1 Inactive, 2 Requested, 3 Approved, 4 Active, 5 Denied.' }),
    tapToPayEnabled: Type.Boolean({
      description: 'Approved or Active: the device may obtain a token and take payments.',
    }),
    apiKeyName: Type.Union([Type.String(), Type.Null()], { description: 'The API key that last saved the device.' }),
    userProfiles: Type.Array(
      Type.Object({
        id: Type.String(),
        firstName: Type.String(),
        lastName: Type.String(),
        email: Type.String(),
      }),
      {
        description:
          "The merchant's dashboard users who signed in on the device (through the dashboard's sign-in page opened " +
          'by its app with `?device=<deviceId>`), newest sign-in first.',
      },
    ),
  },
  { additionalProperties: false, examples: [DEVICE_EXAMPLE] },
);

export const DeviceListView = Type.Object(
  { devices: Type.Array(DeviceView) },
  { examples: [{ devices: [DEVICE_EXAMPLE] }] },
);

export const DeviceTokenView = Type.Object(
  {
    jwtToken: Type.String({ description: "Send it as 'x-device-token' with a Tap to Pay (cardDataSource 3) sale." }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  {
    examples: [
      {
        jwtToken: 'eyJhbGciOiJFZERTQSIsInR5cCI6InRhcC10by1wYXkrand0In0.e30.c2ln',
        expiresAt: '2026-11-24T10:20:00.000Z',
      },
    ],
  },
);
