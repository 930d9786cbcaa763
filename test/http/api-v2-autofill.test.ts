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
  /** The older revision's part of the answer (it answers both revisions' names). */
  const older = (body: any) => ({ l2Settings: body.l2Settings, l3Settings: body.l3Settings });
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
      level2Settings: { taxRate: null },
      level3Settings: { product: null, shippingChargeRate: null, dutyChargeRate: null },
    });
    const put = await call('PUT', '/v2/settings/transaction-autofill', SETTINGS);
    assert.equal(put.status, 200, put.text);
    assert.equal(put.text, '');
    assert.deepEqual(older(await ok('GET', '/v2/settings/transaction-autofill')), SETTINGS);
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

  it('takes the published PATCH as a merge: level2/level3 names, productName, shipping as a rate', async () => {
    const shop = await t.merchant();
    const patch = (body: unknown) => t.call(shop, 'PATCH', '/v2/settings/transaction-autofill', body);
    const read = () => t.ok(shop, 'GET', '/v2/settings/transaction-autofill');
    const first = await patch({ level2Settings: { taxRate: 8.25 }, level3Settings: { shippingChargeRate: 10 } });
    assert.deepEqual([first.status, first.text], [200, '']);
    const second = await patch({ level3Settings: { product: { productName: 'Beans', code: 'BN/01', quantity: 2 } } });
    assert.equal(second.status, 200, second.text);
    const shown = await read();
    assert.deepEqual(shown.level2Settings, { taxRate: 8.25 });
    assert.deepEqual(shown.level3Settings, {
      product: {
        productName: 'Beans',
        code: 'BN/01',
        unitPrice: null,
        measurementUnit: null,
        quantity: 2,
        discountPercentage: null,
        description: null,
      },
      shippingChargeRate: 10,
      dutyChargeRate: null,
    });
    assert.equal(shown.l3Settings.product.name, 'Beans', 'the older names see the same settings');
    assert.equal(shown.l3Settings.shippingCharge, null, 'a rate is not an amount');

    const made = await t.ok(shop, 'POST', '/v2/transactions', {
      baseAmount: 40,
      referenceId: `l3-${randomUUID()}`,
      transactionDetails: { cardData: { paymentMethodDetails: CARD } },
    });
    const v1 = await t.ok(shop, 'GET', `/pay-api/v1/transactions/${made.transactionId}`);
    assert.equal(v1.transactionEnhancedData.shippingCharges, 4, '10% of 40.00');
    assert.equal(v1.transactionEnhancedData.salesTaxRate, 8.25);
    assert.equal(v1.amount.totalAmount, 40, 'amounts do not change');

    for (const bad of [
      { level2Settings: { taxRate: 23 } },
      { level3Settings: { shippingCharge: 5 } },
      { level3Settings: { product: { name: 'older name' } } },
      { level3Settings: { product: { code: 'a;b' } } },
      { l2Settings: { taxRate: 1 } },
    ]) {
      assert.equal((await patch(bad)).status, 400, JSON.stringify(bad));
    }

    // Two patches of different fields at once: both land.
    await Promise.all([patch({ level2Settings: { taxRate: 5 } }), patch({ level3Settings: { dutyChargeRate: 1.5 } })]);
    const both = await read();
    assert.deepEqual([both.level2Settings.taxRate, both.level3Settings.dutyChargeRate], [5, 1.5]);
    assert.equal(both.level3Settings.product.productName, 'Beans', 'left out keeps its value');

    assert.equal((await patch({ level3Settings: null, level2Settings: { taxRate: null } })).status, 200);
    assert.deepEqual(older(await read()), {
      l2Settings: { taxRate: null },
      l3Settings: { product: null, shippingCharge: null, dutyChargeRate: null },
    });
  });
});
