import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, eventually, startNode, type TestNode } from '../harness.js';

describe('operator API', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
  });
  after(() => t.stop());

  it('refuses a missing or wrong operator token with the 401 body', async () => {
    for (const token of [undefined, 'wrong-token-wrong-token-wrong']) {
      const res = await t.request('POST', '/admin/v1/partners', { ...(token ? { token } : {}), body: { name: 'X' } });
      assert.equal(res.status, 401);
      assert.equal(res.body.statusCode, 401);
      assert.equal(res.body.exceptionType, 'UnauthorizedException');
      for (const field of ['title', 'cause', 'resolution', 'documentationUrl', 'correlationId']) {
        assert.equal(typeof res.body[field], 'string', field);
      }
    }
  });

  it('does not accept a merchant access token as the operator token', async () => {
    const merchant = await t.merchant();
    const res = await t.request('GET', '/admin/v1/clock', { token: merchant.token });
    assert.equal(res.status, 401);
  });

  it('creates and reads partners', async () => {
    const created = await t.admin('POST', '/admin/v1/partners', { name: 'Acme Software' });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), ['createdOn', 'id', 'name']);
    assert.equal(created.body.name, 'Acme Software');
    const read = await t.admin('GET', `/admin/v1/partners/${created.body.id}`);
    assert.deepEqual(read.body, created.body);
    assert.equal((await t.admin('GET', '/admin/v1/partners/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await t.admin('GET', '/admin/v1/partners/not-a-uuid')).status, 400);
    assert.equal((await t.admin('POST', '/admin/v1/partners', { name: '' })).status, 400);
  });

  it('creates a merchant with default sandbox card and ACH processors, and records merchant.created', async () => {
    const partner = await t.expectOk(t.admin('POST', '/admin/v1/partners', { name: 'P' }));
    const res = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'Coffee Co',
      partnerId: partner.id,
      legalName: 'Coffee Co LLC',
      mccCode: '5812',
      mccCodeDescription: 'Restaurants',
      email: 'owner@coffee.example',
      phone: '+1 212 555 0100',
      website: 'https://coffee.example',
      address: { addressLine1: '1 Main St', city: 'Albany', stateName: 'New York', zip: '12207', countryCode: 'US' },
      settings: {
        isTipsEnabled: true,
        defaultTipsOptions: [15, 18.5, 20],
        zeroCostProcessingOptionId: 4,
        defaultSurchargeRate: 3.125,
        maxTransactionAmount: 2500.5,
        avs: { isEnabled: true, profileId: 3 },
      },
    });
    assert.equal(res.status, 200, res.text);
    const m = res.body;
    assert.equal(m.companyName, 'Coffee Co');
    assert.equal(m.partnerId, partner.id);
    assert.equal(m.status, 'Active');
    assert.equal(m.address.stateCode, 'NY');
    assert.equal(m.address.postalCode, '12207');
    assert.equal(m.address.line1, '1 Main St');
    assert.deepEqual(m.settings.defaultTipsOptions, [15, 18.5, 20]);
    assert.equal(m.settings.defaultSurchargeRate, 3.125);
    assert.equal(m.settings.maxTransactionAmount, 2500.5);
    assert.equal(m.settings.zeroCostProcessingOption, 'Surcharge');
    assert.deepEqual(m.settings.avs, { isEnabled: true, profileId: 3, profile: 'Strict' });
    assert.equal(m.paymentProcessors.length, 2);
    const [card, ach] = m.paymentProcessors;
    assert.deepEqual([card.type, card.typeId, card.isDefault], ['SandboxCard', 1, true]);
    assert.deepEqual([ach.type, ach.typeId, ach.isDefault], ['SandboxAch', 2, true]);
    assert.ok(card.settlementBatchTimeSlots.length > 0);

    const events = await t.query<{ type: string; partner_id: string }>(
      'SELECT type, partner_id FROM events WHERE resource_id = $1',
      [m.id],
    );
    assert.deepEqual(events, [{ type: 'merchant.created', partner_id: partner.id }]);
    // Money is stored in integer cents and rates in millipercent.
    const [row] = await t.query(
      'SELECT max_transaction_amount_cents, default_surcharge_rate_mpct FROM merchants WHERE id = $1',
      [m.id],
    );
    assert.deepEqual(row, { max_transaction_amount_cents: 250050, default_surcharge_rate_mpct: 3125 });
  });

  it('creates a merchant once for a retried idempotency key', async () => {
    const send = (body: unknown) =>
      t.request('POST', '/admin/v1/merchants', {
        token: ADMIN_TOKEN,
        body,
        headers: { 'idempotency-key': 'op-create-1' },
      });
    const first = await send({ companyName: 'Once Only' });
    const retry = await send({ companyName: 'Once Only' });
    assert.equal(first.status, 200);
    assert.equal(retry.text, first.text);
    assert.equal((await t.query("SELECT 1 FROM merchants WHERE company_name = 'Once Only'")).length, 1);
    assert.equal((await send({ companyName: 'Something else' })).status, 422);
  });

  it('rejects amounts with more than 2 decimals and rates with more than 3', async () => {
    const three = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      settings: { maxTransactionAmount: 10.123 },
    });
    assert.equal(three.status, 400);
    assert.ok(three.body.errors['settings.maxTransactionAmount'], three.text);
    const two = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      settings: { maxTransactionAmount: 10.12 },
    });
    assert.equal(two.status, 200);
    assert.equal(two.body.settings.maxTransactionAmount, 10.12);
    const rate = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      settings: { defaultSurchargeRate: 1.2345 },
    });
    assert.equal(rate.status, 400);
    assert.ok(rate.body.errors['settings.defaultSurchargeRate']);
  });

  it('validates merchant fields and names each bad one', async () => {
    const res = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      mccCode: '58',
      email: 'not-an-email',
      address: { stateCode: 'ZZ', postalCode: 'ABCDE' },
      unexpected: true,
    });
    assert.equal(res.status, 400);
    assert.ok(res.body.errors.unexpected, res.text);
    const fieldErrors = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      mccCode: '58',
      email: 'nope',
    });
    assert.ok(fieldErrors.body.errors.mccCode);
    assert.ok(fieldErrors.body.errors.email);
    const address = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      address: { stateCode: 'ZZ', postalCode: 'ABCDE', line1: 'a', addressLine1: 'b' },
    });
    assert.equal(address.status, 400);
    assert.ok(address.body.errors['address.stateCode']);
    assert.ok(address.body.errors['address.postalCode']);
    assert.ok(address.body.errors['address.addressLine1']);
    const unknownPartner = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'X',
      partnerId: '00000000-0000-4000-8000-000000000000',
    });
    assert.equal(unknownPartner.status, 404);
  });

  it('accepts a phone as phone, mobilePhoneNumber or mobileNumber, and refuses two that disagree', async () => {
    const viaAlias = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'Phones',
      mobileNumber: '+12125550111',
    });
    assert.equal(viaAlias.status, 200);
    assert.equal(viaAlias.body.phone, '+12125550111');
    const agree = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'Phones',
      phone: '+12125550112',
      mobilePhoneNumber: '+12125550112',
    });
    assert.equal(agree.body.phone, '+12125550112');
    const disagree = await t.admin('POST', '/admin/v1/merchants', {
      companyName: 'Phones',
      mobilePhoneNumber: '+12125550113',
      mobileNumber: '+12125550114',
    });
    assert.equal(disagree.status, 400);
    assert.ok(disagree.body.errors.mobileNumber);
  });

  it('patches a merchant, merging settings field by field', async () => {
    const created = await t.expectOk(
      t.admin('POST', '/admin/v1/merchants', {
        companyName: 'Patch Me',
        email: 'a@b.example',
        address: { line1: '1 A St', city: 'Austin', stateCode: 'TX', postalCode: '73301' },
        settings: { isTipsEnabled: true, maxTransactionAmount: 100 },
      }),
    );
    const patched = await t.admin('PATCH', `/admin/v1/merchants/${created.id}`, {
      status: 'Suspended',
      settings: { avs: { profileId: 1 } },
      phone: '+15125550100',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.status, 'Suspended');
    assert.equal(patched.body.statusId, 2);
    assert.equal(patched.body.settings.isTipsEnabled, true);
    assert.equal(patched.body.settings.maxTransactionAmount, 100);
    assert.deepEqual(patched.body.settings.avs, { isEnabled: true, profileId: 1, profile: 'Lenient' });
    assert.equal(patched.body.address.city, 'Austin', 'address kept when not sent');
    assert.equal(patched.body.phone, '+15125550100');
    const cleared = await t.admin('PATCH', `/admin/v1/merchants/${created.id}`, {
      settings: { maxTransactionAmount: null },
    });
    assert.equal(cleared.body.settings.maxTransactionAmount, null);
    const read = await t.admin('GET', `/admin/v1/merchants/${created.id}`);
    assert.deepEqual(read.body, cleared.body);
    assert.equal((await t.admin('PATCH', '/admin/v1/merchants/00000000-0000-4000-8000-000000000000', {})).status, 404);
  });

  it('creates and deletes API keys for merchants and partners', async () => {
    const merchant = await t.expectOk(t.admin('POST', '/admin/v1/merchants', { companyName: 'Keys' }));
    const key = await t.admin('POST', '/admin/v1/api-keys', { merchantId: merchant.id, name: 'ci' });
    assert.equal(key.status, 200);
    assert.deepEqual(Object.keys(key.body).sort(), ['clientId', 'clientSecret', 'merchantId', 'partnerId']);
    assert.equal(key.body.partnerId, null);
    assert.ok(Buffer.from(key.body.clientSecret, 'base64url').length >= 32, 'secret carries >= 256 bits');
    const [stored] = await t.query<{ secret_hash: Buffer }>('SELECT secret_hash FROM api_keys WHERE client_id = $1', [
      key.body.clientId,
    ]);
    assert.equal(stored!.secret_hash.length, 32);
    assert.ok(!stored!.secret_hash.toString('utf8').includes(key.body.clientSecret));

    const both = await t.admin('POST', '/admin/v1/api-keys', { merchantId: merchant.id, partnerId: merchant.id });
    assert.equal(both.status, 400);
    assert.equal((await t.admin('POST', '/admin/v1/api-keys', {})).status, 400);
    assert.equal(
      (await t.admin('POST', '/admin/v1/api-keys', { merchantId: '00000000-0000-4000-8000-000000000000' })).status,
      404,
    );

    // The merchant's last active key stays (authentication rule 1), for the operator too; with another, it goes.
    const last = await t.admin('DELETE', `/admin/v1/api-keys/${key.body.clientId}`);
    assert.equal(last.status, 400, last.text);
    assert.match(last.body.errors.clientId[0], /last active API key/);
    await t.expectOk(t.admin('POST', '/admin/v1/api-keys', { merchantId: merchant.id, name: 'replacement' }));
    const deleted = await t.admin('DELETE', `/admin/v1/api-keys/${key.body.clientId}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted, true);
    assert.equal((await t.admin('DELETE', `/admin/v1/api-keys/${key.body.clientId}`)).status, 404);
    const events = await t.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY seq', [
      key.body.clientId,
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['api_key.created', 'api_key.deleted'],
    );
  });

  it('reads and advances the sandbox clock', async () => {
    const before = await t.admin('GET', '/admin/v1/clock');
    assert.equal(before.status, 200);
    const advanced = await t.admin('POST', '/admin/v1/clock/advance', { seconds: 86_400 });
    assert.equal(advanced.status, 200);
    const delta = Date.parse(advanced.body.now) - Date.parse(before.body.now);
    assert.ok(delta >= 86_400_000 && delta < 86_400_000 + 5_000, `moved ${delta} ms`);
    assert.equal((await t.admin('POST', '/admin/v1/clock/advance', { seconds: 0 })).status, 400);
    assert.equal((await t.admin('POST', '/admin/v1/clock/advance', { seconds: -5 })).status, 400);
    assert.equal((await t.admin('POST', '/admin/v1/clock/advance', { seconds: 1.5 })).status, 400);
  });

  it('puts a latency spike on the sandbox card network, and ends it', async () => {
    const m = await t.merchant();
    const sale = async () => {
      const started = Date.now();
      const res = await t.request('POST', '/pay-api/v1/transactions/sale', {
        token: m.token,
        body: {
          amount: 3.21,
          accountNumber: '4111111111111111',
          expirationMonth: 12,
          expirationYear: 2035,
          referenceId: `spike-${started}-${Math.random()}`,
        },
      });
      assert.equal(res.status, 200, res.text);
      return Date.now() - started;
    };
    const spike = await t.admin('POST', '/admin/v1/sandbox/card-network', { extraLatencyMs: 600, seconds: 30 });
    assert.equal(spike.status, 200, spike.text);
    assert.equal(spike.body.extraLatencyMs, 600);
    assert.ok(Date.parse(spike.body.until) > Date.now() + 25_000);
    // This node reads the conditions in the background at most once a second: the next calls get the spike.
    await eventually(async () => (await sale()) >= 600, 5000, 100);
    const ended = await t.admin('POST', '/admin/v1/sandbox/card-network', { extraLatencyMs: 0, seconds: 0 });
    assert.equal(ended.status, 200);
    await eventually(async () => (await sale()) < 300, 5000, 100);
    assert.equal(
      (await t.admin('POST', '/admin/v1/sandbox/card-network', { extraLatencyMs: -1, seconds: 5 })).status,
      400,
    );
    assert.equal((await t.admin('GET', '/admin/v1/sandbox/card-network')).body.extraLatencyMs, 0);
  });
});

describe('operator API in production', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode({ env: { TESSERA_ENV: 'production', PUBLIC_BASE_URL: 'https://payments.example.com' } });
  });
  after(() => t.stop());

  it('has no clock advance (404) but every other operator route', async () => {
    assert.equal((await t.admin('POST', '/admin/v1/clock/advance', { seconds: 60 })).status, 404);
    assert.equal((await t.admin('GET', '/admin/v1/sandbox/card-network')).status, 404);
    assert.equal((await t.admin('GET', '/admin/v1/clock')).status, 200);
    assert.equal((await t.admin('POST', '/admin/v1/partners', { name: 'Prod partner' })).status, 200);
  });
});
