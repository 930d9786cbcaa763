import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { dateRange, pageRequest } from '../../platform/http/paging.js';
import { MERCHANT_OR_PARTNER, merchantOf, PARTNER_ONLY, partnerOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { STATES } from '../reference/states.js';
import { contactInfoView, merchantListItem, paymentConfigurationView } from './merchants.mapper.js';
import {
  ContactInfosResponse,
  MERCHANT_LIST,
  MerchantListQuery,
  MerchantListResponse,
  PaymentConfigurationView,
  StatesResponse,
} from './merchants.schemas.js';
import type { MerchantsService } from './merchants.service.js';

/** What these routes use. */
export interface MerchantsRouteDeps {
  merchants: MerchantsService;
}

export function merchantsRoutes(app: App, deps: MerchantsRouteDeps): void {
  const { merchants } = deps;

  app.get(
    '/pay-api/v1/merchants',
    {
      config: { auth: PARTNER_ONLY },
      schema: {
        tags: ['Merchants'],
        summary: "List the partner's merchants",
        description: 'Partner token only. Paged; search matches company name, legal name, email, MCC and id.',
        querystring: MerchantListQuery,
        response: { 200: MerchantListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const principal = partnerOf(request);
      const created = dateRange('createdFrom', q.createdFrom, 'createdTo', q.createdTo);
      const modified = dateRange('modifiedFrom', q.modifiedFrom, 'modifiedTo', q.modifiedTo);
      const lastTx = dateRange(
        'lastTransactionDateFrom',
        q.lastTransactionDateFrom,
        'lastTransactionDateTo',
        q.lastTransactionDateTo,
      );
      const result = await merchants.listForPartner(
        {
          partnerId: principal.partnerId,
          mccCode: q.mccCodeId === undefined ? undefined : String(q.mccCodeId).padStart(4, '0'),
          statusId: q.statusId,
          createdFrom: created.from,
          createdTo: created.to,
          modifiedFrom: modified.from,
          modifiedTo: modified.to,
          lastTransactionFrom: lastTx.from,
          lastTransactionTo: lastTx.to,
        },
        pageRequest(q, MERCHANT_LIST),
      );
      return { items: result.items.map(merchantListItem), total: result.total };
    },
  );

  app.get(
    '/pay-api/v1/configurations/payments',
    {
      schema: {
        tags: ['Configuration'],
        summary: "The merchant's payment configuration (read-only)",
        response: { 200: PaymentConfigurationView, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const configuration = await merchants.getConfiguration(merchantOf(request).merchantId);
      return paymentConfigurationView(configuration);
    },
  );

  app.get(
    '/pay-api/v1/configurations/contact-infos',
    {
      schema: {
        tags: ['Configuration'],
        summary: "The merchant's addresses, phone and email",
        response: { 200: ContactInfosResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const contacts = await merchants.getContacts(merchantOf(request).merchantId);
      return { contactInfos: contacts.map(contactInfoView) };
    },
  );

  app.get(
    '/pay-api/v1/configurations/states',
    {
      config: { auth: MERCHANT_OR_PARTNER },
      schema: {
        tags: ['Configuration'],
        summary: 'Numeric state ids accepted as stateId in addresses',
        response: { 200: StatesResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async () => ({ items: STATES.map((s) => ({ ...s })), total: STATES.length }),
  );
}
