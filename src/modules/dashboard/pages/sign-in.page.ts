import { esc, page } from './html.js';

/**
 * The sign-in form: e-mail, password and the authenticator's one-time code, all at once. Opened by a device's app
 * with `?device=<deviceId>`, it carries the device along, and the device lists the user who signed in on it.
 */
export function signInPage(css: string, m: { email?: string; error?: string; next?: string; device?: string }): string {
  const error = m.error ? `<p class="alert" role="alert" id="sign-in-error">${esc(m.error)}</p>` : '';
  const described = m.error ? ' aria-describedby="sign-in-error"' : '';
  return page(
    { title: 'Sign in', css },
    `<section class="card narrow"><h1>Sign in to Tessera</h1>${error}<form method="post" action="/dashboard/sign-in"${described}>
<input type="hidden" name="next" value="${esc(m.next ?? '/dashboard')}">${
      m.device ? `<input type="hidden" name="device" value="${esc(m.device)}">` : ''
    }
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(m.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<label for="code">One-time code</label><input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required aria-describedby="code-help">
<p id="code-help" class="help">The 6-digit code from your authenticator app.</p>
<button type="submit">Sign in</button></form><p><a href="/dashboard/forgot">Forgot your password?</a></p></section>`,
  );
}
