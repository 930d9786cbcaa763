import Type, { type Static } from 'typebox';
import { multiline } from '../../platform/http/validation.js';
import { ProcessorSupports, SettlementTimeSlotSchema } from '../merchants/merchants.schemas.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const MerchantParams = Type.Object({ merchantId: Uuid() });
export const ProcessorParams = Type.Object({ merchantId: Uuid(), processorId: Uuid() });

const Settings = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "The connector's settings (docs/connectors.md). Adyen: `merchantAccount`, `baseUrl`, `apiVersion` (71), " +
    '`captureMode` (immediate | delayed) and `captureDelayHours`.',
});

const Credentials = Type.Record(Type.String(), multiline(Type.String()), {
  description:
    "The connector's credentials, sealed at once and never shown again. Adyen: `apiKey`, `hmacKey`, " +
    '`notificationUsername`, `notificationPassword`. nacha-sftp: `privateKey` (OpenSSH) or `password`, and ' +
    'optionally `pgpPrivateKey` and `bankPgpPublicKey` (armored). Multi-line values keep their line breaks.',
});

const EXAMPLE_SETTINGS = {
  merchantAccount: 'AcmeShopUS',
  baseUrl: 'https://checkout-test.adyen.com',
  apiVersion: 71,
  captureMode: 'immediate',
};

export const CreateProcessorBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    typeId: Type.Integer({ description: 'PaymentProcessorType: 1 card, 2 ACH; must be the connector’s.' }),
    connector: Type.String({ description: 'adyen (card). In the sandbox also sandbox-card and sandbox-ach.' }),
    isDefault: Type.Optional(Type.Boolean({ description: 'Becomes the default of its method (default false).' })),
    settlementBatchTimeSlots: Type.Optional(
      Type.Array(SettlementTimeSlotSchema, {
        maxItems: 24,
        description: 'When the open batch closes each day (default 22:00 America/New_York).',
      }),
    ),
    settings: Type.Optional(Settings),
    credentials: Type.Optional(Credentials),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Adyen US',
        typeId: 1,
        connector: 'adyen',
        isDefault: true,
        settings: EXAMPLE_SETTINGS,
        credentials: {
          apiKey: 'AQE...your-api-key',
          hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
          notificationUsername: 'adyen-notifications',
          notificationPassword: 'a-long-random-password',
        },
      },
    ],
  },
);
export type CreateProcessorBody = Static<typeof CreateProcessorBody>;

export const UpdateProcessorBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    isDefault: Type.Optional(Type.Literal(true, { description: 'Makes it the default of its method.' })),
    statusId: Type.Optional(
      Type.Union([Type.Literal(1), Type.Literal(2)], { description: 'PaymentProcessorStatus: 1 Active, 2 Inactive.' }),
    ),
    settlementBatchTimeSlots: Type.Optional(Type.Array(SettlementTimeSlotSchema, { maxItems: 24 })),
    settings: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Merged field by field.' })),
    credentials: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'The credentials that change (a new version; the others carry over).',
      }),
    ),
    credentialOverlapHours: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 720,
        description:
          'How long the replaced HMAC key and notification credentials still verify notifications (default 24).',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ credentials: { hmacKey: 'D4A7B3E2C1F0...64 hexadecimal characters' }, credentialOverlapHours: 24 }],
  },
);
export type UpdateProcessorBody = Static<typeof UpdateProcessorBody>;

const CredentialState = Type.Object({
  isSet: Type.Boolean(),
  version: Type.Union([Type.Integer(), Type.Null()], { description: 'The credentials version that set it.' }),
  lastFour: Type.Union([Type.String(), Type.Null()], { description: 'Its last four characters.' }),
});

const EXAMPLE_PROCESSOR = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70',
  merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  name: 'Adyen US',
  typeId: 1,
  type: 'Adyen',
  connector: 'adyen',
  isDefault: true,
  statusId: 1,
  status: 'Active',
  settlementBatchTimeSlots: [{ hours: 22, minutes: 0, timezoneName: 'America/New_York' }],
  settings: EXAMPLE_SETTINGS,
  supports: {
    transactionTypes: ['Sale', 'Authorization', 'CardAuthentication', 'Capture', 'Void', 'Refund', 'TipAdjustment'],
    cardPresent: false,
    tipAdjustment: 'before-capture',
    asynchronousModifications: true,
  },
  credentials: {
    apiKey: { isSet: true, version: 1, lastFour: 'abcd' },
    hmacKey: { isSet: true, version: 2, lastFour: 'A056' },
    notificationUsername: { isSet: true, version: 1, lastFour: 'ions' },
    notificationPassword: { isSet: true, version: 1, lastFour: 'word' },
  },
  notificationUrlPath: '/connectors/adyen/01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70/notifications',
};

export const ProcessorView = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid(),
    name: Type.String(),
    typeId: Type.Integer(),
    type: Type.String(),
    connector: Type.String(),
    isDefault: Type.Boolean(),
    statusId: Type.Integer({ description: '1 Active, 2 Inactive.' }),
    status: Type.String(),
    settlementBatchTimeSlots: Type.Array(SettlementTimeSlotSchema),
    settings: Type.Record(Type.String(), Type.Unknown()),
    supports: Type.Union([ProcessorSupports, Type.Null()], {
      description: 'What a card processor can do; null for ACH.',
    }),
    credentials: Type.Union([Type.Record(Type.String(), CredentialState), Type.Null()], {
      description: 'Each credential as set or unset, never its value; null when the connector takes none.',
    }),
    notificationUrlPath: Type.Union([Type.String(), Type.Null()], {
      description: 'Where the processor sends its notifications (on PUBLIC_BASE_URL); null when it sends none.',
    }),
  },
  { examples: [EXAMPLE_PROCESSOR] },
);

export const ProcessorList = Type.Object(
  { items: Type.Array(ProcessorView), total: Type.Integer() },
  { examples: [{ items: [EXAMPLE_PROCESSOR], total: 1 }] },
);
