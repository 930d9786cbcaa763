// The partner portfolio API's authentication and envelope: identity tokens from an independent issuer (a jose key pair
// published on a loopback JWKS) and from the built-in provider, every rejection the rules name, the header rules,
// unknown subjects, the {data, meta, errors} envelope on every answer, /me, /rate-limit and its 429.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { startNode, startOfFreshMinute, type TestNode } from '../harness.js';

type SigningKey = Parameters<SignJWT['sign']>[0];

const AUDIENCE = 'https://partner.test';
const ISSUER = 'https://issuer.test';

describe('partner API: identity tokens and the envelope', () => {
  let t: TestNode;
  let jwks: Server;
  let privateKey: SigningKey;
  let publicJwk: JWK;
  let systemPrincipal: { id: string };

  const sign = (
    claims: Record<string, unknown>,
    options: { kid?: string; alg?: string; key?: SigningKey; ttl?: number; iat?: number } = {},
  ) => {
    const now = Math.floor(Date.now() / 1000);
    const iat = options.iat ?? now;
    const jwt = new SignJWT({ ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? 'k1' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + (options.ttl ?? 600));
    if (!('iss' in claims)) jwt.setIssuer(ISSUER);
    if (!('aud' in claims)) jwt.setAudience(AUDIENCE);
    return jwt.sign(options.key ?? privateKey);
  };
  const call = (path: string, token?: string, headers: Record<string, string> = {}) =>
    t.request('GET', `/api/partner${path}`, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
  const expectError = async (pending: ReturnType<typeof call>, status: number, code: string) => {
    const res = await pending;
    assert.equal(res.status, status, res.text);
    assert.equal(res.body.data, null);
    assert.equal(res.body.meta.api_version, 'v1');
    assert.ok(res.body.meta.request_id);
    assert.equal(res.body.errors[0].code, code, res.text);
  };

  before(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    t = await startNode({
      env: {
        PARTNER_BASE_URL: AUDIENCE,
        PARTNER_IDENTITY_ISSUERS: JSON.stringify([{ issuer: ISSUER, jwksUri: `http://127.0.0.1:${port}/jwks` }]),
        PARTNER_RATE_LIMIT_BURST_PER_10S: '5',
      },
    });
    systemPrincipal = await t.expectOk(
      t.admin('POST', '/admin/v1/partner-principals', {
        issuer: ISSUER,
        subject: 'svc-1',
        label: 'Reporting',
        system: true,
      }),
    );
  });
  after(async () => {
    await t?.stop();
    await new Promise<void>((resolve) => jwks.close(() => resolve()));
  });

  it('answers health without a token, in the envelope', async () => {
    const res = await call('/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.errors, []);
    assert.equal(res.body.data.status, 'ok');
    assert.equal(res.body.data.database, 'ok');
    assert.match(res.body.data.version, /^\d+\.\d+\.\d+/);
    assert.ok(res.body.meta.timestamp);
  });

  it('accepts an independent issuer’s token and identifies the caller by sub', async () => {
    const res = await call('/me', await sign({ sub: 'svc-1', email: 'someone-else@example.com' }));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.errors, []);
    const me = res.body.data;
    assert.equal(me.principal_id, systemPrincipal.id);
    assert.equal(me.principal_type, 'idp_service_account');
    assert.equal(me.organization_id, null);
    assert.deepEqual(me.scope, { kind: 'system', organization_id: null });
    assert.deepEqual(me.permissions, ['partner:read']);
    assert.equal(me.rate_limits.standard_per_minute, 1200);
    assert.equal(me.rate_limits.burst_per_10_seconds, 5);
    assert.ok(res.body.meta.as_of);
  });

  it('refuses a principal without a subject or with both scopes', async () => {
    const blank = await t.admin('POST', '/admin/v1/partner-principals', { subject: '  ', system: true });
    assert.equal(blank.status, 400);
    assert.ok(blank.body.errors.subject);
    const both = await t.admin('POST', '/admin/v1/partner-principals', { subject: 'x', system: false });
    assert.equal(both.status, 400);
    assert.ok(both.body.errors.partnerId);
  });

  it('mints tokens with the built-in provider for a partner-scoped principal', async () => {
    const discovery = await t.request('GET', '/idp/.well-known/openid-configuration');
    assert.equal(discovery.body.jwks_uri, `${discovery.body.issuer}/jwks.json`);
    const keys = await t.request('GET', '/idp/jwks.json');
    assert.equal(keys.body.keys[0].crv, 'Ed25519');
    const partner = await t.expectOk(t.admin('POST', '/admin/v1/partners', { name: 'Portfolio Co' }));
    const principal = await t.expectOk(
      t.admin('POST', '/admin/v1/partner-principals', { subject: 'portfolio-bot', partnerId: partner.id }),
    );
    assert.equal(principal.issuer, discovery.body.issuer);
    const minted = await t.expectOk(
      t.admin('POST', '/admin/v1/sandbox/identity-tokens', { principalId: principal.id }),
    );
    const me = await call('/me', minted.token);
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body.data.scope, { kind: 'organization', organization_id: partner.id });
    assert.equal(me.body.data.organization_name, 'Portfolio Co');
    const elsewhere = await t.expectOk(
      t.admin('POST', '/admin/v1/sandbox/identity-tokens', {
        principalId: principal.id,
        audience: 'http://localhost:8080',
      }),
    );
    await expectError(call('/me', elsewhere.token), 401, 'invalid_audience');
    assert.equal(
      (await t.admin('POST', '/admin/v1/sandbox/identity-tokens', { principalId: systemPrincipal.id })).status,
      400,
    );
  });

  it('rejects every bad token with a 401 in the envelope', async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await generateKeyPair('RS256', { extractable: true });
    await expectError(call('/me'), 401, 'unauthorized');
    await expectError(call('/me', 'not-a-jwt'), 401, 'invalid_token');
    await expectError(call('/me', await sign({ sub: 'svc-1' }, { iat: now - 7200, ttl: 600 })), 401, 'token_expired');
    const notYet = await new SignJWT({ sub: 'svc-1' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setNotBefore(now + 600)
      .setExpirationTime(now + 1200)
      .sign(privateKey);
    await expectError(call('/me', notYet), 401, 'invalid_token');
    await expectError(call('/me', await sign({ sub: 'svc-1', aud: 'https://other.test' })), 401, 'invalid_audience');
    await expectError(call('/me', await sign({ sub: 'svc-1', iss: 'https://evil.test' })), 401, 'invalid_token');
    await expectError(
      call('/me', await sign({ sub: 'svc-1' }, { kid: 'unknown', key: other.privateKey })),
      401,
      'invalid_token',
    );
    await expectError(call('/me', await sign({ sub: 'svc-1' }, { key: other.privateKey })), 401, 'invalid_token');
    await expectError(call('/me', await sign({ sub: 'svc-1' }, { ttl: 3 * 3600 })), 401, 'invalid_token');
    // alg none, and HS256 keyed with the public key (the classic confusion).
    const header = (alg: string) => Buffer.from(JSON.stringify({ alg, kid: 'k1', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ sub: 'svc-1', iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600 }),
    ).toString('base64url');
    await expectError(call('/me', `${header('none')}.${body}.`), 401, 'invalid_token');
    const hs = await new SignJWT({ sub: 'svc-1' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    await expectError(call('/me', hs), 401, 'invalid_token');
    // An email claim never identifies the caller.
    const emailOnly = await new SignJWT({ email: 'svc-1@example.com' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(privateKey);
    await expectError(call('/me', emailOnly), 401, 'invalid_token');
    await expectError(call('/me', await sign({ sub: 'nobody' })), 403, 'unknown_principal');
  });

  it('applies the header rules', async () => {
    const good = await sign({ sub: 'svc-1' });
    await expectError(
      call('/me', undefined, { 'x-serverless-authorization': `Bearer ${good}` }),
      401,
      'header_not_accepted',
    );
    await expectError(
      call('/me', good, { 'x-serverless-authorization': `Bearer ${good}` }),
      400,
      'conflicting_headers',
    );
    await expectError(call('/me', undefined, { 'x-partner-api-key': 'pk_live_123' }), 401, 'header_not_accepted');
    await expectError(call('/me', good, { 'x-partner-api-key': 'pk_live_123' }), 401, 'header_not_accepted');
    await expectError(call('/nowhere', good), 404, 'not_found');
  });

  it('documents the fields of /me and /rate-limit in /openapi.json, and answers exactly them', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const token = await sign({ sub: 'svc-1' });
    for (const [path, sample] of [
      ['/me', ['principal_id', 'rate_limits', 'scope', 'permissions']],
      ['/rate-limit', ['organization_id', 'principal', 'default_limits', 'keys']],
    ] as const) {
      const data =
        doc.paths[`/api/partner${path}`].get.responses['200'].content['application/json'].schema.properties.data;
      assert.equal(data.additionalProperties, false, path);
      for (const field of sample) assert.ok(data.properties?.[field], `${path}: ${field} documented`);
      const answer = await call(path, token);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(Object.keys(answer.body.data).sort(), Object.keys(data.properties).sort(), path);
      assert.deepEqual(Object.keys(answer.body.data).sort(), [...data.required].sort(), `${path}: every field present`);
    }
  });

  it('reports the live window and refuses past the burst limit with a 429 in the envelope', async () => {
    await t.expectOk(
      t.admin('POST', '/admin/v1/partner-principals', { issuer: ISSUER, subject: 'busy', system: true }),
    );
    // A fixed 10 s window must not roll over between the first request and the refusal.
    await startOfFreshMinute(t);
    const token = await sign({ sub: 'busy' });
    const first = await call('/rate-limit', token);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.source, 'live');
    assert.deepEqual(first.body.data.keys, []);
    assert.equal(first.body.data.principal.standard.used, 1);
    assert.equal(first.body.data.principal.burst.limit, 5);
    assert.equal(first.body.data.principal.endpoint_limits.ai.limit, 5);
    for (let n = 0; n < 4; n++) assert.equal((await call('/me', token)).status, 200);
    const refused = await call('/me', token);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errors[0].code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.ok(refused.headers['x-ratelimit-limit']);
    assert.ok(refused.headers['x-ratelimit-reset']);
  });
});
