import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { dateRange, pageInfoOf, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { Customer } from '../customers/customers.model.js';
import type { CustomersService } from '../customers/customers.service.js';
import { METHOD_LIST } from '../vault/vault.model.js';
import type { VaultService } from '../vault/vault.service.js';
import { publishedMethodView } from './v2-customers.mapper.js';
import { EMPTY_OK } from './v2-empty.js';
import {
  CreateAchBody,
  CreateCardBody,
  CreatedMethod,
  MethodIdParams,
  MethodListQuery,
  MethodPage,
  PaymentMethodView,
  RenameBody,
  SetDefaultQuery,
} from './v2-payment-methods.schemas.js';

export interface V2PaymentMethodsDeps {
  customers: CustomersService;
  vault: VaultService;
}

/**
 * `/v2/payment-methods` (the published revision): a customer's saved methods and orphans (no customer) through the
 * customers service (a customer's: their default, what uses them) and the vault (orphans).
 */
export function v2PaymentMethodsRoutes(app: App, deps: V2PaymentMethodsDeps): void {
  const tags = ['Payment methods (v2)'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);
  const base = '/v2/payment-methods';

  /** The customers of these methods (for isDefault), each read once. */
  const customersOf = async (merchantId: string, ids: Array<string | null>) => {
    const found = new Map<string, Customer>();
    for (const id of new Set(ids.filter((x): x is string => x !== null))) {
      found.set(id, await deps.customers.get(merchantId, id));
    }
    return found;
  };

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List payment methods',
        description:
          'Oldest first unless `asc` is false; `customerId` narrows to one customer, without it orphans are listed ' +
          'too. Answers `{items, pageInfo}`.',
        querystring: MethodListQuery,
        response: { 200: MethodPage, ...ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const merchantId = merchantOf(request).merchantId;
      if (q.customerId) await deps.customers.get(merchantId, q.customerId);
      const pageIndex = q.pageIndex ?? 0;
      const pageSize = q.pageSize ?? 20;
      const range = dateRange('createdFrom', q.createdFrom, 'createdTo', q.createdTo);
      const result = await deps.vault.list(
        {
          merchantId,
          ...(q.customerId ? { customerId: q.customerId } : {}),
          ...(range.from ? { createdFrom: range.from } : {}),
          ...(range.to ? { createdTo: range.to } : {}),
          ...(q.search?.trim() ? { search: q.search.trim() } : {}),
        },
        pageRequest({ page: pageIndex, pageSize, orderBy: q.sortBy ?? 'createdOn', asc: q.asc ?? true }, METHOD_LIST),
      );
      const customers = await customersOf(
        merchantId,
        result.items.map((pm) => pm.customerId),
      );
      return {
        items: result.items.map((pm) =>
          publishedMethodView(pm, pm.customerId ? (customers.get(pm.customerId) ?? null) : null),
        ),
        pageInfo: pageInfoOf(pageIndex, pageSize, result.total),
      };
    },
  );

  app.post(
    `${base}/cards`,
    {
      config: { idempotent: true },
      schema: { tags, summary: 'Save a card', body: CreateCardBody, response: { 200: CreatedMethod, ...ERRORS } },
    },
    async (request) => {
      const b = request.body;
      const merchantId = merchantOf(request).merchantId;
      const input = {
        name: b.paymentName ?? null,
        pan: b.cardNumber,
        expirationMonth: b.expirationMonth,
        expirationYear: b.expirationYear,
        securityCode: b.securityCode ?? null,
      };
      const created = b.customerId
        ? await deps.customers.addCard(merchantId, b.customerId, input)
        : await deps.vault.addCard(merchantId, null, input);
      return { paymentMethodId: created.id };
    },
  );

  app.post(
    `${base}/ach`,
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Save a bank account',
        body: CreateAchBody,
        response: { 200: CreatedMethod, ...ERRORS },
      },
    },
    async (request) => {
      const b = request.body;
      const merchantId = merchantOf(request).merchantId;
      if (b.companyName?.trim() && b.accountHolderType !== 'Business') {
        throw ValidationError.field('companyName', 'A company name is for a Business account.');
      }
      const input = {
        name: b.name ?? null,
        accountNumber: b.accountNumber,
        routingNumber: b.routingNumber,
        accountType: b.accountType === 'Checking' ? 1 : 2,
        accountHolderType: b.accountHolderType === 'Business' ? 1 : 2,
        taxId: b.taxId ?? null,
        companyName: b.companyName ?? null,
      };
      const created = b.customerId
        ? await deps.customers.addBankAccount(merchantId, b.customerId, input)
        : await deps.vault.addBankAccount(merchantId, null, input);
      return { paymentMethodId: created.id };
    },
  );

  app.get(
    `${base}/:paymentMethodId`,
    {
      schema: {
        tags,
        summary: 'Get a payment method',
        params: MethodIdParams,
        response: { 200: PaymentMethodView, ...ERRORS },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).merchantId;
      const pm = await deps.vault.get(merchantId, request.params.paymentMethodId);
      const customer = pm.customerId ? await deps.customers.get(merchantId, pm.customerId) : null;
      return publishedMethodView(pm, customer);
    },
  );

  app.patch(
    `${base}/:paymentMethodId`,
    {
      schema: {
        tags,
        summary: 'Rename a payment method',
        description: 'A customer’s or an orphan. Answers 200 with an empty body.',
        params: MethodIdParams,
        body: RenameBody,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      await deps.vault.update(merchantOf(request).merchantId, request.params.paymentMethodId, {
        name: request.body.paymentName ?? null,
      });
      return reply.send();
    },
  );

  app.delete(
    `${base}/:paymentMethodId`,
    {
      schema: {
        tags,
        summary: 'Delete a payment method',
        description:
          'A customer’s goes through the customer (its default moves to the newest other method; one a ' +
          'subscription uses is refused), an orphan through the vault. Answers 200 with an empty body.',
        params: MethodIdParams,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      const merchantId = merchantOf(request).merchantId;
      const pm = await deps.vault.get(merchantId, request.params.paymentMethodId);
      if (pm.customerId) await deps.customers.removeMethod(merchantId, pm.customerId, pm.id);
      else await deps.vault.remove(merchantId, pm.id);
      return reply.send();
    },
  );

  app.post(
    `${base}/:paymentMethodId/set-default`,
    {
      schema: {
        tags,
        summary: 'Make a payment method its customer’s default',
        description:
          'The customer’s previous default of the same kind is unset. An orphan cannot be a default (400). Answers ' +
          '200 with an empty body.',
        params: MethodIdParams,
        querystring: SetDefaultQuery,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      const merchantId = merchantOf(request).merchantId;
      const pm = await deps.vault.get(merchantId, request.params.paymentMethodId);
      if (!pm.customerId)
        throw ValidationError.field('paymentMethodId', 'An orphan payment method cannot be a default.');
      await deps.customers.makeDefault(merchantId, request.query.customerId, pm.id);
      return reply.send();
    },
  );
}
