import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { dateRange, idList, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import type { VaultService } from '../vault/vault.service.js';
import { customerListItem, customerView, paymentMethodView } from './customers.mapper.js';
import {
  AchMethodBody,
  CardMethodBody,
  CUSTOMER_LIST,
  CustomerBody,
  CustomerIdParams,
  CustomerListQuery,
  CustomerListResponse,
  CustomerView,
  IdResponse,
  PaymentMethodListResponse,
  PaymentMethodParams,
  UpdatePaymentMethodBody,
} from './customers.schemas.js';
import type { CustomersService } from './customers.service.js';

const EMPTY = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });

/** What these routes use. */
export interface CustomersRouteDeps {
  customers: CustomersService;
  vault: VaultService;
}

export function customersRoutes(app: App, deps: CustomersRouteDeps): void {
  const { customers, vault } = deps;
  const tags = ['Customers'];

  app.get(
    '/pay-api/v1/customers',
    {
      schema: {
        tags,
        summary: 'List customers',
        description:
          'Search matches first and last name, contact name, company, email, phone and id. Statistics count ' +
          'successful card payments (authorized, captured, refunded or settled).',
        querystring: CustomerListQuery,
        response: { 200: CustomerListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const created = dateRange('dateFrom', q.dateFrom, 'dateTo', q.dateTo);
      const result = await customers.list(
        {
          merchantId: merchantOf(request).merchantId,
          customerIds: idList('customerIds', q.customerIds),
          createdFrom: created.from,
          createdTo: created.to,
        },
        pageRequest(q, CUSTOMER_LIST),
      );
      return { items: result.items.map((i) => customerListItem(i.customer, i.stats)), total: result.total };
    },
  );

  app.post(
    '/pay-api/v1/customers',
    {
      schema: {
        tags,
        summary: 'Create a customer',
        body: CustomerBody,
        response: { 200: IdResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => customers.create(merchantOf(request).merchantId, request.body),
  );

  app.get(
    '/pay-api/v1/customers/:customerId',
    {
      schema: {
        tags,
        summary: 'Get a customer',
        params: CustomerIdParams,
        response: { 200: CustomerView, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const d = await customers.details(merchantOf(request).merchantId, request.params.customerId);
      return customerView(d.customer, d.stats, d.methods);
    },
  );

  app.put(
    '/pay-api/v1/customers/:customerId',
    {
      schema: {
        tags,
        summary: 'Replace a customer',
        description: 'A full replacement: omitted fields are cleared. Answers 200 with an empty body.',
        params: CustomerIdParams,
        body: CustomerBody,
        response: { 200: EMPTY, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      await customers.replace(merchantOf(request).merchantId, request.params.customerId, request.body);
      return reply.send();
    },
  );

  app.delete(
    '/pay-api/v1/customers/:customerId',
    {
      schema: {
        tags,
        summary: 'Delete a customer',
        description:
          'Its vaulted payment methods are deleted with it and its live subscriptions end (Deleted); its past ' +
          'transactions stay intact. A repeat gives 404.',
        params: CustomerIdParams,
        response: { 200: EMPTY, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      await customers.remove(merchantOf(request).merchantId, request.params.customerId);
      return reply.send();
    },
  );

  app.get(
    '/pay-api/v1/customers/:customerId/payment-methods',
    {
      schema: {
        tags,
        summary: "List a customer's payment methods",
        params: CustomerIdParams,
        response: { 200: PaymentMethodListResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const { customer, methods } = await customers.listMethods(
        merchantOf(request).merchantId,
        request.params.customerId,
      );
      return { items: methods.map((m) => paymentMethodView(m, customer)), total: methods.length };
    },
  );

  app.post(
    '/pay-api/v1/customers/:customerId/payment-methods/cards',
    {
      schema: {
        tags,
        summary: 'Vault a card for a customer',
        description:
          'The card number is encrypted at rest; only its mask leaves the vault. The security code is checked for ' +
          'format and never stored. The first card becomes the default.',
        params: CustomerIdParams,
        body: CardMethodBody,
        response: { 200: IdResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => customers.addCard(merchantOf(request).merchantId, request.params.customerId, request.body),
  );

  app.post(
    '/pay-api/v1/customers/:customerId/payment-methods/ach',
    {
      schema: {
        tags,
        summary: 'Vault a bank account for a customer',
        description: 'The routing number must pass the ABA checksum. The first account becomes the ACH default.',
        params: CustomerIdParams,
        body: AchMethodBody,
        response: { 200: IdResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) =>
      customers.addBankAccount(merchantOf(request).merchantId, request.params.customerId, request.body),
  );

  app.put(
    '/pay-api/v1/customers/:customerId/payment-methods/:paymentMethodId',
    {
      schema: {
        tags,
        summary: 'Rename a payment method or update a card expiry',
        params: PaymentMethodParams,
        body: UpdatePaymentMethodBody,
        response: { 200: EMPTY, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { customerId, paymentMethodId } = request.params;
      await customers.updateMethod(merchantOf(request).merchantId, customerId, paymentMethodId, request.body);
      return reply.send();
    },
  );

  app.post(
    '/pay-api/v1/customers/:customerId/payment-methods/:paymentMethodId/make-default',
    {
      schema: {
        tags,
        summary: 'Make a payment method the default',
        description: 'A card becomes `defaultPaymentMethodId`, a bank account `defaultAchPaymentMethodId`.',
        params: PaymentMethodParams,
        response: { 200: EMPTY, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { customerId, paymentMethodId } = request.params;
      await customers.makeDefault(merchantOf(request).merchantId, customerId, paymentMethodId);
      return reply.send();
    },
  );

  app.delete(
    '/pay-api/v1/customers/:customerId/payment-methods/:paymentMethodId',
    {
      schema: {
        tags,
        summary: 'Delete a payment method',
        description: 'A method that pays a live subscription cannot be deleted (400 naming the subscription).',
        params: PaymentMethodParams,
        response: { 200: EMPTY, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { customerId, paymentMethodId } = request.params;
      await customers.removeMethod(merchantOf(request).merchantId, customerId, paymentMethodId);
      return reply.send();
    },
  );

  app.post(
    '/pay-api/v1/payment-methods/cards',
    {
      schema: {
        tags: ['Payment methods'],
        summary: 'Vault a card with no customer (orphan)',
        description: 'Usable as `paymentMethodId` without `customerId`.',
        body: CardMethodBody,
        response: { 200: IdResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => vault.addCard(merchantOf(request).merchantId, null, request.body),
  );

  app.post(
    '/pay-api/v1/payment-methods/ach',
    {
      schema: {
        tags: ['Payment methods'],
        summary: 'Vault a bank account with no customer (orphan)',
        body: AchMethodBody,
        response: { 200: IdResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => vault.addBankAccount(merchantOf(request).merchantId, null, request.body),
  );
}
