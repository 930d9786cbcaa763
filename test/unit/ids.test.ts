import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isUuid, newId } from '../../src/platform/crypto/ids.js';

test('newId makes distinct UUIDv7s with the current time, across refills of its random pool', () => {
  const before = Date.now();
  const ids = Array.from({ length: 1000 }, () => newId());
  const after = Date.now();
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.ok(isUuid(id), id);
    const hex = id.replaceAll('-', '');
    assert.equal(hex[12], '7', `version 7: ${id}`);
    assert.ok('89ab'.includes(hex[16]!), `RFC 9562 variant: ${id}`);
    const ms = Number.parseInt(hex.slice(0, 12), 16);
    assert.ok(ms >= before && ms <= after, `timestamp ${ms} outside ${before}..${after}`);
  }
  // Time-ordered: the millisecond prefix never goes backwards.
  const prefixes = ids.map((id) => id.slice(0, 13));
  assert.deepEqual([...prefixes].sort(), prefixes);
  // The random part is not shared between ids (each takes its own 16 bytes of the pool).
  assert.equal(new Set(ids.map((id) => id.slice(19))).size, ids.length);
});
