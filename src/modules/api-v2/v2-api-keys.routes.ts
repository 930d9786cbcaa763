import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { MERCHANT_OR_PARTNER, tenantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import { EMPTY_OK } from './v2-empty.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const MERCHANT_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50';
const CLIENT_ID = '3f0c0b8e-2a57-4d7e-b3f4-8f5b1e0c9a11';

const KeyName = Type.String({ minLength: 1, maxLength: 100, description: 'A label for the key.' });
const CreateBody = Type.Object(
  {
    merchantId: Uuid('One of the partner’s merchants (a standalone merchant: its own id).'),
    name: Type.Optional(KeyName),
    apiKeyName: Type.Optional({ ...KeyName, description: 'The published name of `name`: one of them is required.' }),
  },
  {
    additionalProperties: false,
    examples: [
      { merchantId: MERCHANT_ID, name: 'Web shop' },
      { merchantId: MERCHANT_ID, apiKeyName: 'Web shop' },
    ],
  },
);

const Created = Type.Object(
  {
    clientId: Type.String(),
    clientSecret: Type.String({ description: 'Shown only in this response; stored hashed.' }),
  },
  { examples: [{ clientId: CLIENT_ID, clientSecret: 'kq3Vb9cP1sXh7m2Qw8eRt5yU0iO4pA6sD1fG3hJ5kL7' }] },
);

const ListQuery = Type.Object({
  merchantId: Type.Optional(Uuid('Only this merchant; a partner token without it lists all its merchants’ keys.')),
});

const KeyList = Type.Object(
  {
    apiKeys: Type.Array(
      Type.Object({
        clientId: Type.String(),
        merchantId: Uuid(),
        name: Type.String(),
        apiKeyName: Type.Optional(Type.String({ description: 'The published name of `name`.' })),
      }),
    ),
  },
  {
    examples: [
      { apiKeys: [{ clientId: CLIENT_ID, merchantId: MERCHANT_ID, name: 'Web shop', apiKeyName: 'Web shop' }] },
    ],
  },
);

/**
 * `/v2/api-keys`: merchant API keys under the version 2 names, with the rules of `/pay-api/v1/merchants/tokens`
 * (a partner token for its merchants, a standalone merchant's token for itself).
 */
export function v2ApiKeysRoutes(app: App, deps: { apiKeys: ApiKeysService }): void {
  const { apiKeys } = deps;
  const tags = ['Merchant API keys (v2)'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  app.post(
    '/v2/api-keys',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: 'Create an API key for a merchant',
        description: 'The secret is returned once and stored only as a hash.',
        body: CreateBody,
        response: { 200: Created, ...ERRORS },
      },
    },
    async (request) => {
      const { merchantId, name, apiKeyName } = request.body;
      if (name !== undefined && apiKeyName !== undefined && name !== apiKeyName) {
        throw ValidationError.field('apiKeyName', 'Send apiKeyName or name, not two different names.');
      }
      const label = apiKeyName ?? name;
      if (label === undefined) throw ValidationError.field('apiKeyName', 'The apiKeyName field is required.');
      const key = await apiKeys.createMerchantKey(tenantOf(request), merchantId, label);
      return { clientId: key.clientId, clientSecret: key.clientSecret };
    },
  );

  app.get(
    '/v2/api-keys',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: "List merchants' API keys",
        querystring: ListQuery,
        response: { 200: KeyList, ...ERRORS },
      },
    },
    async (request) => {
      const keys = await apiKeys.listMerchantKeys(tenantOf(request), request.query.merchantId);
      return {
        apiKeys: keys.map((k) => ({
          clientId: k.clientId,
          merchantId: k.merchantId!,
          name: k.name,
          apiKeyName: k.name,
        })),
      };
    },
  );

  app.delete(
    '/v2/api-keys/:clientId',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: 'Revoke an API key',
        description:
          'Its access and refresh tokens stop working on every node within a second. `merchantId` (the older ' +
          'revision) names the key’s merchant; without it (the published revision) a merchant token deletes its own ' +
          'key and a partner token one of its merchants’ keys. A repeat is 404. Answers 200 with an empty body.',
        params: Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Type.Object({ merchantId: Type.Optional(Uuid('The merchant that owns the key.')) }),
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      await apiKeys.deleteMerchantKey(tenantOf(request), request.params.clientId, request.query.merchantId);
      return reply.send();
    },
  );
}
