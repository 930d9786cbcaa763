// Invoice arithmetic as properties: over thousands of random invoices the parts add up exactly (per line and for the
// invoice), nothing goes negative, discounts never exceed what they discount, and recomputing gives the same result.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { calculateInvoice, creditCardPaymentOf, lineAmount } from '../../src/modules/invoices/calculation.js';
import { DEFAULT_SETTINGS, ZeroCostProcessingOption } from '../../src/modules/merchants/merchants.model.js';

const rate = fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null });
const line = fc.record({
  quantityMilli: fc.integer({ min: 1, max: 10_000_000 }),
  unitPriceCents: fc.integer({ min: 0, max: 100_000_000 }),
  discountMpct: rate,
  taxMpct: rate,
});
const invoice = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 30 }),
  discountMpct: rate,
  taxMpct: rate,
  shippingFeeCents: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
  feesMpct: rate,
});

describe('invoice calculation', () => {
  it('rounds quantity × price half up to the cent', () => {
    assert.equal(lineAmount(1500, 999), 1499); // 14.985 → 14.99
    assert.equal(lineAmount(1, 1), 0); // 0.001 cents
    assert.equal(lineAmount(333, 100), 33); // 0.333 × $1
    assert.equal(lineAmount(2500, 1), 3); // 2.5 cents → 3
  });

  it('a worked example: line and invoice discounts, a line rate and the invoice rate, shipping and fees', () => {
    const result = calculateInvoice({
      lines: [
        { quantityMilli: 2000, unitPriceCents: 15_000, discountMpct: 10_000, taxMpct: 8_875 },
        { quantityMilli: 1500, unitPriceCents: 3_333, discountMpct: null, taxMpct: null },
      ],
      discountMpct: 5_000,
      taxMpct: 5_000,
      shippingFeeCents: 1_299,
      feesMpct: 2_500,
    });
    // Line 1: 300.00, −30.00 line discount, −13.50 invoice discount = 256.50; tax 8.875% = 22.76 → 279.26.
    assert.deepEqual(result.lines[0], {
      amountCents: 30_000,
      lineDiscountCents: 3_000,
      invoiceDiscountCents: 1_350,
      discountCents: 4_350,
      taxRateMpct: 8_875,
      taxCents: 2_276,
      totalCents: 27_926,
    });
    // Line 2: 1.5 × 33.33 = 50.00 (49.995 rounded), −2.50 = 47.50; tax 5% = 2.38 → 49.88.
    assert.deepEqual(result.lines[1], {
      amountCents: 5_000,
      lineDiscountCents: 0,
      invoiceDiscountCents: 250,
      discountCents: 250,
      taxRateMpct: 5_000,
      taxCents: 238,
      totalCents: 4_988,
    });
    // Fees 2.5% of 304.00 = 7.60; total 350.00 − 46.00 + 26.14 + 12.99 + 7.60 = 350.73.
    assert.equal(result.subtotalCents, 35_000);
    assert.equal(result.discountCents, 4_600);
    assert.equal(result.taxCents, 2_514);
    assert.equal(result.feesCents, 760);
    assert.equal(result.totalCents, 35_000 - 4_600 + 2_514 + 1_299 + 760);
  });

  it('the parts always add up, never go negative, and recomputing changes nothing (property)', () => {
    fc.assert(
      fc.property(invoice, (input) => {
        const result = calculateInvoice(input);
        for (const l of result.lines) {
          assert.ok(l.discountCents >= 0 && l.discountCents <= l.amountCents);
          assert.ok(l.taxCents >= 0);
          assert.equal(l.totalCents, l.amountCents - l.discountCents + l.taxCents);
        }
        const sum = (pick: (l: (typeof result.lines)[number]) => number) =>
          result.lines.reduce((a, l) => a + pick(l), 0);
        assert.equal(
          result.subtotalCents,
          sum((l) => l.amountCents),
        );
        assert.equal(
          result.discountCents,
          sum((l) => l.discountCents),
        );
        assert.equal(
          result.taxCents,
          sum((l) => l.taxCents),
        );
        assert.equal(
          result.totalCents,
          result.subtotalCents - result.discountCents + result.taxCents + result.shippingFeeCents + result.feesCents,
        );
        assert.equal(result.totalCents, sum((l) => l.totalCents) + result.shippingFeeCents + result.feesCents);
        assert.ok(Number.isSafeInteger(result.totalCents) && result.totalCents >= 0);
        assert.deepEqual(calculateInvoice(input), result);
      }),
      { numRuns: 2000 },
    );
  });

  const program = fc.record({
    zeroCostProcessingOptionId: fc.constantFrom(
      ZeroCostProcessingOption.None,
      ZeroCostProcessingOption.CashDiscount,
      ZeroCostProcessingOption.DualPricing,
      ZeroCostProcessingOption.Surcharge,
    ),
    defaultSurchargeRateMpct: rate,
    defaultCashDiscountRateMpct: rate,
    defaultDualPricingRateMpct: rate,
  });

  it('on every zero-cost program, the card payment is the invoice total plus the program, which only its own program adds (property)', () => {
    fc.assert(
      fc.property(invoice, program, (input, rates) => {
        const settings = { ...DEFAULT_SETTINGS, ...rates };
        const { totalCents } = calculateInvoice(input);
        const card = creditCardPaymentOf(totalCents, settings);
        assert.equal(card.totalCents, totalCents + card.surchargeCents + card.cashDiscountCents);
        assert.ok(card.surchargeCents >= 0 && card.cashDiscountCents >= 0);
        const id = rates.zeroCostProcessingOptionId;
        if (id !== ZeroCostProcessingOption.Surcharge) assert.equal(card.surchargeCents, 0);
        if (id !== ZeroCostProcessingOption.CashDiscount && id !== ZeroCostProcessingOption.DualPricing) {
          assert.equal(card.cashDiscountCents, 0);
        }
        if (id === ZeroCostProcessingOption.None) assert.equal(card.totalCents, totalCents);
      }),
      { numRuns: 2000 },
    );
    // The worked case of the report: 3% surcharge on a 100.00 invoice: the invoice asks 100.00, a card pays 103.00.
    const surcharged = creditCardPaymentOf(10_000, {
      ...DEFAULT_SETTINGS,
      zeroCostProcessingOptionId: ZeroCostProcessingOption.Surcharge,
      defaultSurchargeRateMpct: 3_000,
    });
    assert.deepEqual(surcharged, { surchargeCents: 300, cashDiscountCents: 0, totalCents: 10_300 });
  });
});
