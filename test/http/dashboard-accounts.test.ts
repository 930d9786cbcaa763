// Invitations and password resets: single-use, expiring links sent by e-mail through the messages module (the
// sandbox outbox shows them), answered the same whether or not an account exists, and each ending what it must.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { dashboardSession, FORM, field } from '../dashboard-helpers.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('dashboard invitations and password resets', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    t = await startNode();
    m = await t.merchant({ body: { companyName: 'Team Works' } });
  });
  after(() => t.stop());

  const form = (url: string, fields: Record<string, string>) =>
    t.request('POST', url, { payload: new URLSearchParams(fields).toString(), headers: FORM });
  const outboxLink = async (to: string, path: string) => {
    const rows = await t.query<{ text: string }>(
      `SELECT body_text AS text FROM messages WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1`,
      [to],
    );
    assert.ok(rows[0], `an e-mail to ${to}`);
    const url = new RegExp(`https?://[^\\s]+${path.replace('/', '\\/')}\\?token=[\\w-]+`).exec(rows[0].text)?.[0];
    assert.ok(url, rows[0].text);
    return new URL(url).pathname + new URL(url).search;
  };

  it('invites a user, who sets a password and enrols a second factor once', async () => {
    const owner = await dashboardSession(t, { merchantId: m.id }, 'owner');
    const team = await owner.get('/dashboard/team');
    assert.equal(team.status, 200);
    const invited = await owner.post('/dashboard/team/invite', {
      csrf: field(team.text, 'csrf'),
      name: 'New Analyst',
      email: 'analyst@teamworks.example',
      role: 'analyst',
    });
    assert.equal(invited.status, 303, invited.text);
    const link = await outboxLink('analyst@teamworks.example', '/dashboard/accept');
    const page = await t.request('GET', link);
    assert.equal(page.status, 200);
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(page.text)![1]!;
    const token = new URLSearchParams(link.split('?')[1]).get('token')!;
    const badCode = await form('/dashboard/accept', {
      token,
      password: 'a fine long password',
      code: '000000' === totpCode(secret) ? '111111' : '000000',
    });
    assert.equal(badCode.status, 400);
    const accepted = await form('/dashboard/accept', {
      token,
      password: 'a fine long password',
      code: totpCode(secret),
    });
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal((await t.request('GET', link)).status, 404, 'the invitation is used up');
    const signIn = await form('/dashboard/sign-in', {
      email: 'analyst@teamworks.example',
      password: 'a fine long password',
      code: totpCode(secret, new Date(Date.now() + 30_000)),
    });
    assert.equal(signIn.status, 303, signIn.text);
    const listed = await owner.get('/dashboard/team');
    assert.match(listed.text, /analyst@teamworks\.example<\/td><td>analyst<\/td><td>active/);
  });

  it('lets only managers invite, and only an owner make an owner', async () => {
    const analyst = await dashboardSession(t, { merchantId: m.id }, 'analyst');
    assert.equal((await analyst.get('/dashboard/team')).status, 403);
    const admin = await dashboardSession(t, { merchantId: m.id }, 'admin');
    const team = await admin.get('/dashboard/team');
    const owner = await admin.post('/dashboard/team/invite', {
      csrf: field(team.text, 'csrf'),
      name: 'Would-be Owner',
      email: 'owner2@teamworks.example',
      role: 'owner',
    });
    assert.equal(owner.status, 400);
    const none = await t.query(`SELECT 1 FROM dashboard_users WHERE email = 'owner2@teamworks.example'`);
    assert.equal(none.length, 0);
  });

  it('resets a password through an e-mailed link, once, and ends every session', async () => {
    const user = await dashboardSession(t, { merchantId: m.id }, 'developer');
    assert.equal((await user.get('/dashboard')).status, 200);
    const unknown = await form('/dashboard/forgot', { email: 'nobody@teamworks.example' });
    const known = await form('/dashboard/forgot', { email: user.user.email });
    assert.equal(unknown.status, 200);
    assert.equal(known.status, 200);
    assert.equal(
      unknown.text.replace(/[\s\S]*<main/, ''),
      known.text.replace(/[\s\S]*<main/, ''),
      'the same answer either way',
    );
    const none = await t.query(`SELECT 1 FROM messages WHERE to_address = 'nobody@teamworks.example'`);
    assert.equal(none.length, 0);
    const link = await outboxLink(user.user.email, '/dashboard/reset');
    assert.equal((await t.request('GET', link)).status, 200);
    const token = new URLSearchParams(link.split('?')[1]).get('token')!;
    assert.equal((await form('/dashboard/reset', { token, password: 'short' })).status, 400);
    assert.equal((await form('/dashboard/reset', { token, password: 'a brand new long password' })).status, 200);
    assert.equal(
      (await form('/dashboard/reset', { token, password: 'another new long password' })).status,
      400,
      'once',
    );
    assert.equal((await user.get('/dashboard')).status, 303, 'signed out everywhere');
  });
});
