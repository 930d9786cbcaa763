// The dashboard's account rules over HTTP: sign-in with e-mail, password and a TOTP code, all required; the same
// answer whichever was wrong; a code good once; five failures lock the account; sessions that end when idle, when
// signed out, or everywhere at once; CSRF on every form; the audit log of each attempt.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/modules/dashboard/accounts/totp.js';
import { type MerchantTenant, startNode, type TestNode } from '../harness.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('dashboard sign-in', () => {
  let t: TestNode;
  let m: MerchantTenant;
  before(async () => {
    // Every sign-in of this file comes from one address: more than the default 20 a minute.
    t = await startNode({ env: { DASHBOARD_SIGN_IN_PER_MINUTE: '1000' } });
    m = await t.merchant({ body: { companyName: 'Dash Co' } });
  });
  after(() => t.stop());

  const newUser = async (role: 'owner' | 'analyst' = 'owner') => {
    const email = `user-${Math.random().toString(36).slice(2)}@example.com`;
    const password = 'correct horse battery staple';
    const { user, totpSecret } = await t.ctx.services.dashboard.accounts.create({
      email,
      name: 'Dash User',
      ownerKind: 'merchant',
      merchantId: m.id,
      role,
      password,
    });
    return { user, email, password, totpSecret };
  };
  /** A code for a step after any the user has used: the next 30 s step, which the server takes as drift. */
  const codeAt = (secret: string, offsetSteps = 0) => totpCode(secret, new Date(Date.now() + offsetSteps * 30_000));
  const signIn = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request('POST', '/dashboard/sign-in', {
      payload: new URLSearchParams(fields).toString(),
      headers: { ...FORM, ...headers },
    });
  const cookieOf = (res: { headers: Record<string, unknown> }) => {
    const set = String(res.headers['set-cookie'] ?? '');
    return /tessera_dashboard=([^;]*)/.exec(set)?.[1] ?? '';
  };
  const home = (cookie: string) =>
    t.request('GET', '/dashboard', { headers: { cookie: `tessera_dashboard=${cookie}` } });
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it('signs in with all three and shows the home page; the cookie is HttpOnly and SameSite=Strict', async () => {
    const u = await newUser();
    const page = await t.request('GET', '/dashboard/sign-in');
    assert.equal(page.status, 200);
    for (const label of ['>Email<', '>Password<', '>One-time code<']) assert.ok(page.text.includes(label), label);
    const res = await signIn({ email: u.email.toUpperCase(), password: u.password, code: codeAt(u.totpSecret) });
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.location, '/dashboard');
    const set = String(res.headers['set-cookie']);
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.match(set, /Path=\/dashboard/);
    const shown = await home(cookieOf(res));
    assert.equal(shown.status, 200);
    assert.match(shown.text, /Dash Co/);
    assert.match(shown.text, /Today by hour/);
    assert.equal(shown.headers['cache-control'], 'no-store');
    assert.match(String(shown.headers['content-security-policy']), /default-src 'none'/);
  });

  it('answers the same whichever of e-mail, password or code is wrong, and a code is good once', async () => {
    const u = await newUser();
    const wrong = [
      { email: 'nobody@example.com', password: u.password, code: codeAt(u.totpSecret) },
      { email: u.email, password: 'not the password at all', code: codeAt(u.totpSecret) },
      { email: u.email, password: u.password, code: '000000' === codeAt(u.totpSecret) ? '111111' : '000000' },
    ];
    const texts = new Set<string>();
    for (const fields of wrong) {
      const res = await signIn(fields);
      assert.equal(res.status, 401);
      texts.add(/role="alert"[^>]*>([^<]*)</.exec(res.text)?.[1] ?? '');
    }
    assert.deepEqual([...texts], ['The email, password or code is not right.']);
    const code = codeAt(u.totpSecret, 1);
    assert.equal((await signIn({ email: u.email, password: u.password, code })).status, 303);
    assert.equal((await signIn({ email: u.email, password: u.password, code })).status, 401, 'replayed');
    const audit = await t.query<{ outcome: string; detail: { reason?: string } | null }>(
      `SELECT outcome, detail FROM dashboard_audit WHERE user_id = $1 ORDER BY at`,
      [u.user.id],
    );
    assert.deepEqual(
      audit.map((a) => a.detail?.reason ?? a.outcome),
      ['password', 'code', 'ok', 'code used before'],
    );
  });

  it('locks an account after five failures in a row, even for the right password', async () => {
    const u = await newUser();
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await signIn({ email: u.email, password: 'wrong password number ' + i, code: '123456' })).status,
        401,
      );
    }
    const res = await signIn({ email: u.email, password: u.password, code: codeAt(u.totpSecret, -1) });
    assert.equal(res.status, 401);
    assert.match(res.text, /locked/);
  });

  it('limits sign-in attempts per client address', async () => {
    const limited = await startNode({ env: { DASHBOARD_SIGN_IN_PER_MINUTE: '3' } });
    try {
      const post = () =>
        limited.request('POST', '/dashboard/sign-in', {
          payload: new URLSearchParams({
            email: 'x@example.com',
            password: 'whatever it is',
            code: '123456',
          }).toString(),
          headers: FORM,
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post()).status);
      assert.deepEqual(statuses, [401, 401, 401, 429]);
    } finally {
      await limited.stop();
    }
  });

  it('refuses a sign-in form posted from another site', async () => {
    const u = await newUser();
    const res = await signIn(
      { email: u.email, password: u.password, code: codeAt(u.totpSecret) },
      { origin: 'https://evil.example' },
    );
    assert.equal(res.status, 403);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  it('ends a session on sign-out (CSRF checked), when idle, and everywhere at once', async () => {
    const u = await newUser('analyst');
    const session = async (offset: number) =>
      cookieOf(await signIn({ email: u.email, password: u.password, code: codeAt(u.totpSecret, offset) }));
    const first = await session(-1);
    const second = await session(0);
    const page = await home(first);
    assert.equal(page.status, 200);
    const csrf = csrfOf(page.text);
    const signOut = (cookie: string, token: string) =>
      t.request('POST', '/dashboard/sign-out', {
        payload: new URLSearchParams({ csrf: token }).toString(),
        headers: { ...FORM, cookie: `tessera_dashboard=${cookie}` },
      });
    assert.equal((await signOut(first, 'forged')).status, 403, 'a forged form is refused');
    assert.equal((await home(first)).status, 200, 'and changed nothing');
    assert.equal((await signOut(first, csrf)).status, 303);
    assert.equal((await home(first)).status, 303, 'signed out: back to the sign-in page');
    assert.equal((await home(second)).status, 200, 'the other session lives on');

    // Idle past the limit (30 minutes): the session's last use moved back, as time would.
    await t.query(
      `UPDATE dashboard_sessions SET last_seen_at = last_seen_at - interval '31 minutes' WHERE user_id = $1`,
      [u.user.id],
    );
    const idle = await home(second);
    assert.equal(idle.status, 303);
    assert.match(String(idle.headers.location), /^\/dashboard\/sign-in\?next=/);

    const third = await session(1);
    const fourth = cookieOf(await signIn({ email: u.email, password: u.password, code: codeAt(u.totpSecret, 2) }));
    const everywhere = await t.request('POST', '/dashboard/sign-out-everywhere', {
      payload: new URLSearchParams({ csrf: csrfOf((await home(third)).text) }).toString(),
      headers: { ...FORM, cookie: `tessera_dashboard=${third}` },
    });
    assert.equal(everywhere.status, 303);
    assert.equal((await home(third)).status, 303);
    assert.equal((await home(fourth)).status, 303, 'every session of the user ended');
  });

  it('never sends a user to another site after signing in', async () => {
    const u = await newUser();
    for (const next of [
      'https://evil.example/',
      '//evil.example/x',
      '/somewhere-else',
      '/dashboard/../admin/v1/clock',
    ]) {
      const res = await signIn({ email: u.email, password: u.password, code: codeAt(u.totpSecret, -1), next });
      assert.equal(res.status, 303, res.text);
      assert.equal(res.headers.location, '/dashboard');
      await t.query('UPDATE dashboard_users SET totp_last_step = NULL WHERE id = $1', [u.user.id]);
    }
  });
});
