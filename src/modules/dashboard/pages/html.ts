import { centsToDecimal } from '../../../platform/money.js';
import { esc } from '../../checkout/checkout.page.js';
import { currentLocale } from './locale.js';

export { esc };

export interface PageFrame {
  title: string;
  css: string;
  /** The signed-in user's navigation (none on the sign-in page). */
  nav?: {
    links: Array<{ href: string; label: string; current?: boolean }>;
    who: string;
    csrf: string;
    /** A partner's user in one of its merchants' dashboards: the way back to the portfolio. */
    acting?: string;
  };
}

/** The dashboard's page: a skip link, the navigation, the main content. Server-rendered, no script needed. */
export function page(frame: PageFrame, main: string): string {
  const nav = frame.nav
    ? `<header class="top"><a class="brand" href="/dashboard">Tessera</a><nav aria-label="Main"><ul>${frame.nav.links
        .map((l) => `<li><a href="${esc(l.href)}"${l.current ? ' aria-current="page"' : ''}>${esc(l.label)}</a></li>`)
        .join(
          '',
        )}</ul></nav><div class="who"><span>${esc(frame.nav.who)}</span><form method="post" action="/dashboard/sign-out"><input type="hidden" name="csrf" value="${esc(
        frame.nav.csrf,
      )}"><button type="submit">Sign out</button></form></div>${
        frame.nav.acting
          ? `<form class="acting" method="post" action="/dashboard/partner/close"><input type="hidden" name="csrf" value="${esc(
              frame.nav.csrf,
            )}"><span>Viewing ${esc(frame.nav.acting)}</span> <button type="submit">Back to portfolio</button></form>`
          : ''
      }</header>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(
    frame.title,
  )} · Tessera</title><link rel="stylesheet" href="${esc(frame.css)}"></head><body><a class="skip" href="#main">Skip to content</a>${nav}<main id="main">${main}</main></body></html>`;
}

/**
 * An amount in the reader's locale (their browser's language: pages/locale.ts) and the merchant's currency (US
 * dollars: the only currency Tessera settles).
 */
export function money(cents: number, locale = currentLocale()): string {
  // Formatted from the exact decimal text (Intl takes a numeric string), never through a float.
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(
    centsToDecimal(cents) as Intl.StringNumericLiteral,
  );
}

export function dateTime(at: Date, timeZone: string, locale = currentLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

/** A page's outcome line: what was done (a status) or why not (an alert). */
export function flash(m: { notice?: string | undefined; error?: string | undefined }): string {
  return `${m.notice ? `<p class="notice" role="status">${esc(m.notice)}</p>` : ''}${
    m.error ? `<p class="alert" role="alert">${esc(m.error)}</p>` : ''
  }`;
}

/**
 * A confirmed action: a form that posts back with the session's CSRF token, a box to tick first, and (when given) a
 * form id that makes a second submission of the same form do nothing more.
 */
export function actionForm(f: {
  action: string;
  id: string;
  title: string;
  csrf: string;
  confirm: string;
  button: string;
  formId?: string;
  body?: string;
}): string {
  return `<form method="post" action="${esc(f.action)}" class="card" aria-labelledby="${f.id}-h"><h2 id="${f.id}-h">${esc(f.title)}</h2>
<input type="hidden" name="csrf" value="${esc(f.csrf)}">${f.formId ? `<input type="hidden" name="formId" value="${esc(f.formId)}">` : ''}${f.body ?? ''}
<div class="confirm"><input type="checkbox" id="confirm-${f.id}" name="confirm" value="yes" required><label for="confirm-${f.id}">${esc(f.confirm)}</label></div><button type="submit">${esc(f.button)}</button></form>`;
}
