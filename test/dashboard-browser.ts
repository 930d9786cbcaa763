// The dashboard's browser tests' shared steps: axe-core's check of a page, and a new user of an owner signed in
// through the form (Email, Password, the one-time code) in a page of its own.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { Role } from '../src/modules/dashboard/accounts/roles.js';
import { totpCode } from '../src/modules/dashboard/accounts/totp.js';
import { openPage } from './browser-session.js';
import type { TestNode } from './harness.js';

/** axe-core finds no accessibility violation on the page. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page: page as never }).analyze();
  assert.deepEqual(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `${what} has no accessibility violation`,
  );
}

let users = 0;

/** A new user of the merchant, the partner or (neither) the operator, signed in through the form. */
export async function signedInPage(
  t: TestNode & { baseUrl: string },
  browser: Browser,
  owner: { merchantId?: string; partnerId?: string },
  role: Role,
  viewport = { width: 1200, height: 1000 },
) {
  const email = `browser-${++users}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'a long and careful passphrase';
  const { totpSecret } = await t.ctx.services.dashboard.accounts.create({
    email,
    name: `Browser ${role}`,
    role,
    password,
    ...(owner.merchantId
      ? { ownerKind: 'merchant' as const, merchantId: owner.merchantId }
      : owner.partnerId
        ? { ownerKind: 'partner' as const, partnerId: owner.partnerId }
        : { ownerKind: 'operator' as const }),
  });
  const opened = await openPage(browser, viewport);
  await opened.page.goto(`${t.baseUrl}/dashboard/sign-in`);
  await opened.page.getByLabel('Email').fill(email);
  await opened.page.getByLabel('Password').fill(password);
  await opened.page.getByLabel(/code/).fill(totpCode(totpSecret));
  await opened.page.getByRole('button', { name: 'Sign in' }).click();
  await opened.page.getByRole('button', { name: 'Sign out' }).waitFor();
  return opened;
}
