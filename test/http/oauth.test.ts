import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { ADMIN_TOKEN, eventually, startNode, type TestNode } from '../harness.js';

type Listening = TestNode & { baseUrl: string };

async function discover(node: Listening, clientId: string, auth: oidc.ClientAuth) {
  return oidc.discovery(new URL(node.baseUrl), clientId, undefined, auth, {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests],
  });
}

function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

describe('token endpoint with a real OAuth 2.0 client (openid-client)', () => {
  let t: Listening;
  let merchant: Awaited<ReturnType<TestNode['merchant']>>;
  before(async () => {
    t = await startNode({ listen: true });
    merchant = await t.merchant();
  });
  after(() => t.stop());

  for (const [method, makeAuth] of [
    ['client_secret_basic', oidc.ClientSecretBasic],
    ['client_secret_post', oidc.ClientSecretPost],
  ] as const) {
    it(`issues a working access token with ${method}`, async () => {
      const config = await discover(t, merchant.clientId, makeAuth(merchant.clientSecret));
      const tokens = await oidc.clientCredentialsGrant(config);
      assert.equal(tokens.token_type, 'bearer');
      assert.equal(tokens.expires_in, 900);
      assert.equal(tokens.refresh_token, undefined);
      assert.equal(tokens.scope, undefined);
      const res = await fetch(`${t.baseUrl}/pay-api/v1/configurations/payments`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(res.status, 200);
    });
  }

  it('rotates refresh tokens and revokes the whole family when a spent one is reused', async () => {
    const config = await discover(t, merchant.clientId, oidc.ClientSecretBasic(merchant.clientSecret));
    const first = await oidc.clientCredentialsGrant(config, { scope: 'offline_access' });
    assert.equal(first.scope, 'offline_access');
    assert.ok(first.refresh_token);

    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    assert.ok(second.refresh_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.scope, 'offline_access');
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);

    const api = (token: string) =>
      fetch(`${t.baseUrl}/pay-api/v1/configurations/payments`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await api(third.access_token)).status, 200);

    // Reusing the spent first token is theft as far as we can tell: everything from this grant dies.
    await assert.rejects(oidc.refreshTokenGrant(config, first.refresh_token!), (error: any) => {
      assert.equal(error.error, 'invalid_grant');
      return true;
    });
    await assert.rejects(
      oidc.refreshTokenGrant(config, third.refresh_token!),
      (error: any) => error.error === 'invalid_grant',
    );
    assert.equal((await api(third.access_token)).status, 401, 'access tokens of a revoked family stop working');
    assert.equal((await api(second.access_token)).status, 401);

    // A grant without a refresh token is untouched.
    const plain = await oidc.clientCredentialsGrant(config);
    assert.equal((await api(plain.access_token)).status, 200);
  });

  it('decodes form-urlencoded Basic credentials (RFC 6749 §2.3.1)', async () => {
    const percentEncoded = [...merchant.clientSecret]
      .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
      .join('');
    const header = `Basic ${Buffer.from(`${merchant.clientId}:${percentEncoded}`).toString('base64')}`;
    const res = await t.tokenRequest({ grant_type: 'client_credentials' }, { authorization: header });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.body.token_type, 'Bearer');
    assert.ok(!('scope' in res.body), 'no scope field rather than null');
  });

  it('signs asymmetric JWTs with a kid, naming the environment and deployment', async () => {
    const res = await t.tokenRequest({
      grant_type: 'client_credentials',
      client_id: merchant.clientId,
      client_secret: merchant.clientSecret,
    });
    const [header, payload] = res.body.access_token
      .split('.')
      .slice(0, 2)
      .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    assert.equal(header.alg, 'EdDSA');
    assert.ok(header.kid);
    assert.equal(payload.iss, t.config.authBaseUrl);
    assert.match(payload.aud, /^tessera:sandbox:[0-9a-f-]{36}$/);
    assert.equal(payload.sub, merchant.clientId);
    assert.equal(payload.exp - payload.iat, 900);
    const jwks: any = await (await fetch(`${t.baseUrl}/.well-known/jwks.json`)).json();
    assert.ok(jwks.keys.some((k: any) => k.kid === header.kid && k.kty === 'OKP' && !('d' in k)));
  });

  it('refuses tokens with a forged algorithm (none, HS256)', async () => {
    const res = await t.tokenRequest({
      grant_type: 'client_credentials',
      client_id: merchant.clientId,
      client_secret: merchant.clientSecret,
    });
    const [header, payload] = res.body.access_token.split('.');
    const decodedHeader = JSON.parse(Buffer.from(header, 'base64url').toString());
    const none = `${Buffer.from(JSON.stringify({ ...decodedHeader, alg: 'none' })).toString('base64url')}.${payload}.`;
    const hsHeader = Buffer.from(JSON.stringify({ ...decodedHeader, alg: 'HS256' })).toString('base64url');
    const hs = `${hsHeader}.${payload}.${createHmac('sha256', 'public').update(`${hsHeader}.${payload}`).digest('base64url')}`;
    for (const forged of [none, hs]) {
      const api = await t.request('GET', '/pay-api/v1/configurations/payments', { token: forged });
      assert.equal(api.status, 401);
    }
  });

  it('answers every error case with the RFC 6749 shape', async () => {
    const id = merchant.clientId;
    const secret = merchant.clientSecret;
    const cases: Array<[string, Record<string, string>, Record<string, string>, number, string]> = [
      ['missing grant_type', { client_id: id, client_secret: secret }, {}, 400, 'invalid_request'],
      [
        'unsupported grant',
        { grant_type: 'password', client_id: id, client_secret: secret },
        {},
        400,
        'unsupported_grant_type',
      ],
      ['missing client_id', { grant_type: 'client_credentials' }, {}, 400, 'invalid_request'],
      ['missing secret', { grant_type: 'client_credentials', client_id: id }, {}, 401, 'invalid_client'],
      [
        'wrong secret',
        { grant_type: 'client_credentials', client_id: id, client_secret: `${secret}x` },
        {},
        401,
        'invalid_client',
      ],
      [
        'unknown client',
        { grant_type: 'client_credentials', client_id: 'nobody', client_secret: secret },
        {},
        401,
        'invalid_client',
      ],
      [
        'unknown scope',
        { grant_type: 'client_credentials', client_id: id, client_secret: secret, scope: 'admin' },
        {},
        400,
        'invalid_scope',
      ],
      [
        'refresh without token',
        { grant_type: 'refresh_token', client_id: id, client_secret: secret },
        {},
        400,
        'invalid_request',
      ],
      [
        'refresh with garbage',
        { grant_type: 'refresh_token', client_id: id, client_secret: secret, refresh_token: 'nope' },
        {},
        400,
        'invalid_grant',
      ],
      [
        'basic and body at once',
        { grant_type: 'client_credentials', client_id: id, client_secret: secret },
        { authorization: basic(id, secret) },
        400,
        'invalid_request',
      ],
    ];
    for (const [name, form, headers, status, error] of cases) {
      const res = await t.tokenRequest(form, headers);
      assert.equal(res.status, status, `${name}: ${res.text}`);
      assert.equal(res.body.error, error, name);
      assert.equal(typeof res.body.error_description, 'string', name);
      assert.equal(res.headers['www-authenticate'], undefined, `${name}: no challenge without Basic`);
    }
  });

  it('challenges with WWW-Authenticate when Basic credentials are wrong', async () => {
    const res = await t.tokenRequest(
      { grant_type: 'client_credentials' },
      { authorization: basic(merchant.clientId, 'wrong') },
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.match(String(res.headers['www-authenticate']), /^Basic /);
  });

  it('refuses malformed bodies, repeated parameters and GET', async () => {
    const json = await t.request('POST', '/oauth2/token', { body: { grant_type: 'client_credentials' } });
    assert.equal(json.status, 400);
    assert.equal(json.body.error, 'invalid_request');
    const repeated = await t.request('POST', '/oauth2/token', {
      payload: 'grant_type=client_credentials&grant_type=refresh_token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(repeated.status, 400);
    assert.equal(repeated.body.error, 'invalid_request');
    const get = await t.request('GET', '/oauth2/token');
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    assert.equal(get.body.error, 'invalid_request');
  });

  it('expires access tokens on the business clock', async () => {
    const m = await t.merchant();
    const ok = await t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token });
    assert.equal(ok.status, 200);
    await t.request('POST', '/admin/v1/clock/advance', { token: ADMIN_TOKEN, body: { seconds: 901 } });
    const expired = await t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token });
    assert.equal(expired.status, 401);
    assert.match(expired.body.details, /expired/);
  });

  it('refuses tokens and refreshes for a suspended merchant', async () => {
    const m = await t.merchant();
    await t.request('PATCH', `/admin/v1/merchants/${m.id}`, { token: ADMIN_TOKEN, body: { status: 'Suspended' } });
    // Refused as soon as the cached credential status expires (a bound of 500 ms).
    await eventually(
      async () => (await t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token })).status === 403,
      2000,
    );
    const res = await t.tokenRequest({
      grant_type: 'client_credentials',
      client_id: m.clientId,
      client_secret: m.clientSecret,
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'unauthorized_client');
  });
});

describe('sandbox and production tokens are not interchangeable', () => {
  let sandbox: TestNode;
  let production: TestNode;
  before(async () => {
    sandbox = await startNode();
    // Same database, other environment: only the environment differs, and that is enough.
    production = await startNode({
      database: sandbox.database,
      env: { TESSERA_ENV: 'production', PUBLIC_BASE_URL: 'https://payments.example.com' },
    });
  });
  after(async () => {
    await production.stop();
    await sandbox.stop();
  });

  it('rejects a sandbox token in production and the reverse', async () => {
    const merchant = await sandbox.merchant();
    const prodToken = (await production.token(merchant.clientId, merchant.clientSecret)).access_token;
    const path = '/pay-api/v1/configurations/payments';
    assert.equal((await sandbox.request('GET', path, { token: merchant.token })).status, 200);
    assert.equal((await production.request('GET', path, { token: prodToken })).status, 200);
    assert.equal((await production.request('GET', path, { token: merchant.token })).status, 401);
    assert.equal((await sandbox.request('GET', path, { token: prodToken })).status, 401);
  });
});
