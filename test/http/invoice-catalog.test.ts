// The invoicing catalog and settings: unit types (integer ids, uuids accepted), categories (names unique per
// merchant case-insensitively, also under concurrent creates; itemCount; deleting keeps the items), line items (the
// category's default unit type, else Each; search, category and noCategory filters; removal), invoice settings
// (defaults, full replacement, a missing field named, processors checked, merchant and partner scope).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MerchantTenant, startNode, type Tenant, type TestNode } from '../harness.js';

describe('invoice catalog and settings', () => {
  let t: TestNode;
  let m: MerchantTenant;
  let other: MerchantTenant;
  let partner: Tenant;
  let partnerMerchant: MerchantTenant;

  before(async () => {
    t = await startNode();
    m = await t.merchant();
    other = await t.merchant();
    partner = await t.partner();
    partnerMerchant = await t.merchant({ partnerId: partner.id });
  });
  after(() => t.stop());

  const req = (method: string, url: string, body?: unknown, tenant: Tenant = m) =>
    t.request(method, url, {
      token: tenant.token,
      headers: { 'x-api-version': '1.0' },
      ...(body === undefined ? {} : { body }),
    });

  it('lists the unit types with integer ids and stable uuids', async () => {
    const list = await t.expectOk(req('GET', '/pay-int-api/line-items/unit-types'));
    assert.ok(list.total >= 20);
    assert.equal(list.items.length, list.total);
    const each = list.items.find((u: { name: string }) => u.name === 'Each');
    assert.deepEqual(Object.keys(each).sort(), ['abbreviation', 'category', 'id', 'name', 'uuid']);
    assert.equal(each.id, 1);
    const again = await t.expectOk(req('GET', '/pay-int-api/line-items/unit-types'));
    assert.deepEqual(again, list, 'the same uuids every time');
  });

  it('categories: create, unique names (case-insensitive, concurrent), update, list, delete', async () => {
    const hours = await t.expectOk(
      req('POST', '/pay-int-api/categories', { name: 'Consulting', defaultUnitTypeId: 7 }),
    );
    assert.deepEqual(Object.keys(hours).sort(), ['defaultUnitTypeId', 'id', 'itemCount', 'name']);
    assert.equal(hours.itemCount, 0);
    const clash = await req('POST', '/pay-int-api/categories', { name: 'CONSULTING' });
    assert.equal(clash.status, 400);
    assert.ok(clash.body.errors.name);
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => req('POST', '/pay-int-api/categories', { name: 'Racing' })),
    );
    assert.deepEqual(racing.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400]);
    assert.equal(
      (await req('POST', '/pay-int-api/categories', { name: 'Consulting' }, other)).status,
      200,
      'per merchant',
    );
    const blank = await req('POST', '/pay-int-api/categories', { name: '   ' });
    assert.equal(blank.status, 400, 'a blank name (the fuzz suite found it answered 500)');
    assert.ok(blank.body.errors.name);
    const badUnit = await req('POST', '/pay-int-api/categories', { name: 'Odd', defaultUnitTypeId: 999 });
    assert.ok(badUnit.body.errors.defaultUnitTypeId);
    const units = await t.expectOk(req('GET', '/pay-int-api/line-items/unit-types'));
    const kg = units.items.find((u: { name: string }) => u.name === 'Kilogram');
    const goods = await t.expectOk(
      req('POST', '/pay-int-api/categories', { name: 'Goods', defaultUnitTypeId: kg.uuid }),
    );
    assert.equal(goods.defaultUnitTypeId, kg.id, 'a uuid is taken for the integer id');
    const renamed = await t.expectOk(req('PUT', `/pay-int-api/categories/${goods.id}`, { name: 'Produce' }));
    assert.equal(renamed.name, 'Produce');
    assert.equal(renamed.defaultUnitTypeId, null);
    assert.equal((await req('PUT', `/pay-int-api/categories/${goods.id}`, { name: 'consulting' })).status, 400);
    const searched = await t.expectOk(req('GET', '/pay-int-api/categories?search=prod'));
    assert.deepEqual(
      searched.items.map((c: { name: string }) => c.name),
      ['Produce'],
    );
    const all = await t.expectOk(req('GET', '/pay-int-api/categories?orderBy=name&asc=true'));
    assert.deepEqual(
      all.items.map((c: { name: string }) => c.name),
      ['Consulting', 'Produce', 'Racing'],
    );
  });

  it('line items: unit type from the category or Each, filters, replacement, removal; deleting a category keeps them', async () => {
    const category = await t.expectOk(req('POST', '/pay-int-api/categories', { name: 'Design', defaultUnitTypeId: 7 }));
    const logo = await t.expectOk(
      req('POST', '/pay-int-api/line-items', {
        productName: 'Logo design',
        description: 'Three drafts\nand one final',
        sku: 'DES-LOGO',
        unitPrice: 95.5,
        categoryId: category.id,
        taxRate: 8.875,
      }),
    );
    assert.equal(logo.lineItemId, logo.id);
    assert.equal(logo.unitTypeId, 7);
    assert.equal(logo.unitType, 'Hour');
    assert.equal(logo.categoryName, 'Design');
    assert.equal(logo.categoryDefaultUnitTypeId, 7);
    assert.equal(logo.taxRate, 8.875);
    const plain = await t.expectOk(req('POST', '/pay-int-api/line-items', { productName: 'Delivery', unitPrice: 0 }));
    assert.equal(plain.unitType, 'Each');
    assert.equal(plain.categoryId, null);
    for (const [body, field] of [
      [{ productName: 'X', unitPrice: 1.005 }, 'unitPrice'],
      [{ productName: 'X', unitPrice: -1 }, 'unitPrice'],
      [{ productName: 'X', unitPrice: 1, taxRate: 100.5 }, 'taxRate'],
      [{ productName: 'X', unitPrice: 1, unitTypeId: 0 }, 'unitTypeId'],
      [{ unitPrice: 1 }, 'productName'],
      [{ productName: '  ', unitPrice: 1 }, 'productName'],
    ] as const) {
      const refused = await req('POST', '/pay-int-api/line-items', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.ok(refused.body.errors[field], `${field}: ${JSON.stringify(refused.body.errors)}`);
    }
    const foreignCategory = await t.expectOk(req('POST', '/pay-int-api/categories', { name: 'Theirs' }, other));
    const refused = await req('POST', '/pay-int-api/line-items', {
      productName: 'X',
      unitPrice: 1,
      categoryId: foreignCategory.id,
    });
    assert.equal(refused.status, 404, "another merchant's category reads as missing");

    assert.equal((await t.expectOk(req('GET', `/pay-int-api/categories?search=Design`))).items[0].itemCount, 1);
    const list = (query: string) => t.expectOk(req('GET', `/pay-int-api/line-items${query}`));
    assert.deepEqual(
      (await list('?search=des-logo')).items.map((i: { id: string }) => i.id),
      [logo.id],
    );
    assert.deepEqual(
      (await list('?search=drafts')).items.map((i: { id: string }) => i.id),
      [logo.id],
    );
    assert.deepEqual(
      (await list(`?categoryId=${category.id}`)).items.map((i: { id: string }) => i.id),
      [logo.id],
    );
    assert.ok(
      (await list('?noCategory=true')).items.every((i: { categoryId: string | null }) => i.categoryId === null),
    );
    assert.equal(
      (await list(`?categoryId=${category.id}&noCategory=true`)).total,
      1,
      'noCategory ignored with categoryId',
    );

    const replaced = await t.expectOk(
      req('PUT', `/pay-int-api/line-items/${logo.id}`, { productName: 'Logo design', unitPrice: 120, unitTypeId: 6 }),
    );
    assert.equal(replaced.unitPrice, 120);
    assert.equal(replaced.categoryId, null, 'a full replacement');
    assert.equal(replaced.description, null);
    await t.expectOk(
      req('PUT', `/pay-int-api/line-items/${logo.id}`, {
        productName: 'Logo',
        unitPrice: 120,
        categoryId: category.id,
      }),
    );
    const deleted = await req('DELETE', `/pay-int-api/categories/${category.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.text, '');
    const kept = (await list('?search=Logo')).items[0];
    assert.equal(kept.categoryId, null);
    assert.equal(kept.categoryName, null);
    assert.equal((await req('DELETE', `/pay-int-api/line-items/${logo.id}`)).status, 200);
    assert.equal((await list('?search=Logo')).total, 0);
    assert.equal((await req('DELETE', `/pay-int-api/line-items/${logo.id}`)).status, 404);
    assert.equal(
      (await req('PUT', `/pay-int-api/line-items/${logo.id}`, { productName: 'X', unitPrice: 1 })).status,
      404,
    );
  });

  it('settings: defaults, a full replacement (a missing field named), processors checked, merchant and partner scope', async () => {
    const path = (merchantId: string) => `/pay-int-api/merchants/${merchantId}/invoices/settings`;
    const defaults = await t.expectOk(req('GET', path(m.id)));
    assert.equal(defaults.merchantId, m.id);
    assert.equal(defaults.dueDateAfterDays, 30);
    assert.equal(defaults.paymentMethodTypeId, 1);
    assert.equal(defaults.isDiscountEnabled, false);
    assert.equal(defaults.canOverWriteInvoiceLineItemPrice, true);
    const { merchantId: _, ...body } = defaults;
    const changed = {
      ...body,
      dueDateAfterDays: 14,
      taxPercentage: 7.25,
      isDiscountEnabled: true,
      discountPercentage: 2.5,
      isShippingFeeEnabled: true,
      shippingFeeAmount: 12.99,
      notes: 'Net 14.\nThank you.',
      canOverWriteInvoiceLineItemPrice: false,
    };
    const saved = await t.expectOk(req('PUT', path(m.id), changed));
    assert.deepEqual(saved, { merchantId: m.id, ...changed });
    assert.deepEqual(await t.expectOk(req('GET', path(m.id))), saved);
    const { notes: _notes, ...missing } = changed;
    const incomplete = await req('PUT', path(m.id), missing);
    assert.equal(incomplete.status, 400);
    assert.ok(incomplete.body.errors.notes, JSON.stringify(incomplete.body.errors));
    const configuration = await t.expectOk(req('GET', '/pay-api/v1/configurations/payments', undefined, other));
    const foreign = configuration.availablePaymentProcessors[0].id;
    const wrongProcessor = await req('PUT', path(m.id), { ...changed, cardPaymentProcessorId: foreign });
    assert.ok(wrongProcessor.body.errors.cardPaymentProcessorId);
    const own = await t.expectOk(req('GET', '/pay-api/v1/configurations/payments'));
    const achId = own.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 2).id;
    const wrongKind = await req('PUT', path(m.id), { ...changed, cardPaymentProcessorId: achId });
    assert.ok(wrongKind.body.errors.cardPaymentProcessorId, 'an ACH processor is not a card processor');
    assert.equal(
      (await t.expectOk(req('PUT', path(m.id), { ...changed, achPaymentProcessorId: achId }))).achPaymentProcessorId,
      achId,
    );

    assert.equal((await req('GET', path(other.id))).status, 404, "another merchant's settings");
    assert.equal((await req('GET', path(partnerMerchant.id), undefined, partner)).status, 200, "a partner's merchant");
    assert.equal((await req('PUT', path(partnerMerchant.id), changed, partner)).status, 200);
    assert.equal((await req('GET', path(m.id), undefined, partner)).status, 404, 'not this partner’s merchant');
  });

  it('settings: what GET answers (merchantId included) can be changed and PUT back; whose they are is decided first', async () => {
    const path = (merchantId: string) => `/pay-int-api/merchants/${merchantId}/invoices/settings`;
    const read = await t.expectOk(req('GET', path(partnerMerchant.id), undefined, partner));
    const saved = await req('PUT', path(partnerMerchant.id), { ...read, dueDateAfterDays: 21 }, partner);
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.dueDateAfterDays, 21);
    const upper = { ...read, merchantId: partnerMerchant.id.toUpperCase(), dueDateAfterDays: 22 };
    assert.equal((await req('PUT', path(partnerMerchant.id), upper, partner)).status, 200, 'a uuid in capitals');

    const mismatched = await req('PUT', path(partnerMerchant.id), { ...read, merchantId: m.id }, partner);
    assert.equal(mismatched.status, 400, mismatched.text);
    assert.deepEqual(Object.keys(mismatched.body.errors), ['merchantId']);

    // Another partner's merchant (or another merchant's) is a 404 even with a body that would be refused.
    for (const bad of [{ ...read, merchantId: m.id }, { nonsense: true }, { ...read, dueDateAfterDays: 'x' }]) {
      assert.equal((await req('PUT', path(m.id), bad, partner)).status, 404, JSON.stringify(bad));
      assert.equal((await req('PUT', path(other.id), bad)).status, 404, JSON.stringify(bad));
    }
  });

  it("another merchant's catalog is a 404, and a partner token is refused", async () => {
    const category = await t.expectOk(req('POST', '/pay-int-api/categories', { name: 'Private' }));
    const item = await t.expectOk(req('POST', '/pay-int-api/line-items', { productName: 'Private', unitPrice: 1 }));
    assert.equal((await req('PUT', `/pay-int-api/categories/${category.id}`, { name: 'Mine' }, other)).status, 404);
    assert.equal((await req('DELETE', `/pay-int-api/categories/${category.id}`, undefined, other)).status, 404);
    assert.equal(
      (await req('PUT', `/pay-int-api/line-items/${item.id}`, { productName: 'Mine', unitPrice: 1 }, other)).status,
      404,
    );
    assert.equal((await req('DELETE', `/pay-int-api/line-items/${item.id}`, undefined, other)).status, 404);
    assert.equal((await req('GET', '/pay-int-api/categories?search=Private', undefined, other)).body.total, 0);
    assert.equal((await req('GET', '/pay-int-api/line-items', undefined, partner)).status, 403);
  });
});
