import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startNode, type TestNode } from '../harness.js';

// The spec's event table: set A identifier, set B identifier, set B id.
const SPEC_TABLE: Array<[string | null, string | null, number | null]> = [
  ['api_key.created', 'api_key.created', 31],
  ['api_key.deleted', 'api_key.deleted', 32],
  ['invoice.created', 'invoice.created', 18],
  ['invoice.paid', 'invoice.paid', 19],
  ['merchant.created', 'merchant.created', 30],
  ['payment_link.created', null, null],
  ['payment_link.updated', null, null],
  ['transaction.ach.scheduled', 'payment.ach.scheduled', 9],
  ['transaction.ach.in_progress', 'payment.ach.in_progress', 10],
  ['transaction.ach.held', 'payment.ach.held', 11],
  [null, 'payment.ach.released', 12],
  ['transaction.ach.cancelled', 'payment.ach.cancelled', 13],
  ['transaction.ach.cleared', 'payment.ach.cleared', 14],
  ['transaction.ach.charged_back', 'payment.ach.charged_back', 15],
  ['transaction.ach.failed', 'payment.ach.failed', 16],
  ['transaction.ach.refunded', 'payment.ach.refunded', 17],
  ['transaction.card.authorized', 'payment.card.authorized', 3],
  ['transaction.card.captured', 'payment.card.captured', 4],
  ['transaction.card.declined', 'payment.card.declined', 5],
  ['transaction.card.failed', 'payment.card.failed', 6],
  ['transaction.card.voided', 'payment.card.voided', 7],
  ['transaction.card.refunded', 'payment.card.refunded', 8],
  ['quick_payment.created', 'quick_payment.created', 25],
  ['quick_payment.paid', 'quick_payment.paid', 26],
  ['settlement.batch.completed', 'settlement.batch.completed', 2],
  ['subscription.created', 'subscription.created', 21],
  ['subscription.paid', 'subscription.paid', 22],
  ['subscription.payment_failed', 'subscription.payment_failed', 23],
  ['subscription.delinquent', 'subscription.delinquent', 24],
  ['terminal.added', 'terminal.added', 33],
  ['terminal.out_of_paper', 'terminal.out_of_paper', 35],
];

describe('webhooks: event types', () => {
  let t: TestNode;
  before(async () => {
    t = await startNode();
  });
  after(() => t.stop());

  it('lists every event of the spec with its id, set A name first and the set B name as alias', async () => {
    const merchant = await t.merchant();
    const res = await t.request('GET', '/v2/webhooks/event-types', { token: merchant.token });
    assert.equal(res.status, 200, res.text);
    const items = res.body.items as Array<{
      eventTypeId: number;
      eventType: string;
      aliases: string[];
      group: string;
      description: string;
      partnerOnly: boolean;
    }>;
    assert.equal(res.body.total, items.length);
    // `data` in the SDK's document's shape (`id`) and the webhooks CLI 0.6's (`eventTypeId`), the same number.
    assert.equal(res.body.data.length, items.length);
    for (const entry of res.body.data) {
      assert.equal(typeof entry.eventTypeId, 'number', JSON.stringify(entry));
      assert.equal(entry.eventTypeId, entry.id);
    }
    for (const [setA, setB, id] of SPEC_TABLE) {
      const entry = items.find((item) => item.eventType === (setA ?? setB));
      assert.ok(entry, `${setA ?? setB} is listed`);
      if (id !== null) assert.equal(entry.eventTypeId, id, `${entry.eventType} id`);
      assert.deepEqual(entry.aliases, setA && setB && setA !== setB ? [setB] : [], `${entry.eventType} aliases`);
      assert.ok(entry.group.length > 0 && entry.description.length > 0);
    }
    const byName = new Map(items.map((item) => [item.eventType, item]));
    assert.deepEqual(
      [
        byName.get('terminal.deactivated')?.eventTypeId,
        byName.get('payment_session.created')?.eventTypeId,
        byName.get('payment_session.completed')?.eventTypeId,
        byName.get('payment_link.created')?.eventTypeId,
        byName.get('payment_link.updated')?.eventTypeId,
        byName.get('transaction.card.charged_back')?.eventTypeId,
        byName.get('ach.file.delivery_failed')?.eventTypeId,
      ],
      [34, 36, 37, 38, 39, 40, 41],
    );
    assert.deepEqual(byName.get('transaction.card.charged_back')?.aliases, ['payment.card.charged_back']);
    assert.deepEqual(
      items.filter((item) => item.partnerOnly).map((item) => item.eventType),
      ['merchant.created'],
    );
    assert.equal(new Set(items.map((item) => item.eventTypeId)).size, items.length, 'ids are unique');
    // Beyond the specification's table: the payment link events, a processor's card chargeback and a bank
    // connection's undelivered ACH file.
    assert.equal(items.length, SPEC_TABLE.length + 5);
  });

  it('answers a partner token too, and refuses a key without the Webhooks permission', async () => {
    const partner = await t.partner();
    assert.equal((await t.request('GET', '/v2/webhooks/event-types', { token: partner.token })).status, 200);
    const merchant = await t.merchant();
    await t.query("UPDATE api_keys SET permissions = '{Payments}' WHERE client_id = $1", [merchant.clientId]);
    const token = (await t.token(merchant.clientId, merchant.clientSecret)).access_token;
    const refused = await t.request('GET', '/v2/webhooks/event-types', { token });
    assert.equal(refused.status, 403, refused.text);
  });
});
