// The operator's payment processors (docs/connectors.md): created with a connector's settings and credentials, which
// are validated, sealed under the merchant's data key and never shown again; listed with each credential only as
// set or unset; changed, rotated (the replaced notification credentials keep working for the overlap) and disabled.
// Production refuses the sandbox's simulators and plain http.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENCRYPTION_KEY, eventually, type MerchantTenant, startNode, type TestNode } from '../harness.js';

const HMAC_1 = `${'A'.repeat(60)}1111`;
const HMAC_2 = `${'B'.repeat(60)}2222`;
const CREDENTIALS = {
  apiKey: 'AQEtest-api-key-0001-wxyz',
  hmacKey: HMAC_1,
  notificationUsername: 'adyen-notifier',
  notificationPassword: 'notification-password-1',
};
const CARD = { accountNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2031, securityCode: '123' };
const SETTINGS = { merchantAccount: 'AcmeShopUS', baseUrl: 'http://127.0.0.1:9' };

function adyen(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Adyen US',
    typeId: 1,
    connector: 'adyen',
    settings: SETTINGS,
    credentials: CREDENTIALS,
    ...overrides,
  };
}

describe('payment processors (operator API)', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const path = () => `/admin/v1/merchants/${m.id}/processors`;

  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t.stop());

  it('adds an Adyen processor and never shows or stores a credential in the clear', async () => {
    const created = await t.admin('POST', path(), adyen({ isDefault: true }));
    assert.equal(created.status, 200, created.text);
    const p = created.body;
    assert.equal(p.connector, 'adyen');
    assert.equal(p.type, 'Adyen');
    assert.equal(p.isDefault, true);
    assert.deepEqual(p.settings, { ...SETTINGS, apiVersion: 71, captureMode: 'immediate' });
    assert.deepEqual(p.credentials.apiKey, { isSet: true, version: 1, lastFour: 'wxyz' });
    assert.deepEqual(p.credentials.hmacKey, { isSet: true, version: 1, lastFour: '1111' });
    assert.equal(p.notificationUrlPath, `/connectors/adyen/${p.id}/notifications`);
    assert.deepEqual(p.supports.transactionTypes, [
      'Sale',
      'Authorization',
      'CardAuthentication',
      'Capture',
      'Void',
      'Refund',
      'TipAdjustment',
    ]);
    assert.equal(p.supports.cardPresent, false);

    const secrets = Object.values(CREDENTIALS).filter((v) => v !== 'adyen-notifier');
    const shown = [created.text, (await t.admin('GET', path())).text, (await t.admin('GET', `${path()}/${p.id}`)).text];
    for (const text of shown) for (const secret of secrets) assert.ok(!text.includes(secret), 'a credential is shown');
    const [row] = await t.query<{ secret_sealed: Buffer; hints: object }>(
      'SELECT secret_sealed, hints FROM processor_credentials WHERE processor_id = $1',
      [p.id],
    );
    for (const secret of secrets) assert.ok(!row!.secret_sealed.toString('latin1').includes(secret));
    assert.ok(!JSON.stringify(row!.hints).includes(CREDENTIALS.apiKey));
    for (const line of t.logs)
      for (const secret of secrets) assert.ok(!line.includes(secret), 'a credential is logged');

    // The old default card processor is not the default any more; the new one is what payments use by default.
    const config = await t.ok(m, 'GET', '/pay-api/v1/configurations/payments');
    const card = config.availablePaymentProcessors.filter((x: { typeId: number }) => x.typeId === 1);
    assert.deepEqual(
      card.map((x: { id: string; isDefault: boolean }) => [x.id === p.id, x.isDefault]),
      [
        [true, true],
        [false, false],
      ],
    );

    const access = await t.ctx.services.processors.access(p.id);
    assert.deepEqual(access.credentials, CREDENTIALS);
  });

  it('refuses what the connector does not take, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [adyen({ connector: 'stripe' }), 'connector', /not a connector/],
      [adyen({ typeId: 2 }), 'typeId', /of type 1/],
      [adyen({ settings: { baseUrl: SETTINGS.baseUrl } }), 'settings.merchantAccount', /required/],
      [adyen({ settings: { ...SETTINGS, region: 'eu' } }), 'settings.region', /not a known field/],
      [adyen({ settings: { ...SETTINGS, baseUrl: 'http://adyen.example.com' } }), 'settings.baseUrl', /https/],
      [adyen({ settings: { ...SETTINGS, apiVersion: 68 } }), 'settings.apiVersion', /version 71/],
      [adyen({ settings: { ...SETTINGS, captureMode: 'delayed' } }), 'settings.captureDelayHours', /needs/],
      [adyen({ credentials: { ...CREDENTIALS, hmacKey: 'nothex' } }), 'credentials.hmacKey', /pattern/],
      [adyen({ credentials: { apiKey: CREDENTIALS.apiKey } }), 'credentials.hmacKey', /required/],
      [{ ...adyen(), connector: 'sandbox-card', settings: {} }, 'credentials', /takes no credentials/],
    ];
    for (const [body, field, message] of cases) {
      const answer = await t.admin('POST', path(), body);
      assert.equal(answer.status, 400, `${field}: ${answer.text}`);
      assert.match(answer.body.errors[field]?.[0] ?? '', message, `${field}: ${answer.text}`);
      for (const secret of [CREDENTIALS.apiKey, CREDENTIALS.notificationPassword]) {
        assert.ok(!answer.text.includes(secret), 'an error shows a credential');
      }
    }
  });

  it('rotates credentials by version: the replaced ones still verify for the overlap, then not', async () => {
    const p = (await t.expectOk(t.admin('POST', path(), adyen({ name: 'Rotating' })))) as { id: string };
    const rotated = await t.admin('PATCH', `${path()}/${p.id}`, { credentials: { hmacKey: HMAC_2 } });
    assert.equal(rotated.status, 200, rotated.text);
    assert.deepEqual(rotated.body.credentials.hmacKey, { isSet: true, version: 2, lastFour: '2222' });
    assert.deepEqual(rotated.body.credentials.apiKey, { isSet: true, version: 1, lastFour: 'wxyz' });

    const usable = await t.ctx.services.processors.usableCredentials(p.id);
    assert.deepEqual(
      usable?.versions.map((v) => v.hmacKey),
      [HMAC_2, HMAC_1],
    );
    assert.equal((await t.ctx.services.processors.access(p.id)).credentials?.hmacKey, HMAC_2);

    // An overlap of 0 retires the replaced version at once.
    await t.expectOk(
      t.admin('PATCH', `${path()}/${p.id}`, {
        credentials: { notificationPassword: 'notification-password-3' },
        credentialOverlapHours: 0,
      }),
    );
    const after3 = await t.ctx.services.processors.usableCredentials(p.id);
    assert.deepEqual(
      after3?.versions.map((v) => v.notificationPassword),
      ['notification-password-3', CREDENTIALS.notificationPassword],
      'version 1 is still inside its own 24-hour overlap; version 2 is not',
    );
    await t.advanceClock(25 * 3600, m);
    const later = await t.ctx.services.processors.usableCredentials(p.id);
    assert.equal(later?.versions.length, 1);

    const bad = await t.admin('PATCH', `${path()}/${p.id}`, { credentials: { hmacKey: 'short' } });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors['credentials.hmacKey']);
    const lonely = await t.admin('PATCH', `${path()}/${p.id}`, { credentialOverlapHours: 2 });
    assert.equal(lonely.status, 400);
  });

  it('changes settings field by field and disables a processor; payments then refuse it', async () => {
    const p = (await t.expectOk(t.admin('POST', path(), adyen({ name: 'To disable' })))) as { id: string };
    const changed = await t.admin('PATCH', `${path()}/${p.id}`, {
      settings: { captureMode: 'delayed', captureDelayHours: 48 },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.settings.merchantAccount, 'AcmeShopUS');
    assert.equal(changed.body.settings.captureDelayHours, 48);

    await t.expectOk(t.admin('PATCH', `${path()}/${p.id}`, { statusId: 2 }));
    const config = await t.ok(m, 'GET', '/pay-api/v1/configurations/payments');
    assert.ok(!config.availablePaymentProcessors.some((x: { id: string }) => x.id === p.id));
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      body: { paymentProcessorId: p.id, amount: 10, ...CARD },
    });
    assert.equal(sale.status, 400, sale.text);
  });

  it("answers 404 for another merchant's processor and for an unknown merchant", async () => {
    const other = await t.merchant();
    const p = (await t.expectOk(t.admin('POST', path(), adyen({ name: 'Mine' })))) as { id: string };
    assert.equal((await t.admin('GET', `/admin/v1/merchants/${other.id}/processors/${p.id}`)).status, 404);
    assert.equal(
      (await t.admin('PATCH', `/admin/v1/merchants/${other.id}/processors/${p.id}`, { name: 'x' })).status,
      404,
    );
    const unknown = '01936f6e-3f5b-7a21-9c3e-000000000000';
    assert.equal((await t.admin('GET', `/admin/v1/merchants/${unknown}/processors`)).status, 404);
    assert.equal((await t.admin('POST', `/admin/v1/merchants/${unknown}/processors`, adyen())).status, 404);
  });
});

describe('opened processors cached on two nodes', () => {
  // A TTL far longer than the test: only the merchant's NOTIFY can make the other node see a change.
  const env = { CONFIG_CACHE_TTL_MS: '60000' };
  let a: TestNode;
  let b: TestNode;
  before(async () => {
    a = await startNode({ env });
    b = await startNode({ env, database: a.database });
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  it('a rotation or a disable on one node reaches the cached processor on the other', async () => {
    const m = await a.merchant();
    const path = `/admin/v1/merchants/${m.id}/processors`;
    const p = (await a.expectOk(a.admin('POST', path, adyen({ name: 'Shared' })))) as { id: string };
    assert.equal((await b.ctx.services.processors.access(p.id)).credentials?.hmacKey, HMAC_1);

    await a.expectOk(a.admin('PATCH', `${path}/${p.id}`, { credentials: { hmacKey: HMAC_2 } }));
    assert.equal((await a.ctx.services.processors.access(p.id)).credentials?.hmacKey, HMAC_2, 'at once where changed');
    await eventually(async () => (await b.ctx.services.processors.access(p.id)).credentials?.hmacKey === HMAC_2);
    assert.deepEqual(
      (await b.ctx.services.processors.usableCredentials(p.id))?.versions.map((v) => v.hmacKey),
      [HMAC_2, HMAC_1],
    );

    await a.expectOk(a.admin('PATCH', `${path}/${p.id}`, { statusId: 2 }));
    await eventually(async () => (await b.ctx.services.processors.access(p.id)).processor.statusId === 2);
  });

  it('a replaced version leaves the cached processor when its overlap ends, with no change to drop it', async () => {
    const m = await a.merchant();
    const path = `/admin/v1/merchants/${m.id}/processors`;
    const p = (await a.expectOk(a.admin('POST', path, adyen({ name: 'Overlapping' })))) as { id: string };
    await a.expectOk(
      a.admin('PATCH', `${path}/${p.id}`, { credentials: { hmacKey: HMAC_2 }, credentialOverlapHours: 1 }),
    );
    assert.equal((await b.ctx.services.processors.usableCredentials(p.id))?.versions.length, 2);
    await b.advanceClock(2 * 3600);
    await eventually(async () => (await b.ctx.services.processors.usableCredentials(p.id))?.versions.length === 1);
  });
});

describe('payment processors in production', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode({
      env: { TESSERA_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.test', ENCRYPTION_KEY },
    });
  });
  after(() => t.stop());

  it('starts a merchant with no processor, refuses simulators and plain http, and takes a real processor', async () => {
    const m = await t.merchant();
    assert.deepEqual((await t.admin('GET', `/admin/v1/merchants/${m.id}/processors`)).body.items, []);
    const sale = await t.request('POST', '/pay-api/v1/transactions/sale', {
      token: m.token,
      body: { amount: 10, ...CARD, accountNumber: '4242424242424242' },
    });
    assert.equal(sale.status, 400, sale.text);
    assert.match(JSON.stringify(sale.body.errors), /no active card processor/);

    const path = `/admin/v1/merchants/${m.id}/processors`;
    const simulator = await t.admin('POST', path, { name: 'Sim', typeId: 1, connector: 'sandbox-card' });
    assert.equal(simulator.status, 400);
    assert.match(simulator.body.errors.connector[0], /simulator/);
    const loopback = await t.admin('POST', path, adyen());
    assert.equal(loopback.status, 400);
    assert.match(loopback.body.errors['settings.baseUrl'][0], /https:\/\/ in production/);
    const real = await t.admin(
      'POST',
      path,
      adyen({ isDefault: true, settings: { ...SETTINGS, baseUrl: 'https://checkout-test.adyen.com' } }),
    );
    assert.equal(real.status, 200, real.text);
    assert.equal(real.body.type, 'Adyen');
  });
});
