import Type from 'typebox';
import type { Clock } from '../../platform/clock/clock.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { DEFAULT_PAGE_SIZE, listQuerySchema, PageInfo, pageInfoOf, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { TERMINAL_LIST } from '../terminals/terminal-list.js';
import { terminalListItem, terminalStatusView } from '../terminals/terminals.mapper.js';
import { DeliveryStatus } from '../terminals/terminals.model.js';
import type { TerminalsService } from '../terminals/terminals.service.js';
import { listTerms } from './v2-revision.js';
import { PUBLISHED_TERMINAL_QUERY, PublishedTerminalItem, publishedTerminalList } from './v2-terminals-published.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
/** A closed set of names in a request; in an answer, a string that says which (answers are not re-validated). */
const Names = <const T extends string>(...names: T[]) => Type.Enum(names);
const OneOf = (...names: string[]) => Type.String({ description: `One of: ${names.join(', ')}.` });
const DELIVERY = ['PendingShipment', 'Shipping', 'Active', 'Inactive'] as const;
const TERMINAL_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c70';

const ListQuery = listQuerySchema(TERMINAL_LIST, {
  deliveryStatus: Type.Optional(Names(...DELIVERY)),
  serialNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  ...PUBLISHED_TERMINAL_QUERY,
});

const Item = Type.Object({
  id: Type.String({ format: 'uuid' }),
  merchantId: Type.String({ format: 'uuid' }),
  merchantCompanyName: Type.String(),
  serialNumber: Type.String(),
  terminalManufacturer: OneOf('Sunmi', 'Verifone'),
  terminalModel: OneOf('SunmiP2', 'SunmiP2LiteSe', 'VerifoneVictaMobile', 'VerifoneVictaPortable', 'SunmiP3H'),
  deliveryStatus: OneOf(...DELIVERY),
  terminalMode: OneOf('Standalone', 'SemiIntegrated'),
  connectionStatus: OneOf('Online', 'Offline'),
  lastSeenTimestamp: Nullable(Type.String({ format: 'date-time' })),
});

const Status = Type.Object(
  {
    terminalId: Type.String({ format: 'uuid' }),
    timestamp: Type.String({ format: 'date-time', description: 'When this answer was made (the business clock).' }),
    terminalPosStatus: OneOf('Active', 'Busy', 'Offline'),
    merchantId: Type.Optional(Type.String({ format: 'uuid' })),
    terminalStatus: Type.Optional(OneOf('Ready', 'Busy', 'Offline')),
    lastSeenOn: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'The published name.' }))),
    terminalAppVersion: Type.Optional(Nullable(Type.String({ description: 'The published name.' }))),
    connectionStatus: OneOf('Online', 'Offline'),
    connectionType: Nullable(OneOf('WiFi', 'Mobile', 'Ethernet')),
    wifiConnectionStrength: Nullable(Type.Integer({ description: 'null while the terminal is offline.' })),
    mobileConnectionStrength: Nullable(Type.Integer({ description: 'null while the terminal is offline.' })),
    lastSeenTimestamp: Nullable(Type.String({ format: 'date-time' })),
    debitPinKey: Type.Null({ description: 'Not reported by terminals on the terminal channel: always null.' }),
    availabilityStatus: Nullable(OneOf('Ready', 'Busy')),
    ariseTerminalVersion: Nullable(Type.String()),
    batteryLevel: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    printerStatus: Nullable(OneOf('Normal', 'NotNormal', 'NotSupported')),
    deviceSoftwareDetails: Type.Null({ description: 'Not reported on the terminal channel: always null.' }),
  },
  {
    examples: [
      {
        terminalId: TERMINAL_ID,
        timestamp: '2026-11-24T10:00:05.000Z',
        terminalPosStatus: 'Active',
        connectionStatus: 'Online',
        connectionType: 'WiFi',
        wifiConnectionStrength: 85,
        mobileConnectionStrength: 0,
        lastSeenTimestamp: '2026-11-24T10:00:00.000Z',
        debitPinKey: null,
        availabilityStatus: 'Ready',
        ariseTerminalVersion: '1.0.0',
        batteryLevel: 90,
        printerStatus: 'Normal',
        deviceSoftwareDetails: null,
      },
    ],
  },
);

export interface V2TerminalsRouteDeps {
  terminals: TerminalsService;
  busy(terminal: { merchantId: string; id: string }): Promise<boolean>;
  clock: Clock;
  sandbox: boolean;
}

/** `/v2/terminals`: the merchant's terminals and their live status, as on `/pos-api/v1/terminals`. */
export function v2TerminalsRoutes(app: App, deps: V2TerminalsRouteDeps): void {
  const tags = ['Terminals (v2)'];

  app.get(
    '/v2/terminals',
    {
      schema: {
        tags,
        summary: 'List terminals',
        description:
          'The merchant’s terminals; `search` matches the serial number, `page` is zero-based. Online means a node ' +
          'holds the terminal channel socket (in the sandbox, or the virtual terminal is switched on). A request ' +
          'in the published terms (any but `page`, `orderBy` or `deliveryStatus` without `pageIndex`, or ' +
          '`x-api-version` 2.12) lists active terminals only, in the published names beside the older ones ' +
          '(`terminalId`, `terminalStatus` Ready, Busy or Offline, `lastSeenOn`), filtered by `terminalStatus`, ' +
          '`terminalMode`, `connectionStatus`, `serialNumber` (exact) and `search` (serial number, model, ' +
          'manufacturer, terminal id, company name), sorted by `sortBy`/`sortOrder`. Both envelopes: `total`, `pageInfo`.',
        querystring: ListQuery,
        response: {
          200: Type.Object(
            {
              items: Type.Array(
                Type.Object({
                  ...Item.properties,
                  terminalId: Type.Optional(PublishedTerminalItem.properties.terminalId),
                  terminalStatus: Type.Optional(PublishedTerminalItem.properties.terminalStatus),
                  lastSeenOn: Type.Optional(PublishedTerminalItem.properties.lastSeenOn),
                }),
              ),
              total: Type.Optional(Type.Integer()),
              pageInfo: Type.Optional(PageInfo),
            },
            {
              examples: [
                {
                  items: [
                    {
                      id: TERMINAL_ID,
                      merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c01',
                      merchantCompanyName: 'Acme Widgets',
                      serialNumber: 'SN100001',
                      terminalManufacturer: 'Sunmi',
                      terminalModel: 'SunmiP2',
                      deliveryStatus: 'Active',
                      terminalMode: 'SemiIntegrated',
                      connectionStatus: 'Online',
                      lastSeenTimestamp: '2026-11-24T10:00:00.000Z',
                    },
                  ],
                  total: 1,
                },
              ],
            },
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const q = request.query;
      // The older terms (`page`, `orderBy`, `deliveryStatus`, or x-api-version 2.12) list every terminal as before.
      const older = listTerms(request, q) === 'older' || q.deliveryStatus !== undefined;
      if (!older) return publishedTerminalList(deps, merchantOf(request).merchantId, q);
      const paging = pageRequest(q, TERMINAL_LIST);
      const result = await deps.terminals.list(
        {
          merchantId: merchantOf(request).merchantId,
          deliveryStatusId: q.deliveryStatus === undefined ? undefined : DeliveryStatus[q.deliveryStatus],
          serialNumber: q.serialNumber,
        },
        paging,
      );
      return {
        // The answer's schema keeps only the version 2 fields of the v1 view.
        items: result.items.map((row) => {
          const v = terminalListItem(row, deps.sandbox);
          return { ...v, deliveryStatus: v.deliveryStatusName, terminalMode: v.terminalModeName };
        }),
        total: result.total,
        pageInfo: pageInfoOf(q.page ?? 0, q.pageSize ?? DEFAULT_PAGE_SIZE, result.total),
      };
    },
  );

  app.get(
    '/v2/terminals/:id/status',
    {
      schema: {
        tags,
        summary: 'Terminal status',
        description:
          'As the terminal last reported it over its channel. Offline: what it cannot know now (battery, printer, ' +
          'signal, connection type) is null.',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: Status, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const terminal = await deps.terminals.get(merchantOf(request).merchantId, request.params.id);
      const presence = await deps.terminals.presence(terminal);
      const v = terminalStatusView(terminal, presence, presence.online && (await deps.busy(terminal)));
      // Online, a strength the terminal did not report is that of a connection it does not use: 0, as the document
      // shows it. Offline, nothing is known: null.
      const strength = (value: number | null) => (presence.online ? (value ?? 0) : null);
      return {
        ...v,
        merchantId: terminal.merchantId,
        terminalStatus: v.availabilityStatus ?? 'Offline',
        lastSeenOn: v.lastSeenTimestamp,
        terminalAppVersion: v.ariseTerminalVersion,
        wifiConnectionStrength: strength(v.wifiConnectionStrength),
        mobileConnectionStrength: strength(v.mobileConnectionStrength),
        timestamp: deps.clock.now().toISOString(),
        debitPinKey: null,
        deviceSoftwareDetails: null,
      };
    },
  );
}
