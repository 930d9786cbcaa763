import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { calculateAmount, percentOf } from '../../src/modules/payments/amounts.js';

describe('amount calculation', () => {
  it('rounds each percentage half-up to the cent', () => {
    assert.equal(percentOf(1000, 3500), 35); // 3.5% of 10.00
    assert.equal(percentOf(1, 50_000), 1); // 50% of 0.01 = 0.005 -> 0.01
    assert.equal(percentOf(3, 16_667), 1); // 0.0050001 -> 0.01
    assert.equal(percentOf(99_999_999_999, 100_000), 99_999_999_999);
  });

  it('the parts always add up to the total (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.option(fc.integer({ min: 0, max: 100_000 })),
        fc.option(fc.integer({ min: 0, max: 1_000_000 })),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom('credit', 'debit', 'cash', 'ach'),
        fc.option(fc.boolean()),
        fc.option(fc.integer({ min: 0, max: 100_000 })),
        fc.constantFrom('exclusive', 'inclusive', null),
        (base, off, tip, option, rate, tender, useCardPrice, taxRate, taxMode) => {
          const a = calculateAmount({
            baseCents: base,
            percentageOffRateMpct: off,
            tipCents: tip,
            zeroCostOptionId: option,
            surchargeRateMpct: rate,
            cashDiscountRateMpct: rate,
            dualPricingRateMpct: rate,
            useCardPrice,
            tender: tender as 'credit',
            taxRateMpct: taxRate,
            taxMode: taxMode as 'exclusive',
          });
          const exclusiveTax = a.taxInclusive ? 0 : a.taxCents;
          assert.equal(
            a.baseCents - a.percentageOffCents + a.surchargeCents + a.cashDiscountCents + a.tipCents + exclusiveTax,
            a.totalCents,
          );
          for (const part of [a.percentageOffCents, a.surchargeCents, a.cashDiscountCents, a.tipCents, a.taxCents]) {
            assert.ok(Number.isSafeInteger(part) && part >= 0);
          }
          assert.ok(a.percentageOffCents <= a.baseCents);
          if (a.taxInclusive) assert.ok(a.taxCents <= a.baseCents - a.percentageOffCents);
          if (tender !== 'credit') assert.equal(a.surchargeCents, 0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('computes the documented programs', () => {
    const sur = calculateAmount({
      baseCents: 10_000,
      percentageOffRateMpct: 10_000,
      zeroCostOptionId: 4,
      surchargeRateMpct: 3_000,
      tender: 'credit',
    });
    assert.deepEqual([sur.percentageOffCents, sur.surchargeCents, sur.totalCents], [1000, 270, 9270]);
    const cd = calculateAmount({
      baseCents: 10_000,
      zeroCostOptionId: 2,
      cashDiscountRateMpct: 4_000,
      tender: 'debit',
    });
    assert.equal(cd.totalCents, 10_400);
    const cash = calculateAmount({
      baseCents: 10_000,
      zeroCostOptionId: 2,
      cashDiscountRateMpct: 4_000,
      tender: 'cash',
    });
    assert.equal(cash.totalCents, 10_000);
    const inclusive = calculateAmount({
      baseCents: 10_800,
      zeroCostOptionId: 1,
      tender: 'credit',
      taxRateMpct: 8_000,
      taxMode: 'inclusive',
    });
    assert.deepEqual([inclusive.taxCents, inclusive.totalCents], [800, 10_800]);
  });
});
