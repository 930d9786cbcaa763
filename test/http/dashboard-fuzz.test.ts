// The dashboard's forms fuzzed: every POST route of the dashboard (read from its route files, as the role test does),
// with real ids of the merchant's objects in its path and random form fields (the page's own names among them:
// amounts, dates, ids, control characters, very long text, repeated keys), posted with a valid CSRF token by an owner
// and by the operator. None answers 500, and the merchant's money is what the posts made it (the ledger verifies).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { verifyLedger } from '../../src/modules/ledger/verify.js';
import { dictionary } from '../../src/platform/dictionary.js';
import { dashboardSession, FORM, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const DIR = 'src/modules/dashboard';
const PUBLIC = new Set(['/dashboard/sign-in', '/dashboard/forgot', '/dashboard/reset', '/dashboard/accept']);
const NAMES = [
  'amount',
  'confirm',
  'formId',
  'kind',
  'accountNumber',
  'routingNumber',
  'expirationMonth',
  'expirationYear',
  'securityCode',
  'line1',
  'postalCode',
  'referenceId',
  'customerId',
  'paymentMethodId',
  'name',
  'url',
  'eventTypes',
  'status',
  'email',
  'to',
  'channel',
  'consent',
  'note',
  'product0',
  'quantity0',
  'price0',
  'item0',
  'dueDate',
  'timeZone',
  'tipOptions',
  'retryDays',
  'taxPercentage',
  'unit',
  'frequency',
  'payments',
  'start',
  'search',
  'role',
  'merchantId',
  'shareBy',
  'recipient',
  'action',
  'extraLatencyMs',
  'seconds',
  'singleUse',
  'firstName',
  'phone',
];

function postRoutes(): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.routes.ts'))) {
    const text = readFileSync(path.join(DIR, file), 'utf8');
    for (const match of text.matchAll(/scope\.post\(\s*[`'"]([^`'"]+)[`'"]/g)) {
      const route = match[1]!;
      // Routes built in a loop: each verb the loop names.
      if (route.includes('${')) {
        const verbs = /for \(const \w+ of (?:\[([^\]]+)\]|Object\.keys\((\w+)\))/.exec(text.slice(0, match.index));
        const list = verbs?.[1]
          ? [...verbs[1].matchAll(/'([\w-]+)'/g)].map((x) => x[1]!)
          : [
              'refund',
              'void',
              'capture',
              'tip',
              'suspend',
              'resume',
              'terminate',
              'publish',
              'send',
              'mark-paid',
              'cancel',
            ];
        for (const verb of list) found.add(route.replace(/\$\{\w+\}/, verb));
      } else found.add(route);
    }
  }
  return [...found].filter((r) => !PUBLIC.has(r)).sort();
}

describe('dashboard forms, fuzzed', () => {
  let t: TestNode;
  let m: MerchantTenant;
  const ids: Record<string, string> = dictionary();
  before(async () => {
    t = await startNode();
    m = await t.merchant();
    const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: 'Fuzz' });
    ids.customer = customer.id;
    ids.method = (
      await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
        pan: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
      })
    ).id;
    ids.transaction = (
      await t.ok(m, 'POST', '/pay-api/v1/transactions/sale', {
        amount: 20,
        accountNumber: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2035,
        securityCode: '123',
        billingAddress: { line1: '1 Main St', postalCode: '10001' },
      })
    ).transactionId;
    ids.invoice = (
      await t.ok(m, 'POST', '/pay-int-api/invoices', {
        customerId: customer.id,
        lineItems: [{ productName: 'Fuzz', quantity: 1, unitPrice: 3 }],
      })
    ).id;
  });
  after(() => t.stop());

  it('answers every random form without a server error', async () => {
    const routes = postRoutes();
    assert.ok(routes.length >= 30, `found ${routes.length} routes`);
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const operator = await dashboardSession(t, {}, 'owner');
    const csrfOf = async (who: typeof owner) => field((await who.get('/dashboard')).text, 'csrf');
    const sessions = [
      { who: owner, csrf: await csrfOf(owner) },
      { who: operator, csrf: await csrfOf(operator) },
    ];
    const idFor = (param: string) =>
      ({ ':id': ids.transaction, ':methodId': ids.method, ':deviceId': 'nope', ':terminalId': ids.customer })[param] ??
      ids.customer!;
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('yes', '0', '-1', '1e9', '12.345', '99999999999', '2026-02-30', '', ' ', '\u0000', '%00'),
      fc.constantFrom(
        ids.customer!,
        ids.method!,
        ids.transaction!,
        ids.invoice!,
        '00000000-0000-0000-0000-000000000000',
      ),
      fc.string({ minLength: 500, maxLength: 3000 }),
    );
    const body = fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(value, fc.array(value, { maxLength: 3 })), {
      maxKeys: 8,
    });
    const failures: string[] = [];
    // Each field alone with a NUL, on every route (a random sample met it once: PostgreSQL text cannot hold one).
    // Before the random posts (which may sign out or meet a rate limit); a session signed out meanwhile is replaced.
    const live = async (who: typeof owner, scope: { merchantId?: string }) => {
      const page = (await who.get('/dashboard')).text;
      const current = page.includes('<title>Sign in') ? await dashboardSession(t, scope, 'owner') : who;
      return { who: current, csrf: await csrfOf(current) };
    };
    let signedIn: Array<{ who: typeof owner; scope: { merchantId?: string } }> = [
      { who: owner, scope: { merchantId: m.id } },
      { who: operator, scope: {} },
    ];
    for (const route of routes) {
      const url = route.replace(/:\w+/g, (param) => idFor(param)!);
      const next: typeof signedIn = [];
      for (const { who: before, scope } of signedIn) {
        const { who, csrf } = await live(before, scope);
        next.push({ who, scope });
        for (const name of NAMES) {
          const params = new URLSearchParams({ csrf });
          params.append(name, '\u0000');
          const res = await t.request('POST', url, {
            payload: params.toString(),
            headers: { ...FORM, cookie: who.cookie },
          });
          if (res.status >= 500) failures.push(`${url} ${res.status}: ${name} a NUL`);
        }
      }
      signedIn = next;
    }
    for (const route of routes) {
      const url = route.replace(/:\w+/g, (param) => idFor(param)!);
      const samples = fc.sample(body, 12);
      for (const [n, fields] of samples.entries()) {
        const { who, csrf } = sessions[n % 2]!;
        const params = new URLSearchParams({ csrf });
        for (const [key, v] of Object.entries(fields)) {
          for (const one of ([] as string[]).concat(v as string | string[])) params.append(key, one);
        }
        const res = await t.request('POST', url, {
          payload: params.toString(),
          headers: { ...FORM, cookie: who.cookie },
        });
        if (res.status >= 500) failures.push(`${url} ${res.status}: ${params.toString().slice(0, 200)}`);
      }
    }
    const errors = t.logs.filter((line) => /"level":50/.test(line)).map((line) => line.slice(0, 600));
    assert.deepEqual(failures, [], errors.join('\n'));
    assert.deepEqual((await verifyLedger(t.ctx.pool)).problems, [], 'the ledger balances after it all');
  });
});
