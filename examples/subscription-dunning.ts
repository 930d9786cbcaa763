// Subscriptions with dunning (docs/guides/subscription-dunning.md): a monthly subscription on a card that is
// declined for insufficient funds; the first payment fails and is retried on the dunning days (1, 3 and 5 days
// after by default); the customer gives a new card, and the next retry pays. The sandbox clock (operator token)
// makes the days pass now.
import { advanceClock, ok, tessera, until } from './setup.js';

const customer = await ok(
  tessera.api.POST('/pay-api/v1/customers', {
    body: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
  }),
);
const addCard = (pan: string) =>
  ok(
    tessera.api.POST('/pay-api/v1/customers/{customerId}/payment-methods/cards', {
      params: { path: { customerId: customer.id } },
      body: { pan, expirationMonth: 12, expirationYear: 2035 },
    }),
  );
const lowFunds = await addCard('4000000010510008'); // declines: 51 insufficient funds (a soft decline: retried)
const config = await ok(tessera.api.GET('/pay-api/v1/configurations/payments'));
const processor = config.availablePaymentProcessors.find((p) => p.typeId === 1 && p.isDefault)!;

const subscription = await ok(
  tessera.api.POST('/sub-api/v1/subscriptions', {
    body: {
      customerId: customer.id,
      paymentMethodId: lowFunds.id,
      amount: 29.99,
      currencyId: 1,
      paymentFrequencyUnit: 3,
      paymentFrequency: 1,
      numberOfPayments: 12,
      transactionType: 2,
      requesterIpAddress: '203.0.113.7',
      paymentProcessorId: processor.id,
    },
  }),
);
console.log(`Subscription ${subscription.id}: ${subscription.status}`);

const firstPayment = async () => {
  const payments = await ok(
    tessera.api.GET('/sub-api/v1/subscriptions/{subscriptionId}/payments', {
      params: { path: { subscriptionId: subscription.id } },
    }),
  );
  return payments.items.find((p) => p.paymentOrder === 1)!;
};
const subscriptionStatus = async () =>
  (
    await ok(
      tessera.api.GET('/sub-api/v1/subscriptions/{subscriptionId}', {
        params: { path: { subscriptionId: subscription.id } },
      }),
    )
  ).status;

// The billing run starts every minute of the business clock.
await advanceClock(60);
const failed = await until('the first payment to fail', async () => {
  const p = await firstPayment();
  return p.status === 'Failed' ? p : undefined;
});
console.log(
  `First payment: ${failed.status}, next attempt ${failed.nextAttemptDateTime}; subscription ${await subscriptionStatus()}`,
);

const goodCard = await addCard('4111111111111111');
await ok(
  tessera.api.PUT('/sub-api/v1/subscriptions/{subscriptionId}/payment-method', {
    params: { path: { subscriptionId: subscription.id } },
    body: { paymentMethodId: goodCard.id },
  }),
);
console.log('The customer gave a new card.');

await advanceClock(86_400); // the first dunning day
const paid = await until('the retry to pay', async () => {
  const p = await firstPayment();
  return p.status === 'Successful' ? p : undefined;
});
console.log(
  `First payment: ${paid.status} after ${paid.attempts.length} attempts; subscription ${await subscriptionStatus()}`,
);
