// Save a card and charge it later (docs/guides/save-card-charge-later.md): a customer, their card in the vault
// (encrypted; the API only ever shows it masked), then a sale on the saved card whenever the merchant needs it,
// retried safely (the client sends an idempotency key), and a partial refund.
import { ok, tessera } from './setup.js';

const customer = await ok(
  tessera.api.POST('/pay-api/v1/customers', {
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      billingAddress: { line1: '1 Main St', city: 'New York', stateCode: 'NY', postalCode: '10001', countryId: 1 },
    },
  }),
);
const card = await ok(
  tessera.api.POST('/pay-api/v1/customers/{customerId}/payment-methods/cards', {
    params: { path: { customerId: customer.id } },
    body: { pan: '4111111111111111', expirationMonth: 12, expirationYear: 2035 },
  }),
);
const saved = await ok(
  tessera.api.GET('/pay-api/v1/customers/{customerId}/payment-methods', {
    params: { path: { customerId: customer.id } },
  }),
);
console.log(`Saved card for customer ${customer.id}: ${JSON.stringify(saved)}`);

// Later: charge the saved card (no card number leaves the vault).
const sale = await ok(
  tessera.api.POST('/pay-api/v1/transactions/sale', {
    body: { amount: 42, customerId: customer.id, paymentMethodId: card.id, referenceId: `renewal-${Date.now()}` },
  }),
);
console.log(`Charged the saved card: transaction ${sale.transactionId} ${sale.status}`);

const refund = await ok(
  tessera.api.POST('/pay-api/v1/transactions/return', {
    body: { transactionId: sale.transactionId, amount: 10, cardDataSource: 1 },
  }),
);
console.log(`Refunded 10.00: transaction ${refund.transactionId} ${refund.status}`);
