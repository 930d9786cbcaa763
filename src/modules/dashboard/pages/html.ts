import { esc } from '../../checkout/checkout.page.js';

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

/** An amount in the merchant's locale and currency (US dollars: the only currency Tessera settles). */
export function money(cents: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(cents / 100);
}

export function dateTime(at: Date, timeZone: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}
