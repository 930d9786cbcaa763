import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redact, redactString, redactUrl } from '../../src/platform/observability/redact.js';

describe('log redaction of card-number-like strings', () => {
  it('masks card numbers, plain or grouped', () => {
    assert.equal(redactString('pan 4111111111111111 end'), 'pan 411111******1111 end');
    assert.equal(redactString('4111-1111-1111-1111'), '411111******1111');
    assert.equal(redactString('"4111 1111 1111 1111"'), '"411111******1111"');
  });

  it('masks card numbers in URLs in every form a client encodes them: spaces as %20 or +, dashes, in paths too', () => {
    for (const url of [
      '/pay-api/v1/customers?search=4571%207367%207712%203456',
      '/pay-api/v1/customers?search=4571+7367+7712+3456',
      '/pay-api/v1/customers?search=4571-7367-7712-3456',
      '/pay-api/v1/customers?search=4571736777123456',
      '/pay-api/v1/customers/4571%207367%207712%203456',
      '/pay-api/v1/customers?q%20=x&search=card%3A4571736777123456',
    ]) {
      const kept = redactUrl(url);
      assert.ok(!/4571[^*]*7367[^*]*7712/.test(decodeURIComponent(kept.replace(/\+/g, ' '))), `${url} → ${kept}`);
      assert.match(kept, /457173\*+3456/, `${url} → ${kept}`);
    }
    assert.equal(redactUrl('/v2/x?pageSize=20&search=ada'), '/v2/x?pageSize=20&search=ada');
  });

  it('leaves UUIDs whole, even when their digit-only segments look like a card number', () => {
    for (const id of ['01a1fd5d-3315-72a9-9ff6-858614692571', '01a1fd5d-3315-7234-8123-456789012345']) {
      assert.equal(redactString(`merchant:${id}`), `merchant:${id}`);
    }
  });

  it('does not treat a digit run glued to letters as a card number', () => {
    assert.equal(redactString('ref9ff6858614692571'), 'ref9ff6858614692571');
  });

  it('leaves digits split by letters alone however many, and masks a card number among them', () => {
    const ids = 'merchant:01a1fd5d-3315-72a9-9ff6-858614692571 request 7f3e2a91b8c4d5e6f7a8b9c0d1e2f3a4';
    assert.equal(redactString(ids), ids);
    assert.equal(redactString(`${ids} 4111 1111-1111 1111`), `${ids} 411111******1111`);
    assert.equal(
      redactString('a1b2c3d4e5f6g7h8i9j0k1l2m3n4 4000000000000002x'),
      'a1b2c3d4e5f6g7h8i9j0k1l2m3n4 4000000000000002x',
    );
  });

  it('blanks the values of keys that name a secret, a card or a tax id, however deep', () => {
    const logged = redact({
      body: {
        paymentMethodsAchAccounts: [{ accountNumber: '123456789', taxId: '12-3456789', routingNumber: '021000021' }],
        card: { cardNumber: '4111111111111111', securityCode: '123' },
      },
    }) as any;
    assert.deepEqual(
      { ...logged.body.paymentMethodsAchAccounts[0] },
      {
        accountNumber: '[REDACTED]',
        taxId: '[REDACTED]',
        routingNumber: '021000021',
      },
    );
    assert.deepEqual({ ...logged.body.card }, { cardNumber: '[REDACTED]', securityCode: '[REDACTED]' });
  });
});

describe('log redaction of text with too few digits for a card number', () => {
  it('leaves such text as it is, and still masks the shortest card numbers and percent-encoded ones', () => {
    assert.equal(redactString('order 123456789012 of 2026'), 'order 123456789012 of 2026');
    assert.equal(redactString('4222222222222'), '422222***2222');
    assert.equal(redactUrl('/pay-api/v1/transactions/sale'), '/pay-api/v1/transactions/sale');
    assert.equal(
      redactUrl('/pay-api/v1/customers/%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31'),
      '/pay-api/v1/customers/411111******1111',
    );
  });
});

describe('log redaction of values with nothing to hide', () => {
  it('answers a plain value with nothing to change as it is, and copies one that changes without touching it', () => {
    const clean = {
      correlationId: '5f0e8a3c-1d2b-4c5d-8e9f-0a1b2c3d4e5f',
      route: '/x',
      statusCode: 200,
      list: [1, 'a'],
    };
    assert.equal(redact(clean), clean);
    const dirty = { keep: 'x', nested: { list: ['ok', 'pan 4111111111111111'], token: 'abc' } };
    const copy = structuredClone(dirty);
    assert.deepEqual(JSON.parse(JSON.stringify(redact(dirty))), {
      keep: 'x',
      nested: { list: ['ok', 'pan 411111******1111'], token: '[REDACTED]' },
    });
    assert.deepEqual(dirty, copy);
    // Not a plain object: its own fields only, as a copy.
    const url = new URL('https://example.test/?token=secret');
    assert.equal(JSON.stringify(redact({ url })), '{"url":{}}');
  });
});
