import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/platform/observability/logger.js';
import { ADMIN_TOKEN, startNode, type TestNode } from '../harness.js';

describe('request logs', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
  });
  after(() => t.stop());

  it('writes one JSON line per request with correlation id, route, status and duration', async () => {
    const merchant = await t.merchant();
    const res = await t.request('GET', '/pay-api/v1/configurations/payments', {
      token: merchant.token,
      headers: { 'x-correlation-id': 'trace-log-1' },
    });
    assert.equal(res.status, 200);
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.correlationId === 'trace-log-1');
    assert.ok(line);
    assert.equal(line.route, '/pay-api/v1/configurations/payments');
    assert.equal(line.statusCode, 200);
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(line.principal, `merchant:${merchant.id}`);
  });

  it('never writes secrets, tokens, card numbers or CVVs', async () => {
    const merchant = await t.merchant();
    const withRefresh = await t.token(merchant.clientId, merchant.clientSecret, { scope: 'offline_access' });
    const pan = '4111111111111111';
    const cvv = '737';
    await t.request('GET', `/oauth2/token?client_secret=${merchant.clientSecret}&pan=${pan}`);
    await t.tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: withRefresh.refresh_token,
      client_id: merchant.clientId,
      client_secret: merchant.clientSecret,
    });
    await t.request('POST', `/pay-api/v1/merchants/tokens?accountNumber=${pan}`, {
      token: withRefresh.access_token,
      body: { tokenName: 'x', accountNumber: pan, securityCode: cvv, password: 'hunter2hunter2' },
    });
    await t.request('GET', `/pay-api/v1/nope/${pan}`, { token: withRefresh.access_token });
    await t.request('GET', '/admin/v1/clock', { token: ADMIN_TOKEN });
    const all = t.logs.join('\n');
    for (const secret of [
      merchant.clientSecret,
      withRefresh.access_token,
      withRefresh.refresh_token,
      ADMIN_TOKEN,
      pan,
      'hunter2hunter2',
      `"securityCode":"${cvv}"`,
    ]) {
      assert.ok(!all.includes(secret), `log contains ${secret.slice(0, 12)}…`);
    }
    assert.ok(all.includes('411111******1111'), 'card numbers appear masked');
  });
});

describe('the logger itself', () => {
  it('redacts sensitive keys at any depth and masks card numbers in free text', () => {
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk, _e, cb) {
          lines.push(chunk.toString());
          cb();
        },
      }),
    );
    logger.info(
      {
        request: { headers: { authorization: 'Bearer abc.def.ghi', cookie: 'sid=1' } },
        card: { pan: '5555555555554444', cvv: '123', expirationMonth: 12 },
        client_secret: 'shh',
        note: 'customer read out 4000 0000 1005 0005 on the phone',
        error: new Error('declined 4111-1111-1111-1111'),
      },
      'payment attempt',
    );
    const out = lines.join('');
    for (const secret of [
      'abc.def.ghi',
      'sid=1',
      '5555555555554444',
      '"cvv":"123"',
      'shh',
      '4000 0000 1005 0005',
      '4111-1111-1111-1111',
    ]) {
      assert.ok(!out.includes(secret), secret);
    }
    const parsed = JSON.parse(out);
    assert.equal(parsed.card.expirationMonth, 12, 'harmless fields stay');
    assert.equal(parsed.note, 'customer read out 400000******0005 on the phone');
  });
});
