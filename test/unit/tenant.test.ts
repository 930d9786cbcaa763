// The typed tenant of a request: what the route's policy admits and the auth hook verified, or a refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ForbiddenError } from '../../src/platform/http/errors.js';
import {
  MERCHANT_ONLY,
  MERCHANT_OR_PARTNER,
  merchantOf,
  PARTNER_ONLY,
  partnerOf,
  tenantOf,
} from '../../src/platform/http/principal.js';

const merchant = { kind: 'merchant' as const, clientId: 'c', merchantId: 'm', partnerId: null, permissions: [] };
const partner = { kind: 'partner' as const, clientId: 'c', partnerId: 'p', permissions: [] };
const request = (principal: typeof merchant | typeof partner | undefined, auth = MERCHANT_OR_PARTNER) => ({
  principal,
  routeOptions: { config: { auth } },
});

describe('the tenant of a request', () => {
  it('answers the caller the route admits, typed', () => {
    assert.equal(merchantOf(request(merchant, MERCHANT_ONLY)).merchantId, 'm');
    assert.equal(partnerOf(request(partner, PARTNER_ONLY)).partnerId, 'p');
    assert.equal(tenantOf(request(partner)).kind, 'partner');
    assert.equal(tenantOf(request(merchant)).kind, 'merchant');
  });

  it('refuses another kind of caller with a 403', () => {
    assert.throws(() => merchantOf(request(partner)), ForbiddenError);
    assert.throws(() => partnerOf(request(merchant)), ForbiddenError);
    assert.throws(() => tenantOf(request(undefined)), ForbiddenError);
  });

  it('is a programming error when the route does not admit the kind it reads', () => {
    assert.throws(() => partnerOf(request(partner, MERCHANT_ONLY)), /policy admits merchant/);
    assert.throws(() => merchantOf(request(merchant, 'operator' as never)), /policy admits/);
  });
});
