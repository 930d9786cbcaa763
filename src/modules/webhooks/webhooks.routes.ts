import { Readable } from 'node:stream';
import Type from 'typebox';
import { csvStream } from '../../platform/http/csv-export.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { ValidationError } from '../../platform/http/errors.js';
import { dateRange, listValues, pageInfoOf, pageRequest, publishedPageRequest } from '../../platform/http/paging.js';
import { type AuthPolicy, tenantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { EVENT_TYPES, eventTypeNamed } from '../events/event-catalog.js';
import { EXPORT_COLUMNS, endpointView, logDetailView, logView } from './webhooks.mapper.js';
import type { LogFilter, LogRow, WebhookOwner } from './webhooks.repo.js';
import {
  CreatedEndpointView,
  CreateEndpointBody,
  ENDPOINT_LIST,
  type EndpointBody,
  EndpointList,
  EndpointListQuery,
  EndpointParams,
  EndpointView,
  ExportResponse,
  LOG_LIST,
  LogDetail,
  LogExportQuery,
  LogList,
  LogListQuery,
  LogParams,
  PingResponse,
  RetryResponse,
  UpdateEndpointBody,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

/** Every webhook operation: a merchant or a partner token whose API key carries the Webhooks permission. */
export const WEBHOOKS_AUTH: AuthPolicy = { tokens: ['merchant', 'partner'], permission: 'Webhooks' };

const EventTypeItem = Type.Object({
  eventTypeId: Type.Integer({ description: 'Numeric id of the event type.' }),
  eventType: Type.String({ description: 'Identifier to subscribe with.' }),
  aliases: Type.Array(Type.String(), {
    description: 'The same event under the other naming set; subscribing with an alias is equivalent.',
  }),
  group: Type.String(),
  description: Type.String(),
  partnerOnly: Type.Boolean({ description: 'Only partner endpoints can subscribe (events about their merchants).' }),
});

const EventTypeList = Type.Object(
  {
    items: Type.Array(EventTypeItem),
    total: Type.Integer(),
    data: Type.Array(
      Type.Object({
        id: Type.Integer(),
        eventTypeId: Type.Integer({ description: 'The same as id (the webhooks CLI 0.6 reads this name).' }),
        name: Type.String(),
        description: Type.String(),
        group: Type.String(),
      }),
      {
        description:
          "The same catalog in the SDK's document's shape (ISV API 2.12: id) and the webhooks CLI's (eventTypeId).",
      },
    ),
  },
  {
    examples: [
      eventTypeList([
        EVENT_TYPES.find((entry) => entry.group === 'Card Transactions')!,
        EVENT_TYPES.find((entry) => entry.partnerOnly)!,
      ]),
    ],
  },
);

function eventTypeList(entries: readonly (typeof EVENT_TYPES)[number][]) {
  return {
    items: entries.map((entry) => ({ ...entry, aliases: [...entry.aliases] })),
    total: entries.length,
    data: entries.map((e) => ({
      id: e.eventTypeId,
      eventTypeId: e.eventTypeId,
      name: e.eventType,
      description: e.description,
      group: e.group,
    })),
  };
}

function ownerOf(request: Parameters<typeof tenantOf>[0]): WebhookOwner {
  const principal = tenantOf(request);
  return principal.kind === 'merchant' ? { merchantId: principal.merchantId } : { partnerId: principal.partnerId };
}

function input(body: EndpointBody) {
  const { endpointName, endpointStatus, webhookName, ...rest } = body;
  return {
    ...rest,
    name: body.name ?? webhookName ?? endpointName,
    ...((body.status ?? endpointStatus) ? { status: body.status ?? endpointStatus } : {}),
  };
}

/** The published revision's created-on range of the endpoint list. */
function dateRangeOf(fromDate: string | undefined, toDate: string | undefined) {
  const range = dateRange('fromDate', fromDate, 'toDate', toDate);
  return { ...(range.from ? { createdFrom: range.from } : {}), ...(range.to ? { createdTo: range.to } : {}) };
}

interface LogQuery {
  webhookId?: string;
  endpointId?: string;
  eventType?: string[];
  status?: string;
  deliveryLogStatus?: string;
  httpStatus?: number;
  endpointHTTPResponseCode?: number;
  fromDate?: string;
  toDate?: string;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
}

/** Query → filter. Event types match under either naming set (logs keep the name the endpoint subscribed with). */
function logFilter(query: LogQuery): LogFilter {
  let eventTypes: string[] | undefined;
  if (query.eventType !== undefined) {
    eventTypes = [];
    for (const name of listValues(query.eventType) ?? []) {
      if (name === 'ping') {
        eventTypes.push('ping');
        continue;
      }
      const entry = eventTypeNamed(name);
      if (!entry) throw ValidationError.field('eventType', `'${name}' is not an event type.`);
      eventTypes.push(entry.eventType, ...entry.aliases);
    }
  }
  const rawStatus = query.status ?? query.deliveryLogStatus;
  let status: LogFilter['status'];
  if (rawStatus !== undefined) {
    const wanted = rawStatus.trim().toLowerCase();
    if (wanted === 'success') status = 'Success';
    else if (wanted === 'failure') status = 'Failure';
    else throw ValidationError.field('status', "'status' must be Success or Failure.");
  }
  const fromField = query.fromDate !== undefined ? 'fromDate' : 'dateFrom';
  const toField = query.toDate !== undefined ? 'toDate' : 'dateTo';
  const range = dateRange(fromField, query.fromDate ?? query.dateFrom, toField, query.toDate ?? query.dateTo);
  return {
    endpointId: query.webhookId ?? query.endpointId,
    eventTypes,
    status,
    httpStatus: query.httpStatus ?? query.endpointHTTPResponseCode,
    from: range.from,
    to: range.to,
    search: query.search?.trim() || undefined,
  };
}

function exportStream(rows: AsyncGenerator<LogRow>, format: 'csv' | 'json'): Readable {
  if (format === 'json') {
    return Readable.from(
      (async function* () {
        let first = true;
        yield '[';
        for await (const row of rows) {
          yield `${first ? '' : ','}${JSON.stringify(logView(row))}`;
          first = false;
        }
        yield ']';
      })(),
    );
  }
  return csvStream(rows, EXPORT_COLUMNS, logView);
}

/** What these routes use. */
export interface WebhooksRouteDeps {
  webhooks: WebhooksService;
}

export function webhooksRoutes(app: App, deps: WebhooksRouteDeps): void {
  const { webhooks } = deps;
  const tags = ['Webhooks'];
  app.get(
    '/v2/webhooks/event-types',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'List event types',
        description: 'Every event type, not paged: `total` is their count.',
        response: { 200: EventTypeList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async () => eventTypeList(EVENT_TYPES),
  );

  app.post(
    '/v2/webhooks/endpoints',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Create an endpoint',
        description: 'The answer is the only place the signing secret (`hmacSecret`) ever appears.',
        body: CreateEndpointBody,
        response: { 200: CreatedEndpointView, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const created = await webhooks.create(ownerOf(request), input(request.body));
      return { ...endpointView(created), hmacSecret: created.hmacSecret, secret: created.hmacSecret };
    },
  );

  app.get(
    '/v2/webhooks/endpoints',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'List endpoints',
        description: 'Active and inactive endpoints, newest first; `search` matches name, URL or id.',
        querystring: EndpointListQuery,
        response: { 200: EndpointList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const { page, pageIndex, pageSize } = publishedPageRequest(q, ENDPOINT_LIST);
      const result = await webhooks.list(
        ownerOf(request),
        {
          status: q.status ?? q.endpointStatus,
          name: q.name,
          endpointUrl: q.endpointUrl,
          search: q.search,
          ...dateRangeOf(q.fromDate, q.toDate),
        },
        page,
      );
      const items = result.rows.map(endpointView);
      // Every webhooks client's envelope at once (no name means two things here): the older document's `data` and
      // `total`, the published revision's `items` and `pageInfo` (its clients page without `pageIndex` too).
      return { data: items, items, total: result.total, pageInfo: pageInfoOf(pageIndex, pageSize, result.total) };
    },
  );

  app.get(
    '/v2/webhooks/endpoints/:endpointId',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Get an endpoint',
        params: EndpointParams,
        response: { 200: EndpointView, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => endpointView(await webhooks.get(ownerOf(request), request.params.endpointId)),
  );

  for (const [method, mode] of [
    ['PATCH', 'merge'],
    ['PUT', 'replace'],
  ] as const) {
    app.route({
      method,
      url: '/v2/webhooks/endpoints/:endpointId',
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: mode === 'merge' ? 'Update an endpoint (merge)' : 'Replace an endpoint',
        description:
          mode === 'merge'
            ? 'Fields left out keep their value. Setting status Inactive stops its scheduled retries.'
            : 'name, endpointUrl and eventTypes are required; status is Active unless given.',
        params: EndpointParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointView, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
      handler: async (request) =>
        endpointView(await webhooks.update(ownerOf(request), request.params.endpointId, input(request.body), mode)),
    });
  }

  app.delete(
    '/v2/webhooks/endpoints/:endpointId',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Delete an endpoint',
        description: 'Cancels its pending and scheduled deliveries; its delivery logs are kept.',
        params: EndpointParams,
        response: {
          200: Type.Unknown({ description: 'Deleted: 200 with no content.', examples: [''] }),
          ...errorResponses(...AUTHENTICATED_ERRORS, 404),
        },
      },
    },
    async (request, reply) => {
      await webhooks.remove(ownerOf(request), request.params.endpointId);
      return reply.code(200).send();
    },
  );

  for (const method of ['POST', 'GET'] as const) {
    app.route({
      method,
      url: '/v2/webhooks/endpoints/:endpointId/ping',
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Send a test ping',
        description:
          'One synthetic `ping` message, sent now and never retried. 200 with the outcome (also when the endpoint ' +
          'failed it), logged as a delivery log entry.',
        params: EndpointParams,
        response: { 200: PingResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
      handler: async (request) => {
        const ping = await webhooks.ping(ownerOf(request), request.params.endpointId);
        return { ...ping, isDelivered: ping.success, endpointHTTPResponseCode: ping.statusCode };
      },
    });
  }

  app.get(
    '/v2/webhooks/delivery-logs',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'List delivery attempts',
        description:
          'One entry per attempt (and per ping), newest first, 20 per page by default. `search` matches the event ' +
          'id exactly, or part of the endpoint name or URL.',
        querystring: LogListQuery,
        response: { 200: LogList, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const { page, pageIndex, pageSize } = publishedPageRequest(q, LOG_LIST);
      const result = await webhooks.listLogs(ownerOf(request), logFilter(q), page);
      return {
        items: result.rows.map(logView),
        total: result.total,
        pageInfo: pageInfoOf(pageIndex, pageSize, result.total),
      };
    },
  );

  app.get(
    '/v2/webhooks/delivery-logs/export',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Export delivery attempts',
        description: 'The list filters combined; `format` csv (default) or json. Streamed, newest first.',
        querystring: LogExportQuery,
        response: { 200: ExportResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      const wanted = (request.query.format ?? 'csv').trim().toLowerCase();
      if (wanted !== 'csv' && wanted !== 'json') throw ValidationError.field('format', "'format' must be csv or json.");
      const rows = webhooks.exportLogs(ownerOf(request), logFilter(request.query));
      return (
        reply
          .header('content-type', wanted === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="webhook-delivery-logs.${wanted}"`)
          // A stream is sent as it is read (Fastify skips serialization for streams); the schema documents the text.
          .send(exportStream(rows, wanted) as unknown as string)
      );
    },
  );

  app.get(
    '/v2/webhooks/delivery-logs/:deliveryLogId',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Get one delivery attempt',
        description: 'With the request sent and the response received (body and headers up to 16 KiB).',
        params: LogParams,
        response: { 200: LogDetail, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => logDetailView(await webhooks.getLog(ownerOf(request), request.params.deliveryLogId)),
  );

  app.post(
    '/v2/webhooks/delivery-logs/:deliveryLogId/retry',
    {
      config: { auth: WEBHOOKS_AUTH },
      schema: {
        tags,
        summary: 'Retry a failed delivery once',
        description:
          'One try, now, logged as the next attempt number; it schedules nothing. 400 for pings, successful ' +
          'attempts, deliveries that have since succeeded, and deleted or inactive endpoints; 409 while an attempt ' +
          'of the same delivery is in flight.',
        params: LogParams,
        response: { 200: RetryResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 404, 409) },
      },
    },
    async (request) => logDetailView(await webhooks.retry(ownerOf(request), request.params.deliveryLogId)),
  );
}
