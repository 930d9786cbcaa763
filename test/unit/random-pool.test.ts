// Random bytes drawn from a pooled CSPRNG buffer (src/platform/crypto/random-pool.ts): every draw its own, of the
// size asked, across refills, never the zeroed bytes a previous draw left behind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pooledRandomBase64url, pooledRandomBytes } from '../../src/platform/crypto/random-pool.js';

describe('pooled random bytes', () => {
  it('gives distinct draws of the size asked, across many refills of the pool', () => {
    const seen = new Set<string>();
    // 12 and 24 do not divide 4,096: draws meet the end of the pool at every offset.
    for (let i = 0; i < 5_000; i++) {
      const iv = pooledRandomBytes(12);
      assert.equal(iv.length, 12);
      seen.add(iv.toString('hex'));
      const token = pooledRandomBase64url(24);
      assert.match(token, /^[A-Za-z0-9_-]{32}$/);
      seen.add(token);
    }
    assert.equal(seen.size, 10_000);
  });

  it('hands out buffers that later draws do not change', () => {
    const first = pooledRandomBytes(16);
    const copy = Buffer.from(first);
    for (let i = 0; i < 1_000; i++) pooledRandomBytes(16);
    assert.deepEqual(first, copy);
  });

  it('spreads its bytes evenly (no zeroed or repeated stretch reaches a caller)', () => {
    const counts = new Array<number>(256).fill(0);
    const draws = 4_000;
    for (let i = 0; i < draws; i++) for (const byte of pooledRandomBytes(32)) counts[byte]!++;
    const expected = (draws * 32) / 256;
    // Each of the 256 values within 25% of its share (500): a pool handing out zeros would put thousands on 0.
    for (const [value, count] of counts.entries()) {
      assert.ok(Math.abs(count - expected) < expected * 0.25, `byte ${value} drawn ${count} times`);
    }
  });

  it('draws a large size straight from the CSPRNG', () => {
    assert.equal(pooledRandomBytes(512).length, 512);
    assert.equal(pooledRandomBase64url(96).length, 128);
  });
});
