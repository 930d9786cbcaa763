import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import {
  dateRange,
  type PageRequest,
  pageInfoOf,
  pageRequest,
  publishedPageRequest,
} from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { CUSTOMER_LIST } from '../customers/customers.schemas.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { PaymentMethod } from '../vault/vault.model.js';
import {
  achInput,
  bothAddress,
  cardInput,
  customerDetail,
  customerInput,
  listItem,
  mergedCustomer,
  methodItem,
  publishedListItem,
} from './v2-customers.mapper.js';
import {
  AddMethodBody,
  CreateCustomerBody,
  CreatedCustomer,
  CreatedMethod,
  CustomerList,
  CustomerListQuery,
  CustomerParams,
  CustomerView,
  MethodList,
  MethodListQuery,
  MethodParams,
  RenameMethodBody,
  UpdateCustomerBody,
} from './v2-customers.schemas.js';
import { EMPTY_OK } from './v2-empty.js';
import { listTerms } from './v2-revision.js';

/**
 * A customer's payment methods, a page of them: a customer has a handful, so the page is cut from the whole list
 * (sorted and filtered here) rather than by the database.
 */
function methodPage(
  methods: PaymentMethod[],
  query: { orderBy?: string; asc?: boolean; search?: string; createdFrom?: string; createdTo?: string },
  page: Pick<PageRequest, 'limit' | 'offset'>,
) {
  const orderBy = (query.orderBy ?? 'createdOn').toLowerCase();
  if (orderBy !== 'createdon' && orderBy !== 'name') {
    throw ValidationError.field('orderBy', "'orderBy' must be one of: createdOn, name.");
  }
  const range = dateRange('createdFrom', query.createdFrom, 'createdTo', query.createdTo);
  const needle = query.search?.trim().toLowerCase();
  const key = (pm: PaymentMethod) => (orderBy === 'name' ? (pm.name ?? '').toLowerCase() : pm.createdAt.toISOString());
  const direction = query.asc ? 1 : -1;
  const matching = methods
    .filter((pm) => !range.from || pm.createdAt >= range.from)
    .filter((pm) => !range.to || pm.createdAt <= range.to)
    .filter((pm) => !needle || `${pm.name ?? ''} ${pm.mask}`.toLowerCase().includes(needle))
    .sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1));
  return { items: matching.slice(page.offset, page.offset + page.limit), total: matching.length };
}

/** `/v2/customers`: customers and their vaulted payment methods, over the customers module and the vault. */
export function v2CustomersRoutes(app: App, deps: { customers: CustomersService }): void {
  const { customers } = deps;
  const tags = ['Customers (v2)'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  app.post(
    '/v2/customers',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a customer, with cards and bank accounts',
        description:
          'One transaction: the customer and every card and bank account it lists (sealed in the vault, the first ' +
          'of each kind the default), or nothing when one is refused. Honours `idempotency-key`.',
        body: CreateCustomerBody,
        response: { 200: CreatedCustomer, ...ERRORS },
      },
    },
    async (request) => {
      const body = request.body;
      const created = await customers.createWithMethods(
        merchantOf(request).merchantId,
        customerInput(body),
        (body.paymentMethodsCards ?? []).map(cardInput),
        (body.paymentMethodsAchAccounts ?? []).map(achInput),
      );
      return { customerId: created.id };
    },
  );

  app.get(
    '/v2/customers',
    {
      schema: {
        tags,
        summary: 'List customers',
        description:
          'Each text filter matches part of its field. Items and envelope in both revisions’ names (`id` and ' +
          '`customerId`, `total` and `pageInfo`). A request in the older terms (`page` or `orderBy` without ' +
          '`pageIndex`, or `x-api-version` 2.12) lists newest first, 15 a page; any other oldest first (the ' +
          'published `asc` true), 20 a page.',
        querystring: CustomerListQuery,
        response: { 200: CustomerList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const range = dateRange('createdFrom', q.createdFrom, 'createdTo', q.createdTo);
      // The published `asc` defaults to true (the older lists' to false); `sortBy`/`sortOrder` as everywhere.
      const terms = listTerms(request, q);
      const { page, pageIndex, pageSize } = publishedPageRequest(
        terms === 'published' && q.asc === undefined && q.sortOrder === undefined ? { ...q, asc: true } : q,
        CUSTOMER_LIST,
        terms,
      );
      const result = await customers.list(
        {
          merchantId: merchantOf(request).merchantId,
          customerIds: undefined,
          createdFrom: range.from,
          createdTo: range.to,
          fullName: q.fullName?.trim() || undefined,
          email: q.email?.trim() || undefined,
          companyName: q.companyName?.trim() || undefined,
          mobileNumber: (q.mobileNumber ?? q.mobilePhoneNumber)?.trim() || undefined,
        },
        page,
      );
      // Both revisions' names and envelopes; the order and page size are the request's terms' defaults.
      return {
        items: result.items.map((i) => ({
          ...listItem(i.customer, i.stats),
          ...publishedListItem(i.customer, i.stats),
          billingAddress: bothAddress(i.customer.billingAddress),
        })),
        total: result.total,
        pageInfo: pageInfoOf(pageIndex, pageSize, result.total),
      };
    },
  );

  app.get(
    '/v2/customers/:id',
    {
      schema: { tags, summary: 'Get a customer', params: CustomerParams, response: { 200: CustomerView, ...ERRORS } },
    },
    async (request) => {
      const found = await customers.details(merchantOf(request).merchantId, request.params.id);
      return customerDetail(found.customer, found.stats, found.methods);
    },
  );

  app.put(
    '/v2/customers/:id',
    {
      schema: {
        tags,
        summary: 'Replace a customer',
        description: 'A full replacement: a field left out is cleared. Answers 200 with an empty body.',
        params: CustomerParams,
        body: UpdateCustomerBody,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      await customers.replace(merchantOf(request).merchantId, request.params.id, customerInput(request.body));
      return reply.send();
    },
  );

  app.patch(
    '/v2/customers/:id',
    {
      schema: {
        tags,
        summary: 'Update a customer (merge)',
        description:
          'The published revision’s merge: a field left out keeps its value, a field sent as null is cleared (a ' +
          'name may not be cleared to nothing). Answers 200 with an empty body. Payment methods are not changed here.',
        params: CustomerParams,
        body: UpdateCustomerBody,
        response: { 200: EMPTY_OK, ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const merchantId = merchantOf(request).merchantId;
      const current = await customers.get(merchantId, request.params.id);
      await customers.replace(merchantId, request.params.id, customerInput(mergedCustomer(current, request.body)));
      return reply.send();
    },
  );

  app.delete(
    '/v2/customers/:id',
    {
      schema: {
        tags,
        summary: 'Delete a customer',
        description:
          'With its payment methods; its active subscriptions end. Answers 200 with an empty body; a repeat is 404.',
        params: CustomerParams,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      await customers.remove(merchantOf(request).merchantId, request.params.id);
      return reply.send();
    },
  );

  app.post(
    '/v2/customers/:id/payment-methods',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Add a card or bank account',
        description:
          'Exactly one of `card` and `ach`. The first of its kind becomes the default. Honours `idempotency-key`.',
        params: CustomerParams,
        body: AddMethodBody,
        response: { 200: CreatedMethod, ...ERRORS },
      },
    },
    async (request) => {
      const { card, ach } = request.body;
      if ((card ? 1 : 0) + (ach ? 1 : 0) !== 1) {
        throw ValidationError.field('card', 'Send exactly one of `card` and `ach`.');
      }
      const merchantId = merchantOf(request).merchantId;
      const created = card
        ? await customers.addCard(merchantId, request.params.id, cardInput(card))
        : await customers.addBankAccount(merchantId, request.params.id, achInput(ach!));
      return { paymentMethodId: created.id };
    },
  );

  app.get(
    '/v2/customers/:id/payment-methods',
    {
      schema: {
        tags,
        summary: "List a customer's payment methods",
        description: 'Newest first by default (`orderBy` createdOn or name); `page` is zero-based.',
        params: CustomerParams,
        querystring: MethodListQuery,
        response: { 200: MethodList, ...ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const { customer, methods } = await customers.listMethods(merchantOf(request).merchantId, request.params.id);
      const { limit, offset } = pageRequest({ page: q.page, pageSize: q.pageSize }, CUSTOMER_LIST);
      const page = methodPage(methods, q, { limit, offset });
      return { items: page.items.map((pm) => methodItem(customer, pm)), total: page.total };
    },
  );

  app.put(
    '/v2/customers/:id/payment-methods/:paymentMethodId',
    {
      schema: {
        tags,
        summary: 'Rename a payment method',
        description: 'Answers 200 with an empty body.',
        params: MethodParams,
        body: RenameMethodBody,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { id, paymentMethodId } = request.params;
      await customers.updateMethod(merchantOf(request).merchantId, id, paymentMethodId, { name: request.body.name });
      return reply.send();
    },
  );

  app.delete(
    '/v2/customers/:id/payment-methods/:paymentMethodId',
    {
      schema: {
        tags,
        summary: 'Delete a payment method',
        description:
          'Refused (400) while a subscription pays with it. The default moves to the newest remaining method of its ' +
          'kind. Answers 200 with an empty body.',
        params: MethodParams,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { id, paymentMethodId } = request.params;
      await customers.removeMethod(merchantOf(request).merchantId, id, paymentMethodId);
      return reply.send();
    },
  );

  app.put(
    '/v2/customers/:id/payment-methods/:paymentMethodId/set-default',
    {
      schema: {
        tags,
        summary: 'Make a payment method the default of its kind',
        description: 'The card default or the bank-account default, as the method is. No body; 200 with an empty body.',
        params: MethodParams,
        response: { 200: EMPTY_OK, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { id, paymentMethodId } = request.params;
      await customers.makeDefault(merchantOf(request).merchantId, id, paymentMethodId);
      return reply.send();
    },
  );
}
