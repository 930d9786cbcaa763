// ACH with returns on the sandbox clock (docs/guides/ach-returns.md): a debit from the sandbox bank's returning
// account (100000001, R01 insufficient funds) goes Scheduled → Pending (in the NACHA file at the cutoff) → Cleared
// (the settlement date) → ChargedBack (the return, two business days later). Moving the clock (operator token)
// makes those days pass now.
import { advanceClock, ok, tessera, until } from './setup.js';

const debit = await ok(
  tessera.api.POST('/pay-api/v1/transactions/ach/payment', {
    body: {
      amount: 125.5,
      accountNumber: '100000001',
      routingNumber: '021000021',
      accountType: 1,
      accountHolderType: 1,
      secCode: 1,
      requesterIPaddress: '203.0.113.7',
      billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, countryId: 1, postalCode: '10001' },
      contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550100' },
    },
  }),
);
console.log(`Debit ${debit.transactionId}: ${debit.status}`);

const status = async () =>
  (
    await ok(
      tessera.api.GET('/pay-api/v1/transactions/{transactionId}', {
        params: { path: { transactionId: debit.transactionId } },
      }),
    )
  ).status;

let last = debit.status;
for (let day = 1; day <= 10 && last !== 'ChargedBack'; day++) {
  const now = await advanceClock(86_400);
  // The workers run what fell due (the cutoff, the settlement date, the return file) within moments; on a day
  // when nothing is due (a weekend), nothing changes.
  last = await until(
    'a change',
    async () => {
      const current = await status();
      return current !== last ? current : undefined;
    },
    2_000,
  ).catch(() => last);
  console.log(`Day ${day} (${now}): ${last}`);
}
if (last !== 'ChargedBack') throw new Error(`the debit is ${last}, not ChargedBack`);
const returned = await ok(
  tessera.api.GET('/pay-api/v1/transactions/{transactionId}', {
    params: { path: { transactionId: debit.transactionId } },
  }),
);
console.log(`Returned: ${returned.responseCode} ${returned.responseDescription ?? ''} ${returned.details ?? ''}`);
