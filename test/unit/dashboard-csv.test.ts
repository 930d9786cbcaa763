// Amounts as text from integer cents (the CSV export's, and the grouped form pages and messages show): the same
// digits as the cents say, for any amount.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { centsToDecimal as decimal, formatCents } from '../../src/platform/money.js';

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
        assert.equal(formatCents(cents).replaceAll(',', ''), text, 'the grouped form is the same figure');
      }),
    );
  });
});
