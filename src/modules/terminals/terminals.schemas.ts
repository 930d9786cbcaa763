import Type from 'typebox';
import { ListParam, listQuerySchema, Paged } from '../../platform/http/paging.js';
import { TERMINAL_LIST } from './terminal-list.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const DateTime = () => Type.String({ format: 'date-time' });

const ManufacturerName = Type.Union([Type.Literal('Sunmi'), Type.Literal('Verifone')]);
const ModelName = Type.Union([
  Type.Literal('SunmiP2'),
  Type.Literal('SunmiP2LiteSe'),
  Type.Literal('VerifoneVictaMobile'),
  Type.Literal('VerifoneVictaPortable'),
  Type.Literal('SunmiP3H'),
]);

export const TerminalIdParams = Type.Object({ terminalId: Uuid() });
export const MerchantIdParams = Type.Object({ merchantId: Uuid() });

export const RegisterTerminalBody = Type.Object(
  {
    serialNumber: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    terminalManufacturer: ManufacturerName,
    terminalModel: ModelName,
    terminalModeId: Type.Integer({ minimum: 1, maximum: 2, description: '1 Standalone, 2 SemiIntegrated.' }),
    deliveryStatusId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3,
        description:
          '1 PendingShipment (default), 2 Shipping, 3 Active. A terminal turns Active when it first connects.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { serialNumber: 'P211220V00123', terminalManufacturer: 'Sunmi', terminalModel: 'SunmiP2', terminalModeId: 2 },
    ],
  },
);

export const UpdateTerminalBody = Type.Object(
  {
    terminalModeId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2, description: '1 Standalone, 2 SemiIntegrated.' }),
    ),
    deliveryStatusId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 4, description: '1 PendingShipment, 2 Shipping, 3 Active, 4 Inactive.' }),
    ),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ deliveryStatusId: 3 }] },
);

const terminalFields = {
  id: Uuid(),
  merchantId: Uuid(),
  serialNumber: Type.String(),
  terminalManufacturer: Type.String(),
  terminalModel: Type.String(),
  deliveryStatusId: Type.Integer(),
  deliveryStatusName: Type.String(),
  createdOn: DateTime(),
  modifiedOn: DateTime(),
  merchantCompanyName: Type.String(),
  terminalModeId: Type.Integer(),
  terminalModeName: Type.String(),
  connectionStatusId: Type.Integer({ description: '1 Online, 2 Offline.' }),
  connectionStatus: Type.String(),
  lastSeenTimestamp: Nullable(DateTime()),
};

const TERMINAL_EXAMPLE = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
  merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  serialNumber: 'P211220V00123',
  terminalManufacturer: 'Sunmi',
  terminalModel: 'SunmiP2',
  deliveryStatusId: 3,
  deliveryStatusName: 'Active',
  createdOn: '2026-11-24T10:00:00.000Z',
  modifiedOn: '2026-11-24T10:05:00.000Z',
  merchantCompanyName: 'Corner Coffee',
  terminalModeId: 2,
  terminalModeName: 'SemiIntegrated',
  connectionStatusId: 1,
  connectionStatus: 'Online',
  lastSeenTimestamp: '2026-11-24T10:05:00.000Z',
};

export const TerminalView = Type.Object(terminalFields, { examples: [TERMINAL_EXAMPLE] });

export const RegisteredTerminalView = Type.Object(
  {
    ...terminalFields,
    terminalSecret: Type.String({
      description: 'The terminal channel login with `serialNumber`. Shown once; only its hash is stored.',
    }),
  },
  {
    examples: [
      {
        ...TERMINAL_EXAMPLE,
        deliveryStatusId: 1,
        deliveryStatusName: 'PendingShipment',
        connectionStatusId: 2,
        connectionStatus: 'Offline',
        lastSeenTimestamp: null,
        terminalSecret: 'q0v8wJ3x2S1uYc7mT6nKfR4hB9eLpZaD5gXoVtNsWcE',
      },
    ],
  },
);

export const TerminalListQuery = listQuerySchema(TERMINAL_LIST, {
  deliveryStatusId: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  serialNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  manufacturerIds: ListParam('Manufacturers: 1 Sunmi, 2 Verifone.', { maxItems: 20, maxLength: 100 }),
  modelIds: ListParam(
    'Models: 1 SunmiP2, 2 SunmiP2LiteSe, 3 VerifoneVictaMobile, 4 VerifoneVictaPortable, 5 SunmiP3H.',
    { maxItems: 20, maxLength: 100 },
  ),
});

export const TerminalListResponse = Paged(TerminalView, { items: [TERMINAL_EXAMPLE], total: 1 });

export const TerminalStatusView = Type.Object(
  {
    terminalId: Uuid(),
    terminalPosStatus: Type.String({ description: 'Active, Busy (a POS transaction in progress) or Offline.' }),
    connectionStatus: Type.String({ description: 'Online or Offline.' }),
    connectionType: Nullable(Type.String({ description: 'WiFi, Mobile or Ethernet; null when offline.' })),
    wifiConnectionStrength: Nullable(Type.Integer()),
    mobileConnectionStrength: Nullable(Type.Integer()),
    batteryLevel: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    availabilityStatus: Nullable(Type.String({ description: 'Ready or Busy; null when offline.' })),
    ariseTerminalVersion: Nullable(Type.String()),
    printerStatus: Nullable(Type.String({ description: 'Normal, NotNormal (e.g. out of paper) or NotSupported.' })),
    lastSeenTimestamp: Nullable(DateTime()),
  },
  {
    description:
      'What the terminal last reported. Offline (no node holds its socket): what it cannot know now reads null.',
    examples: [
      {
        terminalId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
        terminalPosStatus: 'Active',
        connectionStatus: 'Online',
        connectionType: 'WiFi',
        wifiConnectionStrength: 80,
        mobileConnectionStrength: null,
        batteryLevel: 76,
        availabilityStatus: 'Ready',
        ariseTerminalVersion: '1.4.0',
        printerStatus: 'Normal',
        lastSeenTimestamp: '2026-11-24T10:05:00.000Z',
      },
    ],
  },
);
