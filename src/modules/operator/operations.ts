import type { Static } from 'typebox';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { OperatorOperation } from '../manifest.js';
import { adminMerchantView, merchantChanges, merchantDraft } from '../merchants/merchants.mapper.js';
import { AdminMerchantView, CreateMerchantBody, UpdateMerchantBody } from '../merchants/merchants.schemas.js';
import type { Partner } from '../partners/partners.service.js';
import {
  AdvanceClockBody,
  ApiKeyCreatedView,
  ApiKeyDeletedView,
  ClientIdParams,
  ClockView,
  CreateApiKeyBody,
  CreatePartnerBody,
  IdParams,
  PartnerView,
} from './operator.schemas.js';

function partnerView(partner: Partner) {
  return { id: partner.id, name: partner.name, createdOn: partner.createdOn.toISOString() };
}

/**
 * The operator's own operations: partners, merchants, API keys and the business clock. Every module adds its own
 * (its manifest's `operations`); the operator API is all of them (src/modules/index.ts).
 */
export const OPERATOR_OPERATIONS: OperatorOperation[] = [
  {
    group: 'partners',
    verb: 'create',
    method: 'POST',
    path: '/admin/v1/partners',
    summary: 'Create a partner',
    body: CreatePartnerBody,
    response: PartnerView,
    idempotent: true,
    async run(ctx, { body }: { params: unknown; body: Static<typeof CreatePartnerBody> }) {
      return partnerView(await ctx.services.partners.createPartner({ name: body.name }));
    },
  },
  {
    group: 'partners',
    verb: 'get',
    method: 'GET',
    path: '/admin/v1/partners/:id',
    summary: 'Get a partner',
    params: IdParams,
    response: PartnerView,
    async run(ctx, { params }) {
      return partnerView(await ctx.services.partners.getPartner(params.id));
    },
  },
  {
    group: 'merchants',
    verb: 'create',
    method: 'POST',
    path: '/admin/v1/merchants',
    summary:
      'Create a merchant (in the sandbox with a default sandbox card and ACH processor; in production with none: add its processors)',
    body: CreateMerchantBody,
    response: AdminMerchantView,
    idempotent: true,
    async run(ctx, { body }) {
      return adminMerchantView(await ctx.services.merchants.createMerchant(merchantDraft(body)));
    },
  },
  {
    group: 'merchants',
    verb: 'get',
    method: 'GET',
    path: '/admin/v1/merchants/:id',
    summary: 'Get a merchant',
    params: IdParams,
    response: AdminMerchantView,
    async run(ctx, { params }) {
      return adminMerchantView(await ctx.services.merchants.getMerchant(params.id));
    },
  },
  {
    group: 'merchants',
    verb: 'update',
    method: 'PATCH',
    path: '/admin/v1/merchants/:id',
    summary:
      'Change a merchant (any of the create fields; settings and portfolio merge field by field, a null portfolio field follows the merchant again)',
    params: IdParams,
    body: UpdateMerchantBody,
    response: AdminMerchantView,
    async run(ctx, { params, body }) {
      return adminMerchantView(await ctx.services.merchants.updateMerchant(params.id, merchantChanges(body)));
    },
  },
  {
    group: 'api-keys',
    verb: 'create',
    method: 'POST',
    path: '/admin/v1/api-keys',
    summary: 'Create an API key for a merchant or a partner',
    body: CreateApiKeyBody,
    response: ApiKeyCreatedView,
    async run(ctx, { body }: { params: unknown; body: Static<typeof CreateApiKeyBody> }) {
      if ((body.merchantId === undefined) === (body.partnerId === undefined)) {
        throw new ValidationError({ merchantId: ['Exactly one of merchantId and partnerId is required.'] });
      }
      const owner = body.merchantId ? { merchantId: body.merchantId } : { partnerId: body.partnerId! };
      const key = await ctx.services.apiKeys.createKey(owner, body.name);
      return {
        clientId: key.clientId,
        clientSecret: key.clientSecret,
        merchantId: key.merchantId,
        partnerId: key.partnerId,
      };
    },
  },
  {
    group: 'api-keys',
    verb: 'delete',
    method: 'DELETE',
    path: '/admin/v1/api-keys/:clientId',
    summary: 'Delete an API key (its tokens stop working within a second on every node)',
    params: ClientIdParams,
    response: ApiKeyDeletedView,
    async run(ctx, { params }) {
      const key = await ctx.services.apiKeys.deleteKey(params.clientId);
      return { clientId: key.clientId, merchantId: key.merchantId, partnerId: key.partnerId, deleted: true };
    },
  },
  {
    group: 'clock',
    verb: 'get',
    method: 'GET',
    path: '/admin/v1/clock',
    summary: 'Current business time',
    response: ClockView,
    async run(ctx) {
      return { now: ctx.clock.now().toISOString() };
    },
  },
  {
    group: 'clock',
    verb: 'advance',
    method: 'POST',
    path: '/admin/v1/clock/advance',
    summary: 'Move business time forward (sandbox only); whatever became due runs at once',
    body: AdvanceClockBody,
    response: ClockView,
    sandboxOnly: true,
    async run(ctx, { body }) {
      if (!ctx.sharedClock) throw new NotFoundError('Route POST /admin/v1/clock/advance', null);
      const now = await ctx.sharedClock.advance(body.seconds);
      return { now: now.toISOString() };
    },
  },
];
