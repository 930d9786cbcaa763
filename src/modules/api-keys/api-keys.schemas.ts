import Type from 'typebox';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const CreateMerchantTokenBody = Type.Object(
  {
    merchantId: Type.Optional(Uuid('Required with a partner token; a standalone merchant may omit it (its own id).')),
    tokenName: Type.String({ minLength: 1, maxLength: 100, description: 'A label for the key.' }),
  },
  {
    additionalProperties: false,
    examples: [{ merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50', tokenName: 'Web shop' }],
  },
);

export const CreateMerchantTokenResponse = Type.Object(
  {
    clientId: Type.String(),
    clientSecret: Type.String({ description: 'Shown only in this response; store it now.' }),
  },
  {
    examples: [
      { clientId: '3f0c0b8e-2a57-4d7e-b3f4-8f5b1e0c9a11', clientSecret: 'kq3Vb9cP1sXh7m2Qw8eRt5yU0iO4pA6sD1fG3hJ5kL7' },
    ],
  },
);

export const ListMerchantTokensQuery = Type.Object({
  merchantId: Type.Optional(
    Uuid('Only this merchant; a partner token without it lists the keys of all its merchants.'),
  ),
});

export const MerchantTokenView = Type.Object({
  clientId: Type.String(),
  tokenName: Type.String(),
  merchantId: Uuid(),
  creationDate: Type.String({ format: 'date-time' }),
});

export const ListMerchantTokensResponse = Type.Object(
  { tokens: Type.Array(MerchantTokenView) },
  {
    examples: [
      {
        tokens: [
          {
            clientId: '3f0c0b8e-2a57-4d7e-b3f4-8f5b1e0c9a11',
            tokenName: 'Web shop',
            merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
            creationDate: '2026-11-21T10:00:00.000Z',
          },
        ],
      },
    ],
  },
);

export const DeleteMerchantTokenParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 100 }) });
export const DeleteMerchantTokenQuery = Type.Object({ merchantId: Uuid('The merchant that owns the key (required).') });

export const DeleteMerchantTokenResponse = Type.Object(
  { clientId: Type.String(), merchantId: Uuid(), tokenName: Type.String(), deleted: Type.Boolean() },
  {
    examples: [
      {
        clientId: '3f0c0b8e-2a57-4d7e-b3f4-8f5b1e0c9a11',
        merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
        tokenName: 'Web shop',
        deleted: true,
      },
    ],
  },
);
