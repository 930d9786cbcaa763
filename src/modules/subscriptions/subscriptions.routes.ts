import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { idList, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { installmentView, subscriptionDraft, subscriptionListItem, subscriptionView } from './subscriptions.mapper.js';
import { SUBSCRIPTION_LIST } from './subscriptions.repo.js';
import {
  CreateSubscriptionBody,
  PaymentMethodBody,
  PaymentsQuery,
  PaymentsResponse,
  SubscriptionIdParams,
  SubscriptionListQuery,
  SubscriptionListResponse,
  SubscriptionView,
} from './subscriptions.schemas.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/** What these routes use. */
export interface SubscriptionsRouteDeps {
  subscriptions: SubscriptionsService;
}

const STATES =
  'States: 1 Active, 2 Completed (its last installment paid), 3 Suspended, 4 Delinquent (a payment failed and ' +
  'its retries ran out, or the decline was hard), 5 Terminated, 6 Deleted (its customer was deleted); see ' +
  'docs/subscriptions.md for every move.';

export function subscriptionsRoutes(app: App, deps: SubscriptionsRouteDeps): void {
  const { subscriptions } = deps;
  const tags = ['Subscriptions'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const base = '/sub-api/v1/subscriptions';

  app.post(
    base,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a subscription',
        description:
          "Recurring payments of one of the customer's vaulted cards (card-not-present sales or authorizations the " +
          'merchant initiates) or bank accounts (ACH debits, paid once they clear), on an interval or a calendar ' +
          'schedule in the merchant time zone. The first installment falls due at `paymentStartDateTime` (now when ' +
          'null). Failed payments are retried on the merchant `subscriptionRetryDays` (default 1, 3 and 5 days ' +
          `after the first failure). Honours \`idempotency-key\`. ${STATES}`,
        body: CreateSubscriptionBody,
        response: { 200: SubscriptionView, ...errorResponses(...AUTHENTICATED_ERRORS, 409, 422) },
      },
    },
    async (request) => {
      const principal = merchantOf(request);
      const draft = subscriptionDraft(principal.merchantId, principal.clientId, request.body);
      return subscriptionView(await subscriptions.create(draft, request.idempotency));
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List subscriptions',
        description:
          'Search matches the customer name, email and company, and the subscription id. `customerIds` takes one ' +
          'id. Deleted subscriptions are listed only with `statusId=6`.',
        querystring: SubscriptionListQuery,
        response: { 200: SubscriptionListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const customerIds = idList('customerIds', q.customerIds);
      if (customerIds && new Set(customerIds.map((id) => id.toLowerCase())).size > 1) {
        throw ValidationError.field('customerIds', "Only one 'customerIds' value is supported.");
      }
      const result = await subscriptions.list(
        { merchantId: merchantOf(request).merchantId, customerId: customerIds?.[0], statusId: q.statusId },
        pageRequest(q, SUBSCRIPTION_LIST),
      );
      return { items: result.items.map(subscriptionListItem), total: result.total };
    },
  );

  app.get(
    `${base}/:subscriptionId`,
    {
      schema: {
        tags,
        summary: 'Get a subscription',
        params: SubscriptionIdParams,
        response: { 200: SubscriptionView, ...ERRORS },
      },
    },
    async (request) =>
      subscriptionView(await subscriptions.get(merchantOf(request).merchantId, request.params.subscriptionId)),
  );

  app.get(
    `${base}/:subscriptionId/payments`,
    {
      schema: {
        tags,
        summary: 'Payment history',
        description:
          'Installments in payment order (those planned ahead included): Scheduled, Pending (being charged, or an ' +
          'ACH debit until it clears), Successful, Failed (retried at `nextAttemptDateTime` if it is), or Skipped ' +
          '(fell due while Suspended or Delinquent and was not resumed in time). Each lists its attempts.',
        params: SubscriptionIdParams,
        querystring: PaymentsQuery,
        response: { 200: PaymentsResponse, ...ERRORS },
      },
    },
    async (request) => {
      const pageSize = request.query.pageSize ?? 15;
      const result = await subscriptions.payments(merchantOf(request).merchantId, request.params.subscriptionId, {
        limit: pageSize,
        offset: (request.query.page ?? 0) * pageSize,
      });
      return { items: result.items.map(installmentView), total: result.total };
    },
  );

  const move = (
    path: string,
    summary: string,
    description: string,
    act: (merchantId: string, id: string) => ReturnType<SubscriptionsService['terminate']>,
  ) =>
    app.put(
      `${base}/:subscriptionId/${path}`,
      {
        schema: {
          tags,
          summary,
          description: `${description} A move the state table does not allow is a 400.`,
          params: SubscriptionIdParams,
          response: { 200: SubscriptionView, ...ERRORS },
        },
      },
      async (request) => subscriptionView(await act(merchantOf(request).merchantId, request.params.subscriptionId)),
    );

  move(
    'terminate',
    'Terminate a subscription',
    'No body. Nothing more is charged; a charge already under way completes. A repeat answers 400 (already Terminated).',
    (merchantId, id) => subscriptions.terminate(merchantId, id),
  );
  move(
    'suspend',
    'Suspend a subscription (extension)',
    'No body. Active or Delinquent → Suspended: billing stops.',
    (merchantId, id) => subscriptions.suspend(merchantId, id),
  );
  move(
    'resume',
    'Resume a subscription (extension)',
    'No body. Suspended → Active: an outstanding failed installment is retried at once, installments that fell due ' +
      'within the retry window are charged, older ones are Skipped.',
    (merchantId, id) => subscriptions.resume(merchantId, id),
  );

  app.put(
    `${base}/:subscriptionId/payment-method`,
    {
      schema: {
        tags,
        summary: 'Change the payment method (extension)',
        description:
          "Another of the customer's vaulted methods, of the subscription's kind. A Delinquent subscription retries " +
          'its failed installment with it at once.',
        params: SubscriptionIdParams,
        body: PaymentMethodBody,
        response: { 200: SubscriptionView, ...ERRORS },
      },
    },
    async (request) =>
      subscriptionView(
        await subscriptions.changePaymentMethod(
          merchantOf(request).merchantId,
          request.params.subscriptionId,
          request.body.paymentMethodId,
        ),
      ),
  );
}
