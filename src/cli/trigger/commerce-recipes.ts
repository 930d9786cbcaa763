// Recipes for invoices, subscriptions, quick payments, payment links, payment sessions and API keys: the objects
// made through the public API, paid on their hosted pages (as a payer's browser does) where the event is a payment.
import { PaymentProcessorType } from '../../modules/merchants/merchants.model.js';
import { payHostedPage } from './hosted-checkout.js';
import { TEST_CARDS, type TriggerContext } from './trigger-context.js';

async function invoice(ctx: TriggerContext) {
  const made = await ctx.ok(
    ctx.client.api.POST('/pay-int-api/invoices', {
      body: {
        customer: { firstName: 'Trigger', lastName: 'Customer', email: 'customer@example.com' },
        lineItems: [{ productName: 'Triggered work', quantity: 1, unitPrice: ctx.amount(42) }],
        referenceId: ctx.reference,
      },
    }),
    'the invoice',
  );
  ctx.record({ kind: 'invoice', id: made.id, detail: `${made.number}, ${made.statusName}` });
  return made;
}

/** A customer with a vaulted card, and a monthly subscription on it whose first payment is due now. */
async function subscription(ctx: TriggerContext, card: string) {
  const api = ctx.client.api;
  const customer = await ctx.ok(
    api.POST('/pay-api/v1/customers', { body: { firstName: 'Trigger', lastName: 'Subscriber' } }),
    'the customer',
  );
  ctx.record({ kind: 'customer', id: customer.id });
  const method = await ctx.ok(
    api.POST('/pay-api/v1/customers/{customerId}/payment-methods/cards', {
      params: { path: { customerId: customer.id } },
      body: { pan: ctx.card(card), expirationMonth: 12, expirationYear: 2035 },
    }),
    'the card',
  );
  const config = await ctx.ok(api.GET('/pay-api/v1/configurations/payments'), 'the payment configuration');
  const processor = config.availablePaymentProcessors.find(
    (p) => p.typeId === PaymentProcessorType.Card && p.isDefault,
  );
  if (!processor) throw new Error('the merchant has no default card processor');
  const made = await ctx.ok(
    api.POST('/sub-api/v1/subscriptions', {
      body: {
        customerId: customer.id,
        paymentMethodId: method.id,
        amount: ctx.amount(19.99),
        currencyId: 1,
        paymentFrequencyUnit: 3,
        paymentFrequency: 1,
        numberOfPayments: 12,
        transactionType: 2,
        requesterIpAddress: '203.0.113.7',
        paymentProcessorId: processor.id,
      },
    }),
    'the subscription',
  );
  ctx.record({ kind: 'subscription', id: made.id, detail: made.status });
  return made.id;
}

/** Until the subscription's first installment has the status; the clock moves a minute at a time when it can. */
async function firstInstallment(ctx: TriggerContext, subscriptionId: string, statuses: string[]) {
  const what = `the first payment to be ${statuses.join(' or ')}`;
  const done = async () => {
    const payments = await ctx.ok(
      ctx.client.api.GET('/sub-api/v1/subscriptions/{subscriptionId}/payments', {
        params: { path: { subscriptionId } },
      }),
      'the subscription payments',
    );
    const first = payments.items.find((p) => p.paymentOrder === 1);
    return first !== undefined && statuses.includes(first.status);
  };
  // The billing run starts every minute of the business clock: a minute on (or a minute's wait) bills what is due.
  if (ctx.hasClock) await ctx.advanceUntil(what, done, 60, 5);
  else await ctx.waitFor(what, done);
}

async function oneTimeQuickPayment(ctx: TriggerContext) {
  const api = ctx.client.api;
  const { id } = await ctx.ok(
    api.POST('/pay-int-api/quick-payments/one-time', { body: { amount: ctx.amount(15), referenceId: ctx.reference } }),
    'the quick payment',
  );
  const read = await ctx.ok(
    api.GET('/pay-int-api/quick-payments/one-time/{quickPaymentId}', { params: { path: { quickPaymentId: id } } }),
    'reading the quick payment',
  );
  ctx.record({ kind: 'quick payment', id, detail: read.url });
  return read;
}

async function paymentLink(ctx: TriggerContext) {
  const link = await ctx.ok(
    ctx.client.api.POST('/v2/payment-links', {
      body: {
        paymentMethods: { card: { enabled: true }, ach: { enabled: true } },
        currencyCode: 'USD',
        baseAmount: ctx.amount(25),
        linkType: 'SingleUse',
        name: 'Triggered link',
        referenceId: ctx.reference,
      },
    }),
    'the payment link',
  );
  ctx.record({ kind: 'payment link', id: link.paymentLinkId, detail: link.shortUrl });
  return link;
}

async function session(ctx: TriggerContext) {
  const made = await ctx.ok(
    ctx.client.api.POST('/pay-int-api/payment-sessions', {
      body: { amount: ctx.amount(30), mode: 1, referenceId: ctx.reference, pageName: 'Triggered checkout' },
    }),
    'the payment session',
  );
  ctx.record({ kind: 'payment session', id: made.id, detail: made.checkoutUrl });
  return made;
}

async function pay(ctx: TriggerContext, url: string, card = TEST_CARDS.approved) {
  const outcome = await payHostedPage(url, ctx.card(card));
  ctx.step(`paid on ${url}: ${outcome}`);
  if (outcome !== 'completed') throw new Error(`the payment on ${url} was ${outcome}`);
}

async function apiKey(ctx: TriggerContext) {
  const key = await ctx.ok(
    ctx.client.api.POST('/pay-api/v1/merchants/tokens', { body: { tokenName: `Trigger ${ctx.reference}` } }),
    'the API key',
  );
  ctx.record({ kind: 'API key', id: key.clientId, detail: 'its secret is not shown' });
  return key.clientId;
}

export const commerceRecipes = {
  'invoice.created': async (ctx: TriggerContext) => void (await invoice(ctx)),
  'invoice.paid': async (ctx: TriggerContext) => {
    const made = await invoice(ctx);
    await ctx.ok(ctx.client.api.POST('/pay-int-api/invoices/publish', { body: { invoiceId: made.id } }), 'publishing');
    const paid = await ctx.ok(
      ctx.client.api.POST('/pay-int-api/invoices/{invoiceId}/submit', {
        params: { path: { invoiceId: made.id } },
        body: { accountNumber: ctx.card(TEST_CARDS.approved), expirationMonth: 12, expirationYear: 2035 },
      }),
      'paying the invoice',
    );
    if (!paid.transaction) throw new Error('the invoice payment made no transaction');
    ctx.record({ kind: 'transaction', id: paid.transaction.transactionId, detail: paid.transaction.status });
  },
  'subscription.created': async (ctx: TriggerContext) => void (await subscription(ctx, TEST_CARDS.approved)),
  'subscription.paid': async (ctx: TriggerContext) => {
    await firstInstallment(ctx, await subscription(ctx, TEST_CARDS.approved), ['Successful']);
  },
  'subscription.payment_failed': async (ctx: TriggerContext) => {
    await firstInstallment(ctx, await subscription(ctx, TEST_CARDS.declined), ['Failed']);
  },
  'subscription.delinquent': async (ctx: TriggerContext) => {
    // A hard decline is not retried: the subscription goes Delinquent with its first payment.
    await firstInstallment(ctx, await subscription(ctx, TEST_CARDS.hardDecline), ['Failed']);
  },
  'quick_payment.created': async (ctx: TriggerContext) => void (await oneTimeQuickPayment(ctx)),
  'quick_payment.paid': async (ctx: TriggerContext) => {
    const made = await oneTimeQuickPayment(ctx);
    // A quick payment takes payments once it is activated (sent to the payer, or here).
    await ctx.ok(
      ctx.client.api.POST('/pay-int-api/quick-payments/{quickPaymentId}/activate', {
        params: { path: { quickPaymentId: made.id } },
      }),
      'activating the quick payment',
    );
    await pay(ctx, made.url);
  },
  'payment_link.created': async (ctx: TriggerContext) => void (await paymentLink(ctx)),
  'payment_link.updated': async (ctx: TriggerContext) => {
    const link = await paymentLink(ctx);
    await ctx.ok(
      ctx.client.api.PATCH('/v2/payment-links/{paymentLinkId}', {
        params: { path: { paymentLinkId: link.paymentLinkId } },
        body: { description: `Updated by tessera trigger (${ctx.reference})` },
      }),
      'updating the link',
    );
    ctx.step('updated its description');
  },
  'payment_session.created': async (ctx: TriggerContext) => void (await session(ctx)),
  'payment_session.completed': async (ctx: TriggerContext) => {
    const made = await session(ctx);
    await pay(ctx, made.checkoutUrl);
  },
  'api_key.created': async (ctx: TriggerContext) => void (await apiKey(ctx)),
  'api_key.deleted': async (ctx: TriggerContext) => {
    const clientId = await apiKey(ctx);
    const merchantId = await ctx.merchantId();
    await ctx.ok(
      ctx.client.api.DELETE('/pay-api/v1/merchants/tokens/{clientId}', {
        params: { path: { clientId }, query: { merchantId } },
      }),
      'deleting the API key',
    );
    ctx.step('deleted');
  },
};
