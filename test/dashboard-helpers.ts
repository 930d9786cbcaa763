// Dashboard users and signed-in sessions for tests: a user made through the accounts service, signed in over HTTP
// with a code for a time step not used before.
import assert from 'node:assert/strict';
import type { Role } from '../src/modules/dashboard/accounts/roles.js';
import { totpCode } from '../src/modules/dashboard/accounts/totp.js';
import type { MerchantTenant, TestNode } from './harness.js';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let step = -1;

export async function dashboardSession(t: TestNode, owner: { merchantId?: string; partnerId?: string }, role: Role) {
  const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'a sufficiently long password';
  const ownerFields = owner.merchantId
    ? { ownerKind: 'merchant' as const, merchantId: owner.merchantId }
    : owner.partnerId
      ? { ownerKind: 'partner' as const, partnerId: owner.partnerId }
      : { ownerKind: 'operator' as const };
  const { user, totpSecret } = await t.ctx.services.dashboard.accounts.create({
    email,
    name: `Test ${role}`,
    role,
    password,
    ...ownerFields,
  });
  const res = await t.request('POST', '/dashboard/sign-in', {
    payload: new URLSearchParams({
      email,
      password,
      code: totpCode(totpSecret, new Date(Date.now() + (step++ % 2) * 30_000)),
    }).toString(),
    headers: FORM,
  });
  assert.equal(res.status, 303, res.text);
  const cookie = `tessera_dashboard=${/tessera_dashboard=([^;]*)/.exec(String(res.headers['set-cookie']))![1]}`;
  const get = (url: string) => t.request('GET', url, { headers: { cookie } });
  const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request('POST', url, {
      payload: new URLSearchParams(fields).toString(),
      headers: { ...FORM, cookie, ...headers },
    });
  return { user, cookie, get, post };
}

/** A hidden field's value on a page. */
export function field(html: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** A customer with a saved card and a monthly card subscription starting in `startInDays` days (through the API). */
export async function customerWithSubscription(
  t: TestNode,
  m: MerchantTenant,
  o: { firstName: string; lastName: string; amount: number; startInDays: number; numberOfPayments?: number },
) {
  const configuration = await t.expectOk(t.request('GET', '/pay-api/v1/configurations/payments', { token: m.token }));
  const processor = configuration.availablePaymentProcessors.find((p: { typeId: number }) => p.typeId === 1).id;
  const customer = await t.ok(m, 'POST', '/pay-api/v1/customers', { firstName: o.firstName, lastName: o.lastName });
  const card = await t.ok(m, 'POST', `/pay-api/v1/customers/${customer.id}/payment-methods/cards`, {
    pan: '4111111111111111',
    expirationMonth: 12,
    expirationYear: 2035,
  });
  const subscription = await t.ok(m, 'POST', '/sub-api/v1/subscriptions', {
    customerId: customer.id,
    paymentMethodId: card.id,
    amount: o.amount,
    paymentFrequencyUnit: 3,
    paymentFrequency: 1,
    ...(o.numberOfPayments ? { numberOfPayments: o.numberOfPayments } : {}),
    transactionType: 2,
    requesterIpAddress: '198.51.100.4',
    paymentProcessorId: processor,
    paymentStartDateTime: new Date(Date.now() + o.startInDays * 86_400_000).toISOString(),
  });
  return { customer, card, subscription };
}
