// The CSV export's amounts come from integer cents as text: the same digits as the cents say, for any amount.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decimal } from '../../src/modules/dashboard/pages/transactions.csv.js';

describe('dashboard CSV amounts', () => {
  it('writes cents exactly, sign and all', () => {
    assert.equal(decimal(0), '0.00');
    assert.equal(decimal(5), '0.05');
    assert.equal(decimal(123405), '1234.05');
    assert.equal(decimal(-1999), '-19.99');
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (cents) => {
        const text = decimal(cents);
        assert.equal(BigInt(text.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1')), BigInt(cents));
        assert.match(text, /^-?\d+\.\d{2}$/);
      }),
    );
  });
});
