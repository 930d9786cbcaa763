import Type, { type Static } from 'typebox';
import {
  DateFilter,
  ListParam,
  type ListSpec,
  listQuerySchema,
  PageInfo,
  PublishedPaging,
} from '../../platform/http/paging.js';

const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Nullable = <T extends import('typebox').TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const ENDPOINT_ID = '6f1c2b1e-8d4a-4c3e-9a57-0b8e2f4d9c11';
const LOG_ID = '0b5d8f6e-2c1a-4e7b-8f3d-9a6c5b4e3d21';
const MESSAGE_ID = '3e8a1c2d-7b6f-4a5e-9d0c-1f2e3d4c5b6a';

export const EndpointParams = Type.Object({ endpointId: Uuid() });
export const LogParams = Type.Object({ deliveryLogId: Uuid() });

const EndpointFields = {
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Display name (required on create).' })),
  webhookName: Type.Optional(Type.String({ maxLength: 255, description: 'Alias of `name`.' })),
  endpointName: Type.Optional(Type.String({ maxLength: 255, description: 'Alias of `name` (published revision).' })),
  endpointUrl: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Public https:// address. Hosts that are or resolve to loopback, private, link-local, unique-local, ' +
        'multicast, metadata or other non-public addresses are refused.',
    }),
  ),
  eventTypes: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 100,
      description: 'Event type identifiers (either naming set, see GET /v2/webhooks/event-types).',
    }),
  ),
};

export const CreateEndpointBody = Type.Object(EndpointFields, {
  additionalProperties: false,
  examples: [
    {
      name: 'Orders service',
      endpointUrl: 'https://hooks.example.com/tessera',
      eventTypes: ['transaction.card.captured', 'payment.card.refunded'],
    },
  ],
});

const Status = Type.Union([Type.Literal('Active'), Type.Literal('Inactive')]);

export const UpdateEndpointBody = Type.Object(
  {
    ...EndpointFields,
    status: Type.Optional(Status),
    endpointStatus: Type.Optional(
      Type.Union([Type.Literal('Active'), Type.Literal('Inactive')], {
        description: 'Alias of `status` (published revision).',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'Orders service (v2)', status: 'Inactive' }],
  },
);

export type EndpointBody = Static<typeof UpdateEndpointBody>;

const endpointExample = {
  endpointId: ENDPOINT_ID,
  id: ENDPOINT_ID,
  webhookName: 'Orders service',
  name: 'Orders service',
  endpointName: 'Orders service',
  endpointUrl: 'https://hooks.example.com/tessera',
  status: 'Active',
  endpointStatus: 'Active',
  eventTypes: ['transaction.card.captured', 'payment.card.refunded'],
  createdAt: '2026-11-21T10:00:00.000Z',
  createdOn: '2026-11-21T10:00:00.000Z',
  modifiedOn: '2026-11-21T10:00:00.000Z',
};

const EndpointViewFields = {
  endpointId: Uuid(),
  id: Uuid("Same as endpointId (the SDK's document's name)."),
  webhookName: Type.String(),
  name: Type.String({ description: "Same as webhookName (the SDK's document's name)." }),
  endpointName: Type.String({ description: 'Same as webhookName (the published revision’s name).' }),
  endpointUrl: Type.String(),
  status: Status,
  endpointStatus: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')], {
    description: 'Same as status (published).',
  }),
  eventTypes: Type.Array(Type.String(), { description: 'As subscribed (deliveries carry these identifiers).' }),
  createdAt: Type.String({ format: 'date-time' }),
  createdOn: Type.String({ format: 'date-time', description: 'Same as createdAt (older clients read this name).' }),
  modifiedOn: Type.String({ format: 'date-time' }),
};

export const EndpointView = Type.Object(EndpointViewFields, { examples: [endpointExample] });

export const CreatedEndpointView = Type.Object(
  {
    ...EndpointViewFields,
    hmacSecret: Type.String({
      description: 'Signing secret: shown in this response only. Key HMAC-SHA256 with its UTF-8 bytes.',
    }),
    secret: Type.String({ description: "Same as hmacSecret (the SDK's document's name)." }),
  },
  {
    examples: [
      { ...endpointExample, hmacSecret: '5f0c…64 hex characters…9a1e', secret: '5f0c…64 hex characters…9a1e' },
    ],
  },
);

export const ENDPOINT_LIST: ListSpec = {
  orderBy: { createdOn: 'created_at', createdAt: 'created_at', name: 'name', webhookName: 'name', status: 'status' },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'id',
  defaultPageSize: 20,
};

export const EndpointListQuery = listQuerySchema(ENDPOINT_LIST, {
  ...PublishedPaging,
  fromDate: DateFilter('Created at or after (published revision).'),
  toDate: DateFilter('Created at or before (published revision).'),
  status: Type.Optional(Status),
  endpointStatus: Type.Optional(Status),
  name: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name.' })),
  endpointUrl: Type.Optional(Type.String({ maxLength: 2000, description: 'Part of the URL.' })),
});

export const EndpointList = Type.Object(
  {
    data: Type.Optional(Type.Array(Type.Object(EndpointViewFields), { description: 'Older revision (no pageIndex).' })),
    total: Type.Optional(
      Type.Integer({ description: 'Count of all matching endpoints, independent of the page size (older revision).' }),
    ),
    items: Type.Optional(
      Type.Array(Type.Object(EndpointViewFields), { description: 'Published revision (pageIndex).' }),
    ),
    pageInfo: Type.Optional(PageInfo),
  },
  {
    examples: [
      {
        data: [endpointExample],
        items: [endpointExample],
        total: 1,
        pageInfo: { pageIndex: 0, pageSize: 20, totalItems: 1, totalPages: 1, hasMore: false },
      },
    ],
  },
);

export const PingResponse = Type.Object(
  {
    success: Type.Boolean({ description: 'The endpoint answered 2xx within the timeout.' }),
    statusCode: Nullable(Type.Integer({ description: 'The HTTP status it answered; null when none came.' })),
    isDelivered: Type.Boolean({ description: 'Same as success (published revision).' }),
    endpointHTTPResponseCode: Nullable(Type.Integer({ description: 'Same as statusCode (published revision).' })),
    roundTripDurationMs: Type.Integer(),
    durationMs: Type.Integer({ description: "Same as roundTripDurationMs (the SDK's document's name)." }),
    errorMessage: Nullable(Type.String()),
    deliveryLogId: Uuid('The delivery log entry of this ping.'),
  },
  {
    examples: [
      {
        success: true,
        statusCode: 200,
        isDelivered: true,
        endpointHTTPResponseCode: 200,
        roundTripDurationMs: 84,
        durationMs: 84,
        errorMessage: null,
        deliveryLogId: LOG_ID,
      },
    ],
  },
);

const logExample = {
  deliveryLogId: LOG_ID,
  id: LOG_ID,
  webhookEndpointId: ENDPOINT_ID,
  endpointId: ENDPOINT_ID,
  webhookName: 'Orders service',
  endpointName: 'Orders service',
  endpointUrl: 'https://hooks.example.com/tessera',
  eventId: MESSAGE_ID,
  eventType: 'transaction.card.captured',
  deliveryAttemptStatus: 'Failure',
  deliveryLogStatus: 'Failure',
  status: 'Failure',
  responseStatusCode: 503,
  endpointHTTPResponseCode: 503,
  roundTripDurationMs: 120,
  durationMs: 120,
  attemptNumber: 1,
  errorMessage: 'The endpoint answered HTTP 503',
  isPing: false,
  isManualRetry: false,
  createdOn: '2026-11-21T10:00:00.000Z',
  nextRetryAt: '2026-11-21T10:01:00.000Z',
};

const LogFields = {
  deliveryLogId: Uuid(),
  id: Uuid("Same as deliveryLogId (the SDK's document's name)."),
  webhookEndpointId: Uuid(),
  endpointId: Uuid('Same as webhookEndpointId (the published revision’s name).'),
  webhookName: Type.String(),
  endpointName: Type.String({ description: 'Same as webhookName (published).' }),
  endpointUrl: Type.String(),
  eventId: Uuid('The message id the receiver saw (body `id`, `<prefix>-Webhook-ID`); the same on every attempt.'),
  eventType: Type.String({ description: 'As the endpoint subscribed; `ping` for pings.' }),
  deliveryAttemptStatus: Type.Union([Type.Literal('Success'), Type.Literal('Failure')]),
  deliveryLogStatus: Type.Union([Type.Literal('Success'), Type.Literal('Failure')], {
    description: 'Same as deliveryAttemptStatus (published).',
  }),
  status: Type.Union([Type.Literal('Success'), Type.Literal('Failure')], {
    description: 'Same as deliveryAttemptStatus.',
  }),
  responseStatusCode: Nullable(Type.Integer()),
  endpointHTTPResponseCode: Nullable(Type.Integer({ description: 'Same as responseStatusCode (published).' })),
  roundTripDurationMs: Type.Integer(),
  durationMs: Type.Integer({ description: "Same as roundTripDurationMs (the SDK's document's name)." }),
  attemptNumber: Type.Integer({ description: 'The attempt this entry records (1-7 automatic; manual retries go on).' }),
  errorMessage: Nullable(Type.String()),
  isPing: Type.Boolean(),
  isManualRetry: Type.Boolean(),
  createdOn: Type.String({ format: 'date-time' }),
  nextRetryAt: Nullable(
    Type.String({ format: 'date-time', description: 'When the next attempt is due; null when delivered or done.' }),
  ),
};

const logDetailExtra = {
  requestHeaders: Type.Record(Type.String(), Type.String()),
  requestBody: Type.String(),
  responseHeaders: Nullable(Type.Record(Type.String(), Type.String())),
  responseBody: Nullable(Type.String({ description: 'At most 16 KiB.' })),
};

const logDetailExample = {
  ...logExample,
  requestHeaders: { 'content-type': 'application/json; charset=utf-8', 'Service-Webhook-ID': MESSAGE_ID },
  requestBody: `{"id":"${MESSAGE_ID}","type":"transaction.card.captured","created":1795255200,"apiVersion":"v2","data":{"object":{"id":"9c1f…","resourceType":"transaction"}}}`,
  responseHeaders: { 'content-type': 'text/plain' },
  responseBody: 'Service Unavailable',
};

export const LogDetail = Type.Object({ ...LogFields, ...logDetailExtra }, { examples: [logDetailExample] });

export const LOG_LIST: ListSpec = {
  orderBy: { createdOn: 'created_at', attemptNumber: 'attempt_number', eventType: 'event_type' },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'seq',
  defaultPageSize: 20,
};

const LogFilters = {
  ...PublishedPaging,
  endpointHTTPResponseCode: Type.Optional(
    Type.Integer({ minimum: 100, maximum: 599, description: 'Alias of httpStatus (published revision).' }),
  ),
  webhookId: Type.Optional(Uuid('Only this endpoint.')),
  endpointId: Type.Optional(Uuid('Alias of webhookId.')),
  eventType: ListParam('Event types, in either naming set.', { maxLength: 2000 }),
  status: Type.Optional(Type.String({ description: 'Success or Failure.' })),
  deliveryLogStatus: Type.Optional(Type.String({ description: 'Alias of status.' })),
  httpStatus: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  fromDate: DateFilter('Attempts at or after.'),
  toDate: DateFilter('Attempts at or before.'),
  dateFrom: DateFilter('Alias of fromDate.'),
  dateTo: DateFilter('Alias of toDate.'),
};

export const LogListQuery = listQuerySchema(LOG_LIST, LogFilters);

export const LogList = Type.Object(
  {
    items: Type.Array(Type.Object(LogFields)),
    total: Type.Integer({ description: 'Count of all matching entries, independent of the page size.' }),
    pageInfo: PageInfo,
  },
  {
    examples: [
      {
        items: [logExample],
        total: 1,
        pageInfo: { pageIndex: 0, pageSize: 20, totalItems: 1, totalPages: 1, hasMore: false },
      },
    ],
  },
);

export const LogExportQuery = Type.Object({
  ...LogFilters,
  search: Type.Optional(Type.String({ maxLength: 200 })),
  format: Type.Optional(Type.String({ description: 'csv (default) or json, case-insensitive.' })),
});

export const ExportResponse = Type.String({
  description: 'text/csv (one row per attempt, header first) or application/json (an array), streamed.',
  examples: ['deliveryLogId,webhookEndpointId,webhookName,…\n'],
});

export const RetryResponse = Type.Object(
  { ...LogFields, ...logDetailExtra },
  {
    examples: [
      {
        ...logDetailExample,
        attemptNumber: 2,
        isManualRetry: true,
        status: 'Success',
        deliveryAttemptStatus: 'Success',
      },
    ],
  },
);
