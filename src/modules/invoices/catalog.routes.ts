import Type from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import {
  categoryView,
  lineItemInput,
  lineItemView,
  requiredText,
  unitTypeIdOf,
  unitTypeView,
} from './catalog.mapper.js';
import {
  CategoryBody,
  CategoryIdParams,
  CategoryList,
  CategoryListQuery,
  CategoryView,
  LineItemBody,
  LineItemIdParams,
  LineItemList,
  LineItemListQuery,
  LineItemView,
  UnitTypeList,
} from './catalog.schemas.js';
import type { CatalogService } from './catalog.service.js';
import { CATEGORY_LIST } from './categories.repo.js';
import { LINE_ITEM_LIST } from './line-items.repo.js';
import { UNIT_TYPES } from './unit-types.js';

const EMPTY = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });
/** Every /pay-int-api route accepts it; version 1.0 is the only one. */
const API_VERSION = 'Accepts the optional `x-api-version` header (1.0).';

/** What these routes use. */
export interface CatalogRouteDeps {
  catalog: CatalogService;
}

export function catalogRoutes(app: App, deps: CatalogRouteDeps): void {
  const { catalog } = deps;
  const tags = ['Invoice catalog'];
  const ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 404);

  app.get(
    '/pay-int-api/line-items/unit-types',
    {
      schema: {
        tags,
        summary: 'List unit types',
        description: `The fixed list of unit types; line items and categories name one by \`id\` (or \`uuid\`). ${API_VERSION}`,
        response: { 200: UnitTypeList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async () => ({ items: UNIT_TYPES.map(unitTypeView), total: UNIT_TYPES.length }),
  );

  app.get(
    '/pay-int-api/categories',
    {
      schema: {
        tags,
        summary: 'List categories',
        description: `\`search\` matches the name. ${API_VERSION}`,
        querystring: CategoryListQuery,
        response: { 200: CategoryList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const result = await catalog.listCategories(
        merchantOf(request).merchantId,
        pageRequest(request.query, CATEGORY_LIST),
      );
      return { items: result.items.map(categoryView), total: result.total };
    },
  );

  app.post(
    '/pay-int-api/categories',
    {
      schema: {
        tags,
        summary: 'Create a category',
        description: `The name must be unique in the merchant account, case-insensitively (400 naming \`name\`). ${API_VERSION}`,
        body: CategoryBody,
        response: { 200: CategoryView, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) =>
      categoryView(
        await catalog.createCategory(
          merchantOf(request).merchantId,
          requiredText('name', request.body.name),
          unitTypeIdOf(request.body.defaultUnitTypeId, 'defaultUnitTypeId'),
        ),
      ),
  );

  app.put(
    '/pay-int-api/categories/:categoryId',
    {
      schema: {
        tags,
        summary: 'Update a category',
        description: `Its name (still unique) and default unit type. ${API_VERSION}`,
        params: CategoryIdParams,
        body: CategoryBody,
        response: { 200: CategoryView, ...ERRORS },
      },
    },
    async (request) =>
      categoryView(
        await catalog.updateCategory(
          merchantOf(request).merchantId,
          request.params.categoryId,
          requiredText('name', request.body.name),
          unitTypeIdOf(request.body.defaultUnitTypeId, 'defaultUnitTypeId'),
        ),
      ),
  );

  app.delete(
    '/pay-int-api/categories/:categoryId',
    {
      schema: {
        tags,
        summary: 'Delete a category',
        description: `Its line items stay in the catalog, with no category. Answers 200 with an empty body. ${API_VERSION}`,
        params: CategoryIdParams,
        response: { 200: EMPTY, ...ERRORS },
      },
    },
    async (request, reply) => {
      await catalog.deleteCategory(merchantOf(request).merchantId, request.params.categoryId);
      return reply.send();
    },
  );

  app.get(
    '/pay-int-api/line-items',
    {
      schema: {
        tags,
        summary: 'List line items',
        description:
          '`search` matches the product name, description and SKU; `categoryId` one category; `noCategory=true` only ' +
          `items with no category (ignored when \`categoryId\` is given). ${API_VERSION}`,
        querystring: LineItemListQuery,
        response: { 200: LineItemList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await catalog.listLineItems(
        { merchantId: merchantOf(request).merchantId, categoryId: q.categoryId, noCategory: q.noCategory },
        pageRequest(q, LINE_ITEM_LIST),
      );
      return { items: result.items.map(lineItemView), total: result.total };
    },
  );

  app.post(
    '/pay-int-api/line-items',
    {
      schema: {
        tags,
        summary: 'Create a line item',
        description:
          'A product or service of the catalog. Without `unitTypeId` it takes its category default unit type, ' +
          `else Each. ${API_VERSION}`,
        body: LineItemBody,
        response: { 200: LineItemView, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) =>
      lineItemView(await catalog.createLineItem(merchantOf(request).merchantId, lineItemInput(request.body))),
  );

  app.put(
    '/pay-int-api/line-items/:lineItemId',
    {
      schema: {
        tags,
        summary: 'Update a line item',
        description: `A full replacement (omitted optional fields are cleared). Invoices keep their own copy. ${API_VERSION}`,
        params: LineItemIdParams,
        body: LineItemBody,
        response: { 200: LineItemView, ...ERRORS },
      },
    },
    async (request) =>
      lineItemView(
        await catalog.replaceLineItem(
          merchantOf(request).merchantId,
          request.params.lineItemId,
          lineItemInput(request.body),
        ),
      ),
  );

  app.delete(
    '/pay-int-api/line-items/:lineItemId',
    {
      schema: {
        tags,
        summary: 'Remove a line item from the catalog',
        description: `Future invoices cannot use it; invoices keep their copy. Answers 200 with an empty body. ${API_VERSION}`,
        params: LineItemIdParams,
        response: { 200: EMPTY, ...ERRORS },
      },
    },
    async (request, reply) => {
      await catalog.removeLineItem(merchantOf(request).merchantId, request.params.lineItemId);
      return reply.send();
    },
  );
}
