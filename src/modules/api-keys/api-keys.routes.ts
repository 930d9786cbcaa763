import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { MERCHANT_OR_PARTNER, tenantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import {
  CreateMerchantTokenBody,
  CreateMerchantTokenResponse,
  DeleteMerchantTokenParams,
  DeleteMerchantTokenQuery,
  DeleteMerchantTokenResponse,
  ListMerchantTokensQuery,
  ListMerchantTokensResponse,
} from './api-keys.schemas.js';
import type { ApiKeysService } from './api-keys.service.js';

/** What these routes use. */
export interface ApiKeysRouteDeps {
  apiKeys: ApiKeysService;
}

export function apiKeysRoutes(app: App, deps: ApiKeysRouteDeps): void {
  const { apiKeys } = deps;
  const tags = ['Merchant API keys'];

  app.post(
    '/pay-api/v1/merchants/tokens',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: 'Create an API key for a merchant',
        description:
          "A partner token creates keys for its merchants; a standalone merchant's token for itself. A merchant that " +
          'belongs to a partner gets 403. The secret is returned once and stored only as a hash.',
        body: CreateMerchantTokenBody,
        response: { 200: CreateMerchantTokenResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const key = await apiKeys.createMerchantKey(tenantOf(request), request.body.merchantId, request.body.tokenName);
      return { clientId: key.clientId, clientSecret: key.clientSecret };
    },
  );

  app.get(
    '/pay-api/v1/merchants/tokens',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: "List a merchant's API keys",
        querystring: ListMerchantTokensQuery,
        response: { 200: ListMerchantTokensResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const keys = await apiKeys.listMerchantKeys(tenantOf(request), request.query.merchantId);
      return {
        tokens: keys.map((k) => ({
          clientId: k.clientId,
          tokenName: k.name,
          merchantId: k.merchantId!,
          creationDate: k.createdAt.toISOString(),
        })),
      };
    },
  );

  app.delete(
    '/pay-api/v1/merchants/tokens/:clientId',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags,
        summary: 'Delete a merchant API key',
        description:
          'Its access and refresh tokens stop working on every node within a second. `merchantId` is required; ' +
          'deleting twice gives 404.',
        params: DeleteMerchantTokenParams,
        querystring: DeleteMerchantTokenQuery,
        response: { 200: DeleteMerchantTokenResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const key = await apiKeys.deleteMerchantKey(tenantOf(request), request.params.clientId, request.query.merchantId);
      return { clientId: key.clientId, merchantId: key.merchantId!, tokenName: key.name, deleted: true };
    },
  );
}
