import type { FastifyRequest } from 'fastify';
import Type, { type TSchema } from 'typebox';
import type { Clock } from '../../platform/clock/clock.js';
import { dateRange, MAX_PAGE } from '../../platform/http/paging.js';
import type { App } from '../../platform/http/server.js';
import { PCI_STATUSES, PORTFOLIO_STATUSES } from '../merchants/portfolio/portfolio.model.js';
import type { MerchantPortfolios } from '../merchants/portfolio/portfolio.service.js';
import { PORTFOLIO_SORTS, type PortfolioScope, type PortfolioSort } from '../merchants/portfolio/portfolio-query.js';
import { Envelope, meta } from './envelope.js';
import {
  COMPLIANCE_EXAMPLE,
  ComplianceHistoryItem,
  ComplianceView,
  complianceHistoryItem,
  complianceView,
  DETAIL_EXAMPLE,
  HISTORY_EXAMPLE,
  LIST_ITEM_EXAMPLE,
  MerchantDetail,
  MerchantListItem,
  MerchantStatusView,
  merchantDetail,
  merchantListItem,
  merchantStatus,
  STATUS_EXAMPLE,
} from './partner-merchants.views.js';
import type { PartnerPrincipal } from './principals.js';

export const MAX_PARTNER_PAGE_SIZE = 200;
const DEFAULT_PAGE_SIZE = 50;
const DEFAULT_HISTORY_PAGE_SIZE = 25;
/** Where the figures come from: this deployment's own database, read at `as_of`. */
export const PARTNER_DATA_SOURCE = 'tessera';

const literals = (values: readonly string[], description: string) =>
  Type.Optional(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  );

const PagingQuery = (defaultSize: number) => ({
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      description: 'One-based page number (this API’s own convention). Default 1.',
    }),
  ),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PARTNER_PAGE_SIZE,
      description: `Items per page, at most ${MAX_PARTNER_PAGE_SIZE} (more is a 400). Default ${defaultSize}.`,
    }),
  ),
});

const MerchantListQuery = Type.Object({
  ...PagingQuery(DEFAULT_PAGE_SIZE),
  status: literals(PORTFOLIO_STATUSES, 'active, closed, terminated or other.'),
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Part of the DBA name (case-insensitive), or the start of a merchant id.',
    }),
  ),
  sort_by: literals(Object.keys(PORTFOLIO_SORTS), 'Default dba_name; ties are ordered by merchant id.'),
  sort_order: literals(['asc', 'desc'], 'Default asc.'),
  updated_since: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'ISO 8601 date or date-time (no offset means UTC): merchants approved (onboarding_date) or closed (close_date) at or after it; other edits do not count.',
    }),
  ),
  pci_status: literals(PCI_STATUSES, 'Current PCI compliance: compliant, non_compliant or unknown (nothing recorded).'),
});

const HistoryQuery = Type.Object({
  ...PagingQuery(DEFAULT_HISTORY_PAGE_SIZE),
  start_date: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'Recorded at or after: ISO 8601 date or date-time, UTC when no offset.',
    }),
  ),
  end_date: Type.Optional(
    Type.String({ maxLength: 40, description: 'Recorded at or before; a date alone includes that whole day.' }),
  ),
});

const MerchantParams = Type.Object({ merchant_id: Type.String({ format: 'uuid' }) });

function pagingMeta(page: number, pageSize: number, total: number) {
  const totalPages = Math.ceil(total / pageSize);
  return {
    page,
    page_size: pageSize,
    total_count: total,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_prev: page > 1,
  };
}

const PAGING_EXAMPLE = { page: 1, page_size: 50, total_count: 1, total_pages: 1, has_next: false, has_prev: false };
const AS_OF_EXAMPLE = { source: PARTNER_DATA_SOURCE, as_of: '2026-11-24T10:00:00.000Z' };

export interface PartnerMerchantRouteDeps {
  portfolios: MerchantPortfolios;
  clock: Clock;
  tags: string[];
  errors: Record<number, TSchema>;
}

/** The principal's reach: a system principal sees every merchant, a partner principal only its own. */
function scopeOf(request: FastifyRequest): PortfolioScope {
  const principal = request.partnerPrincipal as PartnerPrincipal;
  return { partnerId: principal.system ? undefined : (principal.partnerId ?? undefined) };
}

/** `/api/partner/merchants…`: registered inside the partner API's scope (its authentication, limits and envelope). */
export function partnerMerchantRoutes(scope: App, deps: PartnerMerchantRouteDeps): void {
  const { tags, errors, portfolios } = deps;
  const detailMeta = (request: FastifyRequest) =>
    meta(request.id, { source: PARTNER_DATA_SOURCE, as_of: deps.clock.now().toISOString() });

  scope.get(
    '/merchants',
    {
      config: { auth: 'identity' },
      schema: {
        tags,
        summary: 'List merchants',
        description: 'Paged (one-based), filtered and sorted; total_count counts every match.',
        querystring: MerchantListQuery,
        response: {
          200: Envelope(Type.Array(MerchantListItem), [LIST_ITEM_EXAMPLE], { ...AS_OF_EXAMPLE, ...PAGING_EXAMPLE }),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const pageSize = q.page_size ?? DEFAULT_PAGE_SIZE;
      const search = q.search?.trim();
      const since = q.updated_since
        ? dateRange('updated_since', q.updated_since, 'updated_since', undefined)
        : undefined;
      const asOf = deps.clock.now().toISOString();
      const { items, total } = await portfolios.list(
        {
          ...scopeOf(request),
          status: q.status,
          pciStatus: q.pci_status,
          search: search ? search : undefined,
          updatedSince: since?.from,
        },
        {
          sortBy: (q.sort_by ?? 'dba_name') as PortfolioSort,
          descending: q.sort_order === 'desc',
          limit: pageSize,
          offset: (page - 1) * pageSize,
        },
      );
      return {
        data: items.map(merchantListItem),
        meta: meta(request.id, { source: PARTNER_DATA_SOURCE, as_of: asOf, ...pagingMeta(page, pageSize, total) }),
        errors: [],
      };
    },
  );

  scope.get(
    '/merchants/:merchant_id',
    {
      config: { auth: 'identity' },
      schema: {
        tags,
        summary: 'Merchant detail',
        description: 'A merchant outside the principal’s scope answers 404, exactly as a missing one.',
        params: MerchantParams,
        response: { 200: Envelope(MerchantDetail, DETAIL_EXAMPLE, AS_OF_EXAMPLE), ...errors },
      },
    },
    async (request) => ({
      data: merchantDetail(await portfolios.get(scopeOf(request), request.params.merchant_id)),
      meta: detailMeta(request),
      errors: [],
    }),
  );

  scope.get(
    '/merchants/:merchant_id/status',
    {
      config: { auth: 'identity' },
      schema: {
        tags,
        summary: 'Concise merchant status',
        params: MerchantParams,
        response: { 200: Envelope(MerchantStatusView, STATUS_EXAMPLE, AS_OF_EXAMPLE), ...errors },
      },
    },
    async (request) => ({
      data: merchantStatus(await portfolios.get(scopeOf(request), request.params.merchant_id)),
      meta: detailMeta(request),
      errors: [],
    }),
  );

  scope.get(
    '/merchants/:merchant_id/compliance',
    {
      config: { auth: 'identity' },
      schema: {
        tags,
        summary: 'Current PCI compliance',
        description: 'The newest snapshot the operator recorded; `unknown` with null details when there is none.',
        params: MerchantParams,
        response: { 200: Envelope(ComplianceView, COMPLIANCE_EXAMPLE, AS_OF_EXAMPLE), ...errors },
      },
    },
    async (request) => {
      const id = request.params.merchant_id;
      return {
        data: complianceView(id, await portfolios.currentCompliance(scopeOf(request), id)),
        meta: detailMeta(request),
        errors: [],
      };
    },
  );

  scope.get(
    '/merchants/:merchant_id/compliance/history',
    {
      config: { auth: 'identity' },
      schema: {
        tags,
        summary: 'PCI compliance history',
        description: 'Every snapshot, newest first, paged (one-based).',
        params: MerchantParams,
        querystring: HistoryQuery,
        response: {
          200: Envelope(Type.Array(ComplianceHistoryItem), [HISTORY_EXAMPLE], {
            ...AS_OF_EXAMPLE,
            ...PAGING_EXAMPLE,
            page_size: 25,
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const pageSize = q.page_size ?? DEFAULT_HISTORY_PAGE_SIZE;
      const range = dateRange('start_date', q.start_date, 'end_date', q.end_date);
      const asOf = deps.clock.now().toISOString();
      const { items, total } = await portfolios.complianceHistory(scopeOf(request), request.params.merchant_id, range, {
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return {
        data: items.map(complianceHistoryItem),
        meta: meta(request.id, { source: PARTNER_DATA_SOURCE, as_of: asOf, ...pagingMeta(page, pageSize, total) }),
        errors: [],
      };
    },
  );
}
