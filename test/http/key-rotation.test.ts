import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SEALED_COLUMNS } from '../../src/modules/index.js';
import { rotateKeys } from '../../src/platform/crypto/key-rotation.js';
import { createTestDatabase, ENCRYPTION_KEY, startNode, type TestDatabase } from '../harness.js';

const NEW_KEY = randomBytes(32).toString('base64');
const CARD = { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2031 };
const PROCESSOR_CREDENTIALS = {
  apiKey: 'rotation-api-key-0001',
  hmacKey: 'D'.repeat(64),
  notificationUsername: 'rot',
  notificationPassword: 'rotation-password',
};

describe('key-encryption key rotation', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  it('re-wraps data written before, keeps everything readable while serving, and retires the old key', async () => {
    const loopback = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    const before = await startNode({ database, env: loopback });
    const merchant = await before.merchant();
    // A webhook signing secret, sealed under the old key (a closed loopback port: pings fail without traffic).
    const endpoint = await before.expectOk(
      before.request('POST', '/v2/webhooks/endpoints', {
        token: merchant.token,
        body: { name: 'rot', endpointUrl: 'http://127.0.0.1:9/hook', eventTypes: ['transaction.card.voided'] },
      }),
    );
    const customer = await before.expectOk(
      before.request('POST', '/pay-api/v1/customers', { token: merchant.token, body: { firstName: 'Rot' } }),
    );
    const oldCard = await before.expectOk(
      before.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        token: merchant.token,
        body: CARD,
      }),
    );
    // A processor's credentials, sealed under the merchant's data key (which the rotation re-wraps).
    const processor = await before.expectOk(
      before.admin('POST', `/admin/v1/merchants/${merchant.id}/processors`, {
        name: 'Adyen',
        typeId: 1,
        connector: 'adyen',
        settings: { merchantAccount: 'RotShop', baseUrl: 'https://checkout-test.adyen.com' },
        credentials: PROCESSOR_CREDENTIALS,
      }),
    );
    await before.stop();

    // The new key comes in with the old one as previous: data from before stays readable.
    const node = await startNode({
      database,
      env: { ENCRYPTION_KEY: NEW_KEY, ENCRYPTION_KEY_PREVIOUS: ENCRYPTION_KEY },
    });
    try {
      assert.equal(node.ctx.kek.version, 2);
      const token = (await node.token(merchant.clientId, merchant.clientSecret)).access_token;
      const sale = async (paymentMethodId: string, n: number) =>
        node.expectOk(
          node.request('POST', '/pay-api/v1/transactions/sale', {
            token,
            body: { amount: 10 + n, customerId: customer.id, paymentMethodId, referenceId: `rot-${n}` },
          }),
        );
      assert.equal((await sale(oldCard.id, 1)).status, 'Captured');

      // Rotate while the node serves.
      const progress: string[] = [];
      const report = await rotateKeys(node.ctx.pool, node.ctx.kek, SEALED_COLUMNS, (line) => progress.push(line), 1);
      assert.ok(report.rewrapped['data keys']! >= 1);
      assert.ok(report.rewrapped['signing keys']! >= 1);
      assert.equal(report.rewrapped['webhook signing secrets'], 1);
      assert.deepEqual(report.retiredVersions, [1]);
      assert.ok(progress.some((line) => /data keys: \d+\/\d+/.test(line)));
      const leftovers = await node.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM data_keys WHERE kek_version <> 2',
      );
      assert.equal(leftovers[0]!.n, 0);

      const newCard = await node.expectOk(
        node.request('POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, { token, body: CARD }),
      );
      assert.equal((await sale(oldCard.id, 2)).status, 'Captured');
      assert.equal((await sale(newCard.id, 3)).status, 'Captured');
    } finally {
      await node.stop();
    }

    // After rotation the new key alone reads everything; the retired key is refused.
    const after = await startNode({ database, env: { ENCRYPTION_KEY: NEW_KEY, ...loopback } });
    try {
      const token = (await after.token(merchant.clientId, merchant.clientSecret)).access_token;
      // Signing a ping opens the re-wrapped secret (it answers 200 with the endpoint's failure).
      const ping = await after.expectOk(
        after.request('POST', `/v2/webhooks/endpoints/${endpoint.endpointId}/ping`, { token }),
      );
      assert.equal(ping.success, false);
      const sale = await after.expectOk(
        after.request('POST', '/pay-api/v1/transactions/sale', {
          token,
          body: { amount: 20, customerId: customer.id, paymentMethodId: oldCard.id, referenceId: 'rot-after' },
        }),
      );
      assert.equal(sale.status, 'Captured');
      assert.deepEqual((await after.ctx.services.processors.access(processor.id)).credentials, PROCESSOR_CREDENTIALS);
    } finally {
      await after.stop();
    }
    await assert.rejects(startNode({ database }), /retired/);
  });

  it('never retires a version anything is still sealed under, whatever kind of sealed value it is', async () => {
    const own = await createTestDatabase();
    const node = await startNode({ database: own, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      const merchant = await node.merchant();
      const endpoint = await node.expectOk(
        node.request('POST', '/v2/webhooks/endpoints', {
          token: merchant.token,
          body: { name: 'stuck', endpointUrl: 'http://127.0.0.1:9/hook', eventTypes: ['transaction.card.voided'] },
        }),
      );
      const terminal = await node.expectOk(
        node.admin('POST', `/admin/v1/merchants/${merchant.id}/terminals`, {
          serialNumber: `ROT-${randomBytes(3).toString('hex')}`,
          terminalManufacturer: 'Sunmi',
          terminalModel: 'SunmiP2',
          terminalModeId: 2,
        }),
      );
      await node.expectOk(
        node.admin('POST', `/admin/v1/sandbox/terminals/${terminal.id}/actions`, { action: 'present-card', ...CARD }),
      );
      // Versions whose key this deployment no longer has: what is sealed under them cannot be re-wrapped (rotation
      // skips it), so they must stay. One holds only a webhook signing secret, the other only a presented card.
      for (const [version, table, column, where] of [
        [7, 'webhook_endpoints', 'kek_version', `id = '${endpoint.endpointId}'`],
        [8, 'sandbox_terminals', 'presented_card_kek', `terminal_id = '${terminal.id}'`],
      ] as const) {
        await node.query('INSERT INTO key_encryption_keys (version, fingerprint) VALUES ($1, $2)', [
          version,
          `lost-${version}`,
        ]);
        await node.query(`UPDATE ${table} SET ${column} = $1 WHERE ${where}`, [version]);
      }
      const report = await rotateKeys(node.ctx.pool, node.ctx.kek, SEALED_COLUMNS, () => {});
      assert.deepEqual(report.retiredVersions, []);
      const retired = await node.query<{ version: number }>(
        'SELECT version FROM key_encryption_keys WHERE retired_at IS NOT NULL',
      );
      assert.deepEqual(retired, []);
    } finally {
      await node.stop();
      await own.drop();
    }
  });
});
