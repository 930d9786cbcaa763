// Tenancy, table-driven. Every route that takes an id must appear in CROSS_TENANT (the meta-test below fails
// otherwise), and every token route in TOKEN_KINDS. Later capabilities extend both tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startNode, type TestNode } from '../harness.js';

type Kind = 'merchant' | 'partner';

interface Owner {
  /** The merchant whose data is at stake (for partner cases: a merchant of that partner). */
  merchantId: string;
  partnerId: string | null;
  token: string;
}

interface CrossTenantCase {
  /** `METHOD /path/{param}` exactly as in the OpenAPI document. */
  route: string;
  caller: Kind;
  /** Creates the resource as the owner and returns what the request needs. */
  setup(t: TestNode, owner: Owner): Promise<Record<string, string>>;
  request(ids: Record<string, string>): { method: string; url: string; body?: unknown };
}

export const CROSS_TENANT: CrossTenantCase[] = [
  {
    route: 'DELETE /pay-api/v1/merchants/tokens/{clientId}',
    caller: 'partner',
    async setup(t, owner) {
      const key = await t.expectOk(
        t.request('POST', '/pay-api/v1/merchants/tokens', {
          token: owner.token,
          body: { merchantId: owner.merchantId, tokenName: 'k' },
        }),
      );
      return { clientId: key.clientId, merchantId: owner.merchantId };
    },
    request: (ids) => ({
      method: 'DELETE',
      url: `/pay-api/v1/merchants/tokens/${ids.clientId}?merchantId=${ids.merchantId}`,
    }),
  },
  {
    route: 'DELETE /pay-api/v1/merchants/tokens/{clientId}',
    caller: 'merchant',
    async setup(t, owner) {
      const key = await t.expectOk(
        t.request('POST', '/pay-api/v1/merchants/tokens', { token: owner.token, body: { tokenName: 'k' } }),
      );
      return { clientId: key.clientId, merchantId: owner.merchantId };
    },
    request: (ids) => ({
      method: 'DELETE',
      url: `/pay-api/v1/merchants/tokens/${ids.clientId}?merchantId=${ids.merchantId}`,
    }),
  },
  {
    route: 'GET /pay-api/v1/merchants/tokens?merchantId',
    caller: 'partner',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({ method: 'GET', url: `/pay-api/v1/merchants/tokens?merchantId=${ids.merchantId}` }),
  },
  {
    route: 'POST /pay-api/v1/merchants/tokens {merchantId}',
    caller: 'partner',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/merchants/tokens',
      body: { merchantId: ids.merchantId, tokenName: 'x' },
    }),
  },
  {
    route: 'POST /pay-api/v1/merchants/tokens {merchantId}',
    caller: 'merchant',
    setup: async (_t, owner) => ({ merchantId: owner.merchantId }),
    request: (ids) => ({
      method: 'POST',
      url: '/pay-api/v1/merchants/tokens',
      body: { merchantId: ids.merchantId, tokenName: 'x' },
    }),
  },
];

/** Which token kinds each bearer route accepts; the other kind must get 403. */
export const TOKEN_KINDS: Record<string, Kind[]> = {
  'GET /pay-api/v1/merchants': ['partner'],
  'GET /pay-api/v1/configurations/payments': ['merchant'],
  'GET /pay-api/v1/configurations/contact-infos': ['merchant'],
  'GET /pay-api/v1/configurations/states': ['merchant', 'partner'],
  'GET /pay-api/v1/merchants/tokens': ['merchant', 'partner'],
  'POST /pay-api/v1/merchants/tokens': ['merchant', 'partner'],
  'DELETE /pay-api/v1/merchants/tokens/{clientId}': ['merchant', 'partner'],
};

describe('tenancy', () => {
  let t: TestNode;
  let openapi: any;
  before(async () => {
    t = await startNode();
    openapi = (await t.request('GET', '/openapi.json')).body;
  });
  after(() => t.stop());

  async function tenantPair(kind: Kind): Promise<[Owner, Owner]> {
    const make = async (): Promise<Owner> => {
      if (kind === 'partner') {
        const partner = await t.partner();
        const merchant = await t.merchant({ partnerId: partner.id });
        return { merchantId: merchant.id, partnerId: partner.id, token: partner.token };
      }
      const merchant = await t.merchant();
      return { merchantId: merchant.id, partnerId: null, token: merchant.token };
    };
    return [await make(), await make()];
  }

  for (const [index, c] of CROSS_TENANT.entries()) {
    it(`${c.route} (${c.caller} token): another tenant's id answers 404, the owner's does not`, async () => {
      const [owner, stranger] = await tenantPair(c.caller);
      const ids = await c.setup(t, owner);
      const { method, url, body } = c.request(ids);
      const foreign = await t.request(method, url, { token: stranger.token, ...(body ? { body } : {}) });
      assert.equal(foreign.status, 404, `case ${index}: ${foreign.text}`);
      assert.equal(foreign.body.errorCode, 'N0000');
      const own = await t.request(method, url, { token: owner.token, ...(body ? { body } : {}) });
      assert.equal(own.status, 200, `case ${index}, as the owner: ${own.text}`);
    });
  }

  it('lists every bearer route that takes an id in the cross-tenant table', () => {
    const covered = new Set(CROSS_TENANT.map((c) => c.route.split(/[ ?]/).slice(0, 2).join(' ')));
    for (const [path, item] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const bearer = operation.security?.some((s: any) => 'bearer' in s);
        if (bearer && path.includes('{')) {
          assert.ok(
            covered.has(`${method.toUpperCase()} ${path}`),
            `${method.toUpperCase()} ${path} needs a cross-tenant case`,
          );
        }
      }
    }
  });

  it('lists every bearer route in the token-kind table', () => {
    const routes: string[] = [];
    for (const [path, item] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (operation.security?.some((s: any) => 'bearer' in s)) routes.push(`${method.toUpperCase()} ${path}`);
      }
    }
    assert.deepEqual(routes.sort(), Object.keys(TOKEN_KINDS).sort());
  });

  it('answers 403 to the wrong kind of token on every route', async () => {
    const partner = await t.partner();
    const merchant = await t.merchant({ partnerId: partner.id });
    const tokens: Record<Kind, string> = { partner: partner.token, merchant: merchant.token };
    for (const [route, allowed] of Object.entries(TOKEN_KINDS)) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace('{clientId}', merchant.clientId);
      for (const kind of ['merchant', 'partner'] as const) {
        if (allowed.includes(kind)) continue;
        const res = await t.request(method, url, { token: tokens[kind], ...(method === 'POST' ? { body: {} } : {}) });
        assert.equal(res.status, 403, `${route} with a ${kind} token`);
        assert.equal(res.body.errorCode, 'F0000');
      }
    }
  });
});
