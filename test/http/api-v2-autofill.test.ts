// Level 2/3 data: the merchant's autofill settings (`/v2/settings/transaction-autofill`) complete what a later card
// sale or authorization leaves out; what the request sends wins; amounts never change. Seen on the v1 GET.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const CARD = { cardNumber: '4111111111111111', securityCode: '123', expirationMonth: 12, expirationYear: 2035 };
const SETTINGS = {
  l2Settings: { taxRate: 8.5 },
  l3Settings: {
    product: {
      name: 'Office Supplies',
      code: 'OFF-001',
      unitPrice: 25,
      measurementUnit: 'pcs',
      quantity: 10,
      discountPercentage: 5,
      description: 'Standard office supplies',
    },
    shippingCharge: 5,
    dutyChargeRate: 2.5,
  },
};

describe('version 2: L2/L3 autofill settings and enhanced data', () => {
  let t: TestNode;
  let m: MerchantTenant;

  before(async () => {
    t = await startNode();
    m = await t.merchant();
  });
  after(() => t?.stop());

  const call = (method: string, path: string, body?: unknown) => t.call(m, method, path, body);
  const ok = (method: string, path: string, body?: unknown) => t.ok(m, method, path, body);
  const sale = async (baseAmount: number, extra: Record<string, unknown> = {}) => {
    const made = await ok('POST', '/v2/transactions', {
      baseAmount,
      referenceId: `l3-${randomUUID()}`,
      transactionDetails: { cardData: { paymentMethodDetails: CARD } },
      ...extra,
    });
    return (await ok('GET', `/pay-api/v1/transactions/${made.transactionId}`)) as {
      transactionEnhancedData: any;
      amount: { totalAmount: number };
    };
  };

  it('starts empty, then keeps what was put', async () => {
    assert.deepEqual(await ok('GET', '/v2/settings/transaction-autofill'), {
      l2Settings: { taxRate: null },
      l3Settings: { product: null, shippingCharge: null, dutyChargeRate: null },
    });
    const put = await call('PUT', '/v2/settings/transaction-autofill', SETTINGS);
    assert.equal(put.status, 200, put.text);
    assert.equal(put.text, '');
    assert.deepEqual(await ok('GET', '/v2/settings/transaction-autofill'), SETTINGS);
    const bad = await call('PUT', '/v2/settings/transaction-autofill', {
      ...SETTINGS,
      l3Settings: { ...SETTINGS.l3Settings, shippingCharge: 1.005 },
    });
    assert.equal(bad.status, 400);
    const unknown = await call('PUT', '/v2/settings/transaction-autofill', { ...SETTINGS, l4Settings: {} });
    assert.equal(unknown.status, 400);
  });

  it('completes a sale that sends none, without changing its amount', async () => {
    const shown = await sale(100);
    assert.equal(shown.amount.totalAmount, 100);
    assert.deepEqual(shown.transactionEnhancedData, {
      salesTaxRate: 8.5,
      invoiceNumber: null,
      purchaseOrder: null,
      shippingCharges: 5,
      dutyCharges: 2.5,
      products: [
        {
          name: 'Office Supplies',
          code: 'OFF-001',
          unitPrice: 25,
          measurementUnit: 'pcs',
          quantity: 10,
          taxAmount: null,
          discountRate: 5,
          description: 'Standard office supplies',
        },
      ],
      autofilled: ['salesTaxRate', 'shippingCharges', 'dutyCharges', 'products'],
    });
    const odd = await sale(33.33);
    assert.equal(odd.transactionEnhancedData.dutyCharges, 0.83, '2.5% of 33.33 = 0.83325, rounded half-up');
  });

  it('keeps what the request sends and fills only the rest; v1 sends l2 and l3', async () => {
    const own = await sale(50, {
      transactionEnhancedData: {
        salesTaxRate: 6,
        invoiceNumber: 'INV-7',
        purchaseOrder: 'PO-7',
        products: [{ name: 'Widget', code: 'W-1', unitPrice: 25, quantity: 2, taxAmount: 3, discountRate: 0 }],
      },
    });
    const data = own.transactionEnhancedData;
    assert.equal(data.salesTaxRate, 6);
    assert.equal(data.invoiceNumber, 'INV-7');
    assert.equal(data.products.length, 1);
    assert.equal(data.products[0].name, 'Widget');
    assert.equal(data.products[0].taxAmount, 3);
    assert.equal(data.shippingCharges, 5);
    assert.equal(data.dutyCharges, 1.25);
    assert.deepEqual(data.autofilled, ['shippingCharges', 'dutyCharges']);

    const v1 = await ok('POST', '/pay-api/v1/transactions/sale', {
      amount: 20,
      accountNumber: CARD.cardNumber,
      expirationMonth: 12,
      expirationYear: 2035,
      referenceId: `v1-l3-${randomUUID()}`,
      l2: { salesTaxRate: 7 },
      l3: { purchaseOrder: 'PO-V1', shippingCharges: 0, dutyCharges: 0 },
    });
    const v1Shown = await ok('GET', `/pay-api/v1/transactions/${v1.transactionId}`);
    assert.equal(v1Shown.transactionEnhancedData.salesTaxRate, 7);
    assert.equal(v1Shown.transactionEnhancedData.purchaseOrder, 'PO-V1');
    assert.equal(v1Shown.transactionEnhancedData.shippingCharges, 0);
    assert.deepEqual(v1Shown.transactionEnhancedData.autofilled, ['products']);
  });

  it('adds nothing once the settings are cleared, and leaves refunds without it', async () => {
    assert.equal(
      (await call('PUT', '/v2/settings/transaction-autofill', { l2Settings: null, l3Settings: null })).status,
      200,
    );
    assert.equal((await sale(10)).transactionEnhancedData, null);
    const credit = await ok('POST', '/v2/transactions/credit', {
      baseAmount: 5,
      creditDetails: { cardData: { paymentMethodDetails: CARD } },
    });
    assert.equal((await ok('GET', `/pay-api/v1/transactions/${credit.transactionId}`)).transactionEnhancedData, null);
  });
});
