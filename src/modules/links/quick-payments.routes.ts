import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { dateRange, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { optionalCents, toCents } from '../../platform/money.js';
import type { LinkSharing } from './link-sharing.js';
import type { LinkStatus, PaymentLink } from './links.model.js';
import type { LinkDraft, LinksService } from './links.service.js';
import { quickPaymentView } from './quick-payments.mapper.js';
import {
  CreatedView,
  MessageQueuedView,
  OneTimeBody,
  QUICK_LIST,
  QuickListQuery,
  QuickPaymentIdParams,
  QuickPaymentList,
  QuickPaymentView,
  ReusableBody,
  SendSmsBody,
} from './quick-payments.schemas.js';

export interface QuickPaymentsRouteDeps {
  links: LinksService;
  sharing: LinkSharing;
}

const API_VERSION = 'Accepts the optional `x-api-version` header (1.0).';
const STATUS_FILTER: Record<number, LinkStatus[]> = {
  1: ['created'],
  2: ['active'],
  3: ['inactive', 'expired', 'completed'],
};

/** Quick payments (`/pay-int-api/quick-payments`): one-time and reusable links on the integration surface. */
export function quickPaymentsRoutes(app: App, deps: QuickPaymentsRouteDeps): void {
  const { links } = deps;
  const tags = ['Quick payments'];
  const base = '/pay-int-api/quick-payments';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const view = (link: PaymentLink) => quickPaymentView(link, links.pageUrl(link));
  const draft = (
    singleUse: boolean,
    body: {
      amount?: number | null;
      referenceId?: string | null;
      name?: string | null;
      description?: string | null;
      customerId?: string | null;
      expiresAt?: string | null;
    },
  ): LinkDraft => ({
    surface: 'quick',
    singleUse,
    amountCents: optionalCents(body.amount),
    currencyCode: 'USD',
    referenceId: body.referenceId?.trim() || null,
    name: body.name?.trim() || null,
    description: body.description?.trim() || null,
    customerId: body.customerId ?? null,
    card: { enabled: null, processorId: null },
    ach: { enabled: null, processorId: null },
    expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    fields: { amount: 'amount', expiresAt: 'expiresAt', paymentMethods: 'paymentMethods' },
  });

  for (const [kind, singleUse, body, summary] of [
    ['one-time', true, OneTimeBody, 'Create a one-time link'],
    ['reusable', false, ReusableBody, 'Create a reusable link'],
  ] as const) {
    app.post(
      `${base}/${kind}`,
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary,
          description:
            `${singleUse ? 'Paid once: it becomes Inactive after its payment.' : 'Paid any number of times (a null amount: the payer enters it).'} ` +
            'Created (status 1): activate it before a payer can use it. Offers card and ACH as the merchant can take ' +
            `them. Records \`quick_payment.created\`. Honours \`idempotency-key\`. ${API_VERSION}`,
          body,
          response: { 200: CreatedView, ...ERRORS },
        },
      },
      async (request) => {
        const link = await links.create(merchantOf(request).merchantId, draft(singleUse, request.body));
        return { id: link.id };
      },
    );

    app.get(
      `${base}/${kind}`,
      {
        schema: {
          tags,
          summary: `List ${kind} links`,
          description: `\`search\` matches the name, description, reference and customer name. ${API_VERSION}`,
          querystring: QuickListQuery,
          response: { 200: QuickPaymentList, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const q = request.query;
        const result = await links.list(
          {
            merchantId: merchantOf(request).merchantId,
            surface: 'quick',
            singleUse,
            ...(q.statusId ? { statuses: STATUS_FILTER[q.statusId] } : {}),
            created: dateRange('dateFrom', q.dateFrom, 'dateTo', q.dateTo),
          },
          pageRequest(q, QUICK_LIST),
        );
        return { items: result.items.map(view), total: result.total };
      },
    );

    app.get(
      `${base}/${kind}/:quickPaymentId`,
      {
        schema: {
          tags,
          summary: `Get a ${kind} link`,
          description: `A ${singleUse ? 'reusable' : 'one-time'} link's id answers 404 here. ${API_VERSION}`,
          params: QuickPaymentIdParams,
          response: { 200: QuickPaymentView, ...ERRORS },
        },
      },
      async (request) => {
        const { quickPaymentId } = request.params;
        const link = await links.get(merchantOf(request).merchantId, quickPaymentId, 'quick');
        if (link.singleUse !== singleUse) throw new NotFoundError('QuickPayment', quickPaymentId);
        return view(link);
      },
    );
  }

  app.post(
    `${base}/:quickPaymentId/activate`,
    {
      schema: {
        tags,
        summary: 'Activate a link',
        description:
          'Created → Active; Inactive → Active again for a reusable link within its time. Anything else (a used or ' +
          `expired link) is a 400 naming \`status\`. ${API_VERSION}`,
        params: QuickPaymentIdParams,
        response: { 200: QuickPaymentView, ...ERRORS },
      },
    },
    async (request) => view(await links.activate(merchantOf(request).merchantId, request.params.quickPaymentId)),
  );

  app.post(
    `${base}/:quickPaymentId/deactivate`,
    {
      schema: {
        tags,
        summary: 'Deactivate a link',
        description: `Active → Inactive; anything else is a 400 naming \`status\`. ${API_VERSION}`,
        params: QuickPaymentIdParams,
        response: { 200: QuickPaymentView, ...ERRORS },
      },
    },
    async (request) => view(await links.deactivate(merchantOf(request).merchantId, request.params.quickPaymentId)),
  );

  app.post(
    `${base}/:quickPaymentId/send-sms-notification`,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Send the link by SMS',
        description:
          "To `mobileNumber`, else the link customer's number (which needs their SMS consent); through the SMS " +
          `provider, or the sandbox outbox. Honours \`idempotency-key\`. ${API_VERSION}`,
        params: QuickPaymentIdParams,
        body: Type.Optional(SendSmsBody),
        response: { 200: MessageQueuedView, ...ERRORS },
      },
    },
    async (request) => {
      const link = await links.get(merchantOf(request).merchantId, request.params.quickPaymentId, 'quick');
      return deps.sharing.smsToCustomer(link, request.body?.mobileNumber ?? null);
    },
  );
}
