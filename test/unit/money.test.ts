import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  decimalPlaces,
  fromCents,
  fromMillipercent,
  MAX_AMOUNT_CENTS,
  toCents,
  toMillipercent,
} from '../../src/platform/money.js';

describe('money', () => {
  it('counts decimal places from the shortest round-trip text', () => {
    assert.equal(decimalPlaces(10), 0);
    assert.equal(decimalPlaces(10.5), 1);
    assert.equal(decimalPlaces(19.99), 2);
    assert.equal(decimalPlaces(19.999), 3);
    assert.equal(decimalPlaces(1e-7), 7);
    assert.equal(decimalPlaces(1.5e-5), 6);
    assert.equal(decimalPlaces(1e21), 0);
    assert.equal(decimalPlaces(Number.NaN), Number.POSITIVE_INFINITY);
  });

  it('round-trips every cent amount exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }), (cents) => {
        const wire = fromCents(cents);
        assert.ok(decimalPlaces(wire) <= 2, `${wire}`);
        assert.equal(toCents(wire), cents);
        // What a client would type: the decimal string, parsed as JSON.
        const typed = JSON.parse(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
        assert.equal(toCents(typed), cents);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses any amount with a third decimal (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.integer({ min: 1, max: 9 }), (cents, thousandth) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${thousandth}`;
        assert.throws(() => toCents(JSON.parse(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps percentages exact in millipercent', () => {
    assert.equal(toMillipercent(3.5), 3500);
    assert.equal(toMillipercent(2.999), 2999);
    assert.equal(toMillipercent(100), 100_000);
    assert.throws(() => toMillipercent(1.2345));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (mpct) => {
        assert.equal(toMillipercent(fromMillipercent(mpct)), mpct);
      }),
    );
  });
});
