import type { Static } from 'typebox';
import { dictionary } from '../../platform/dictionary.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { type FieldErrors, ValidationError } from '../../platform/http/errors.js';
import { pageInfoOf, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { optionalCents, toCents } from '../../platform/money.js';
import type { LinkSharing } from './link-sharing.js';
import type { LinkStatus, PaymentLink } from './links.model.js';
import type { LinkChanges } from './links.repo.js';
import type { LinksService } from './links.service.js';
import { paymentLinkView } from './payment-links.mapper.js';
import {
  CreatePaymentLinkBody,
  LinkListQuery,
  PatchPaymentLinkBody,
  PaymentLinkIdParams,
  PaymentLinkList,
  PaymentLinkView,
  ShareBody,
  V2_LINK_LIST,
} from './payment-links.schemas.js';

export interface PaymentLinksRouteDeps {
  links: LinksService;
  sharing: LinkSharing;
}

const STATUS_OF: Record<string, LinkStatus[]> = {
  Active: ['active'],
  Inactive: ['inactive', 'created'],
  Expired: ['expired'],
  Completed: ['completed'],
};

const EMPTY = { 204: { type: 'null', description: 'No content.' } } as const;

function currency(code: string, errors: FieldErrors): string {
  const upper = code.toUpperCase();
  if (upper !== 'USD') errors.currencyCode = ['currencyCode must be a valid ISO 4217 currency code; USD is supported.'];
  return upper;
}

type Method = { enabled?: boolean; processorId?: string | null } | null | undefined;

/** A method in a create request: absent or null means not offered. */
const created = (m: Method) =>
  m ? { enabled: m.enabled ?? true, processorId: m.processorId ?? null } : { enabled: false, processorId: null };

/** A method in a merge patch, over the current one: null disables it, an object merges. */
const merged = (m: Method, current: PaymentLink['card']) =>
  m === null
    ? { enabled: false, processorId: null }
    : {
        enabled: m!.enabled ?? current.enabled,
        processorId: m!.processorId === undefined ? current.processorId : m!.processorId,
      };

/** Version 2 payment links (`/v2/payment-links`): create, list, get, merge-patch, delete, share. */
export function paymentLinksRoutes(app: App, deps: PaymentLinksRouteDeps): void {
  const { links } = deps;
  const tags = ['Payment links'];
  const base = '/v2/payment-links';
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const view = (link: PaymentLink) => paymentLinkView(link, links.pageUrl(link));

  app.post(
    base,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a payment link',
        description:
          'Active from creation. `paymentMethods` names the methods offered (at least one, on an active processor); ' +
          '`currencyCode` is required (USD); without `baseAmount` the payer enters the amount. Records ' +
          '`payment_link.created`. Honours `idempotency-key`.',
        body: CreatePaymentLinkBody,
        response: { 200: PaymentLinkView, ...ERRORS },
      },
    },
    async (request) => {
      const body = request.body;
      const errors: FieldErrors = dictionary();
      const currencyCode = currency(body.currencyCode, errors);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const link = await links.create(merchantOf(request).merchantId, {
        surface: 'v2',
        singleUse: body.linkType === 'SingleUse',
        amountCents: optionalCents(body.baseAmount),
        currencyCode,
        referenceId: body.referenceId?.trim() || null,
        name: body.name?.trim() || null,
        description: body.description?.trim() || null,
        customerId: body.customerId ?? null,
        card: created(body.paymentMethods.card),
        ach: created(body.paymentMethods.ach),
        expiresAt: body.expiresOn ? new Date(body.expiresOn) : null,
        fields: { amount: 'baseAmount', expiresAt: 'expiresOn', paymentMethods: 'paymentMethods' },
      });
      return view(link);
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List payment links',
        description: 'Newest first unless `sortBy`/`sortOrder` say otherwise.',
        querystring: LinkListQuery,
        response: { 200: PaymentLinkList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const pageSize = q.pageSize ?? V2_LINK_LIST.defaultPageSize;
      const pageIndex = q.pageIndex ?? 0;
      const page = pageRequest(
        { page: pageIndex, pageSize, orderBy: q.sortBy, asc: q.sortOrder === 'asc', search: q.search },
        V2_LINK_LIST,
      );
      const result = await links.list(
        {
          merchantId: merchantOf(request).merchantId,
          surface: 'v2',
          ...(q.linkType ? { singleUse: q.linkType === 'SingleUse' } : {}),
          ...(q.paymentLinkStatus ? { statuses: STATUS_OF[q.paymentLinkStatus] } : {}),
          created: { from: undefined, to: undefined },
        },
        page,
      );
      return { items: result.items.map(view), pageInfo: pageInfoOf(pageIndex, pageSize, result.total) };
    },
  );

  app.get(
    `${base}/:paymentLinkId`,
    {
      schema: {
        tags,
        summary: 'Get a payment link',
        params: PaymentLinkIdParams,
        response: { 200: PaymentLinkView, ...ERRORS },
      },
    },
    async (request) => view(await links.get(merchantOf(request).merchantId, request.params.paymentLinkId, 'v2')),
  );

  app.patch(
    `${base}/:paymentLinkId`,
    {
      schema: {
        tags,
        summary: 'Update a payment link (merge patch)',
        description:
          'RFC 7396: absent fields stay, `null` clears (`name` and `currencyCode` cannot be cleared: 400), ' +
          '`paymentMethods` merges per method (`null` disables one). The currency is frozen after the first payment. ' +
          '`paymentLinkStatus` moves Active ⇄ Inactive. Records `payment_link.updated`.',
        params: PaymentLinkIdParams,
        body: PatchPaymentLinkBody,
        response: { 200: PaymentLinkView, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const id = request.params.paymentLinkId;
      const current = await links.get(merchantId, id, 'v2');
      const { changes, methods } = patchOf(request.body, current);
      return view(await links.patch(merchantId, id, changes, methods));
    },
  );

  app.delete(
    `${base}/:paymentLinkId`,
    {
      schema: {
        tags,
        summary: 'Delete a payment link',
        description: '204; the link stops taking payments and answers 404 from then on.',
        params: PaymentLinkIdParams,
        response: { ...EMPTY, ...ERRORS },
      },
    },
    async (request, reply) => {
      await links.delete(merchantOf(request).merchantId, request.params.paymentLinkId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:paymentLinkId/share`,
    {
      schema: {
        tags,
        summary: 'Share a payment link',
        description:
          'By `Email` or `Sms` to `recipient`, who agreed to receive it (`hasCustomerConsent` false: 400), through the ' +
          'configured transport or the sandbox outbox. 204.',
        params: PaymentLinkIdParams,
        body: ShareBody,
        response: { ...EMPTY, ...ERRORS },
      },
    },
    async (request, reply) => {
      const link = await links.get(merchantOf(request).merchantId, request.params.paymentLinkId, 'v2');
      const { shareBy, recipient, hasCustomerConsent } = request.body;
      await deps.sharing.share(link, shareBy, recipient, hasCustomerConsent);
      return reply.code(204).send(null);
    },
  );
}

/** A merge patch as column changes: only what it names; null clears where clearing is allowed. */
function patchOf(body: Static<typeof PatchPaymentLinkBody>, current: PaymentLink) {
  const errors: FieldErrors = dictionary();
  const changes: LinkChanges = {};
  const has = (key: keyof typeof body) => Object.hasOwn(body, key);
  const text = (value: string | null | undefined) => (value == null ? null : value.trim() || null);
  if (has('name')) {
    if (body.name === null) errors.name = ['name cannot be cleared.'];
    else changes.name = text(body.name);
  }
  if (has('currencyCode')) {
    if (body.currencyCode == null) errors.currencyCode = ['currencyCode cannot be cleared.'];
    else changes.currency_code = currency(body.currencyCode, errors);
  }
  if (has('description')) changes.description = text(body.description);
  if (has('referenceId')) changes.reference_id = text(body.referenceId);
  if (has('customerId')) changes.customer_id = body.customerId ?? null;
  if (has('baseAmount')) changes.amount_cents = optionalCents(body.baseAmount);
  if (has('expiresOn')) changes.expires_at = body.expiresOn ? new Date(body.expiresOn) : null;
  if (has('linkType')) {
    if (body.linkType == null) errors.linkType = ['linkType cannot be cleared.'];
    else if ((body.linkType === 'SingleUse') !== current.singleUse && current.paymentCount > 0) {
      errors.linkType = ['The link type cannot change after the first payment.'];
    } else changes.single_use = body.linkType === 'SingleUse';
  }
  if (has('paymentLinkStatus') && body.paymentLinkStatus != null) {
    changes.status = body.paymentLinkStatus === 'Active' ? 'active' : 'inactive';
  }
  const methods: { card?: PaymentLink['card']; ach?: PaymentLink['ach'] } = {};
  if (has('paymentMethods')) {
    if (body.paymentMethods === null) errors.paymentMethods = ['paymentMethods cannot be cleared.'];
    else {
      const pm = body.paymentMethods!;
      if (Object.hasOwn(pm, 'card')) methods.card = merged(pm.card, current.card);
      if (Object.hasOwn(pm, 'ach')) methods.ach = merged(pm.ach, current.ach);
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { changes, methods };
}
