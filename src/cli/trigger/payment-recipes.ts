// Recipes for card, ACH and settlement events: real payments through the public API with the sandbox's test cards
// and accounts deciding the outcome, and the sandbox clock for what takes days (a file at the cutoff, a return).
import { TEST_ACCOUNTS, TEST_CARDS, type TriggerContext } from './trigger-context.js';

export async function cardSale(ctx: TriggerContext, card: string, path: 'sale' | 'auth' = 'sale') {
  const api = ctx.client.api;
  const body = {
    amount: ctx.amount(10.5),
    accountNumber: ctx.card(card),
    expirationMonth: 12,
    expirationYear: 2035,
    cardDataSource: 1,
    referenceId: ctx.reference,
  };
  const answer =
    path === 'sale'
      ? await ctx.ok(api.POST('/pay-api/v1/transactions/sale', { body }), 'the sale')
      : await ctx.ok(api.POST('/pay-api/v1/transactions/auth', { body }), 'the authorization');
  ctx.record({ kind: 'transaction', id: answer.transactionId, detail: `${path}, ${answer.status}` });
  return answer;
}

export async function transactionStatus(ctx: TriggerContext, transactionId: string): Promise<string> {
  const t = await ctx.ok(
    ctx.client.api.GET('/pay-api/v1/transactions/{transactionId}', { params: { path: { transactionId } } }),
    'reading the transaction',
  );
  return t.status;
}

export async function achDebit(ctx: TriggerContext, account: string) {
  const answer = await ctx.ok(
    ctx.client.api.POST('/pay-api/v1/transactions/ach/payment', {
      body: {
        amount: ctx.amount(25),
        accountNumber: account,
        routingNumber: '021000021',
        accountType: 1,
        accountHolderType: 1,
        secCode: 1,
        requesterIPaddress: '203.0.113.7',
        billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, countryId: 1, postalCode: '10001' },
        contactInfo: { firstName: 'Trigger', lastName: 'Payer', mobileNumber: '+12125550100' },
      },
    }),
    'the ACH debit',
  );
  ctx.record({
    kind: 'transaction',
    id: answer.transactionId,
    detail: `ACH debit of account ${account}, ${answer.status}`,
  });
  return answer;
}

/** Moves the clock a day at a time until the entry's status is one of `statuses`. */
async function achUntil(ctx: TriggerContext, transactionId: string, statuses: string[]): Promise<void> {
  await ctx.advanceUntil(`the ACH entry to be ${statuses.join(' or ')}`, async () =>
    statuses.includes(await transactionStatus(ctx, transactionId)),
  );
}

export const paymentRecipes = {
  'transaction.card.captured': async (ctx: TriggerContext) => void (await cardSale(ctx, TEST_CARDS.approved)),
  'transaction.card.authorized': async (ctx: TriggerContext) => void (await cardSale(ctx, TEST_CARDS.approved, 'auth')),
  'transaction.card.declined': async (ctx: TriggerContext) => void (await cardSale(ctx, TEST_CARDS.declined)),
  'transaction.card.failed': async (ctx: TriggerContext) => void (await cardSale(ctx, TEST_CARDS.failed)),
  'transaction.card.voided': async (ctx: TriggerContext) => {
    const auth = await cardSale(ctx, TEST_CARDS.approved, 'auth');
    const voided = await ctx.ok(
      ctx.client.api.POST('/pay-api/v1/transactions/void', { body: { transactionId: auth.transactionId } }),
      'the void',
    );
    ctx.step(`voided: ${voided.status}`);
  },
  'transaction.card.refunded': async (ctx: TriggerContext) => {
    const sale = await cardSale(ctx, TEST_CARDS.approved);
    const refund = await ctx.ok(
      ctx.client.api.POST('/pay-api/v1/transactions/return', {
        body: { transactionId: sale.transactionId, cardDataSource: 1 },
      }),
      'the refund',
    );
    ctx.record({ kind: 'transaction', id: refund.transactionId, detail: `refund, ${refund.status}` });
  },
  'settlement.batch.completed': async (ctx: TriggerContext) => {
    await cardSale(ctx, TEST_CARDS.approved);
    const settled = await ctx.ok(
      ctx.client.api.POST('/pay-api/v1/transactions/settle', { body: {} }),
      'settling the open batch',
    );
    ctx.record({ kind: 'batch', id: settled.batchId ?? '(none)', detail: settled.status });
  },
  'transaction.ach.scheduled': async (ctx: TriggerContext) => void (await achDebit(ctx, TEST_ACCOUNTS.clears)),
  'transaction.ach.held': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.clears);
    await ctx.ok(
      ctx.client.api.POST('/pay-api/v1/transactions/ach/{transactionId}/hold', {
        params: { path: { transactionId: debit.transactionId } },
      }),
      'the hold',
    );
    ctx.step('held');
  },
  'payment.ach.released': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.clears);
    const path = { params: { path: { transactionId: debit.transactionId } } };
    await ctx.ok(ctx.client.api.POST('/pay-api/v1/transactions/ach/{transactionId}/hold', path), 'the hold');
    await ctx.ok(ctx.client.api.POST('/pay-api/v1/transactions/ach/{transactionId}/unhold', path), 'the release');
    ctx.step('held, then released');
  },
  'transaction.ach.cancelled': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.clears);
    await ctx.ok(
      ctx.client.api.POST('/pay-api/v1/transactions/ach/{transactionId}/void', {
        params: { path: { transactionId: debit.transactionId } },
      }),
      'the cancellation',
    );
    ctx.step('cancelled');
  },
  'transaction.ach.in_progress': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.clears);
    await achUntil(ctx, debit.transactionId, ['Pending', 'Cleared']);
  },
  'transaction.ach.cleared': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.clears);
    await achUntil(ctx, debit.transactionId, ['Cleared']);
  },
  'transaction.ach.charged_back': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.returns);
    await achUntil(ctx, debit.transactionId, ['ChargedBack']);
  },
  'transaction.ach.failed': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.fails);
    await achUntil(ctx, debit.transactionId, ['Failed']);
  },
  'transaction.ach.refunded': async (ctx: TriggerContext) => {
    const debit = await achDebit(ctx, TEST_ACCOUNTS.clears);
    await achUntil(ctx, debit.transactionId, ['Cleared']);
    const refund = await ctx.ok(
      ctx.client.api.POST('/pay-api/v1/transactions/ach/{transactionId}/refund', {
        params: { path: { transactionId: debit.transactionId } },
      }),
      'the refund',
    );
    ctx.record({ kind: 'transaction', id: refund.transactionId, detail: `ACH refund, ${refund.status}` });
  },
};
