import type { DashboardUser } from '../accounts/users.repo.js';
import { esc, page } from './html.js';

const alert = (error?: string) => (error ? `<p class="alert" role="alert">${esc(error)}</p>` : '');

/** Asking for a reset link: answered the same whether or not the e-mail has an account. */
export function forgotPage(css: string, m: { sent?: boolean; error?: string }): string {
  const body = m.sent
    ? '<p role="status" class="notice">If an account uses that email, a link to choose a new password is on its way. It works for one hour.</p>'
    : `${alert(m.error)}<form method="post" action="/dashboard/forgot"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required><button type="submit">Send me a link</button></form>`;
  return page(
    { title: 'Forgot password', css },
    `<section class="card narrow"><h1>Choose a new password</h1>${body}<p><a href="/dashboard/sign-in">Back to sign in</a></p></section>`,
  );
}

export function resetPage(css: string, m: { token: string; error?: string }): string {
  return page(
    { title: 'New password', css },
    `<section class="card narrow"><h1>Choose a new password</h1>${alert(m.error)}<form method="post" action="/dashboard/reset">
<input type="hidden" name="token" value="${esc(m.token)}">
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-help">
<p id="password-help" class="help">At least 12 characters. Every device signed in to your account is signed out.</p>
<button type="submit">Save the new password</button></form></section>`,
  );
}

/** Accepting an invitation: the second factor's secret to add to an app, a password, and a first code. */
export function acceptPage(
  css: string,
  m: { token: string; user: DashboardUser; totpSecret: string; totpUri: string; error?: string },
): string {
  return page(
    { title: 'Join', css },
    `<section class="card narrow"><h1>Welcome, ${esc(m.user.name)}</h1>${alert(m.error)}
<p>You are invited as <strong>${esc(m.user.role)}</strong> (${esc(m.user.email)}).</p>
<p>1. Add this key to your authenticator app (or open the link on your phone):</p>
<p><code id="totp-secret">${esc(m.totpSecret)}</code></p><p><a href="${esc(m.totpUri)}">Open in an authenticator app</a></p>
<form method="post" action="/dashboard/accept"><input type="hidden" name="token" value="${esc(m.token)}">
<label for="password">2. Choose a password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-help">
<p id="password-help" class="help">At least 12 characters.</p>
<label for="code">3. One-time code from the app</label><input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required>
<button type="submit">Join</button></form></section>`,
  );
}

export function messagePage(css: string, title: string, text: string): string {
  return page(
    { title, css },
    `<section class="card narrow"><h1>${esc(title)}</h1><p>${esc(text)}</p><p><a href="/dashboard/sign-in">Sign in</a></p></section>`,
  );
}

/** The team: the merchant's users, and an invitation form for those who may manage it. */
export function teamMain(m: { users: DashboardUser[]; csrf: string; notice?: string; error?: string }): string {
  const rows = m.users
    .map(
      (u) => `<tr><td>${esc(u.name)}</td><td>${esc(u.email)}</td><td>${esc(u.role)}</td><td>${esc(u.status)}</td></tr>`,
    )
    .join('');
  const roles = ['admin', 'developer', 'analyst', 'staff', 'owner']
    .map((r) => `<option value="${r}">${r}</option>`)
    .join('');
  return `<h1>Team</h1>${m.notice ? `<p class="notice" role="status">${esc(m.notice)}</p>` : ''}${alert(m.error)}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Users</caption><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table></div></section>
<form method="post" action="/dashboard/team/invite" class="card" aria-labelledby="invite-h"><h2 id="invite-h">Invite someone</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}">
<div class="grid"><div><label for="invite-name">Name</label><input id="invite-name" name="name" required maxlength="100"></div>
<div><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required></div>
<div><label for="invite-role">Role</label><select id="invite-role" name="role">${roles}</select></div></div>
<button type="submit">Send the invitation</button></form>`;
}
