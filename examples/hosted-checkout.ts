// Accept a payment with the hosted checkout (docs/guides/hosted-checkout.md): create a payment session on your
// server, send the payer to its checkoutUrl, then confirm the payment with the API (the redirect and the webhook
// are notices; the session is the truth). With PAY_AS_TEST_PAYER=1 the script plays the payer itself.
import { payHostedPage } from '../src/cli/trigger/hosted-checkout.js';
import { ok, tessera, until } from './setup.js';

const session = await ok(
  tessera.api.POST('/pay-int-api/payment-sessions', {
    body: { amount: 24.99, mode: 1, referenceId: `order-${Date.now()}`, pageName: 'Example Shop' },
  }),
);
console.log(`Send the payer to: ${session.checkoutUrl}`);

if (process.env.PAY_AS_TEST_PAYER === '1') {
  console.log(
    `The test payer pays with 4111 1111 1111 1111: ${await payHostedPage(session.checkoutUrl, '4111111111111111')}`,
  );
}

const paid = await until(
  'the session to complete',
  async () => {
    const read = await ok(
      tessera.api.GET('/pay-int-api/payment-sessions/{paymentSessionId}', {
        params: { path: { paymentSessionId: session.id } },
      }),
    );
    return read.status === 'Completed' ? read : undefined;
  },
  10 * 60_000,
);
console.log(`Session ${paid.id} completed: ${JSON.stringify(paid.transactionDetails)}`);
