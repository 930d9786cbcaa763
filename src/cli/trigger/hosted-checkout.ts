// Paying on a hosted page as a browser without JavaScript does: open the page (a checkout, a payment link), post its
// form with the CSRF cookie it set, and read where it sends the payer. Public pages, no token.

export type HostedOutcome = 'completed' | 'declined';

/** The checkout form's card fields, as a payer fills them in. */
export function cardForm(cardNumber: string): Record<string, string> {
  return {
    method: 'card',
    cardName: 'Sandbox Payer',
    cardNumber,
    expiry: '12/35',
    cvc: '123',
    line1: '1 Main St',
    city: 'New York',
    state: 'NY',
    postalCode: '10001',
    email: 'payer@example.com',
  };
}

/** Pays the checkout form at `pageUrl` by card; what the payer was shown. */
export async function payHostedPage(pageUrl: string, cardNumber: string): Promise<HostedOutcome> {
  const page = await fetch(pageUrl, { redirect: 'follow', signal: AbortSignal.timeout(30_000) });
  const html = await page.text();
  const action = /<form[^>]*action="([^"]*\/checkout\/[0-9a-f-]{36})"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!page.ok || !action || !csrf) {
    const title = /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
    throw new Error(`${pageUrl} did not show a payment form (${page.status}${title ? `: ${title}` : ''})`);
  }
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const answer = await fetch(new URL(action, page.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrf, ...cardForm(cardNumber) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await answer.text();
  if (answer.status === 303 || (answer.status === 200 && /<h1>Payment complete<\/h1>/.test(text))) return 'completed';
  if (answer.status === 200 && /declined|not accepted/i.test(text)) return 'declined';
  throw new Error(`the checkout answered ${answer.status}`);
}
