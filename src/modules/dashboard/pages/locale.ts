import { AsyncLocalStorage } from 'node:async_hooks';

/** The request's locale for amounts and dates, set once per dashboard request (dashboard.routes.ts). */
const store = new AsyncLocalStorage<string>();

export const withLocale = (locale: string, next: () => void) => store.run(locale, next);

export function currentLocale(): string {
  return store.getStore() ?? 'en-US';
}

/**
 * The first language of the browser's Accept-Language that the runtime formats (`de-DE`, `fr`, `en-GB`…), else
 * en-US. The page's words stay English; numbers, amounts and dates follow the reader's conventions.
 */
export function localeOf(acceptLanguage: string | undefined): string {
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((x) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(x.tag) && x.q > 0)
    .sort((a, b) => b.q - a.q)
    .slice(0, 5);
  for (const { tag } of tags) {
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // not a locale the runtime knows
    }
  }
  return 'en-US';
}
