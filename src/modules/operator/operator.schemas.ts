import Type from 'typebox';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const CreatePartnerBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, examples: [{ name: 'Acme Software' }] },
);

export const PartnerView = Type.Object(
  { id: Uuid(), name: Type.String(), createdOn: Type.String({ format: 'date-time' }) },
  {
    examples: [
      { id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c40', name: 'Acme Software', createdOn: '2026-11-21T10:00:00.000Z' },
    ],
  },
);

export const IdParams = Type.Object({ id: Uuid() });

export const CreateApiKeyBody = Type.Object(
  {
    merchantId: Type.Optional(Uuid('Exactly one of merchantId and partnerId.')),
    partnerId: Type.Optional(Uuid('Exactly one of merchantId and partnerId.')),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  {
    additionalProperties: false,
    examples: [{ merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50', name: 'Integration tests' }],
  },
);

export const ApiKeyCreatedView = Type.Object(
  {
    clientId: Type.String(),
    clientSecret: Type.String({ description: 'Shown only in this response.' }),
    merchantId: Type.Union([Uuid(), Type.Null()]),
    partnerId: Type.Union([Uuid(), Type.Null()]),
  },
  {
    examples: [
      {
        clientId: '3f0c0b8e-2a57-4d7e-b3f4-8f5b1e0c9a11',
        clientSecret: 'kq3Vb9cP1sXh7m2Qw8eRt5yU0iO4pA6sD1fG3hJ5kL7',
        merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
        partnerId: null,
      },
    ],
  },
);

export const ClientIdParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 100 }) });

export const ApiKeyDeletedView = Type.Object(
  {
    clientId: Type.String(),
    merchantId: Type.Union([Uuid(), Type.Null()]),
    partnerId: Type.Union([Uuid(), Type.Null()]),
    deleted: Type.Boolean(),
  },
  {
    examples: [
      {
        clientId: '3f0c0b8e-2a57-4d7e-b3f4-8f5b1e0c9a11',
        merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
        partnerId: null,
        deleted: true,
      },
    ],
  },
);

export const ClockView = Type.Object(
  { now: Type.String({ format: 'date-time' }) },
  { examples: [{ now: '2026-11-21T10:00:00.000Z' }] },
);

export const AdvanceClockBody = Type.Object(
  {
    seconds: Type.Integer({
      minimum: 1,
      maximum: 10 * 366 * 86_400,
      description: 'How far to move business time forward (whole seconds, at most ten years per call).',
    }),
  },
  { additionalProperties: false, examples: [{ seconds: 3600 }] },
);
