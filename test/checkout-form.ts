// Paying through the hosted checkout page over HTTP, as a browser without JavaScript posts its form.
import type { TestNode } from './harness.js';

export interface CheckoutPage {
  status: number;
  html: string;
  cookie: string;
  csrf: string;
}

export async function openCheckout(t: TestNode, sessionId: string): Promise<CheckoutPage> {
  const res = await t.request('GET', `/checkout/${sessionId}`);
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return {
    status: res.status,
    html: res.text,
    cookie: setCookie.split(';')[0] ?? '',
    csrf: /name="csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? '',
  };
}

export async function submitCheckout(t: TestNode, sessionId: string, fields: Record<string, string>) {
  const page = await openCheckout(t, sessionId);
  return t.request('POST', `/checkout/${sessionId}`, {
    payload: new URLSearchParams({ csrf: page.csrf, ...fields }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
  });
}

export const cardFields = (number = '4111111111111111', extra: Record<string, string> = {}) => ({
  method: 'card',
  cardName: 'Ada Lovelace',
  cardNumber: number,
  expiry: '12/30',
  cvc: '123',
  line1: '123 Test St',
  city: 'New York',
  state: 'NY',
  postalCode: '10001',
  email: 'ada@example.com',
  ...extra,
});
