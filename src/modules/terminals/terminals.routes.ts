import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/http/error-schemas.js';
import { enumIdList, pageRequest } from '../../platform/http/paging.js';
import { merchantOf } from '../../platform/http/principal.js';
import type { App } from '../../platform/http/server.js';
import { TERMINAL_LIST } from './terminal-list.js';
import { terminalListItem, terminalStatusView } from './terminals.mapper.js';
import { Manufacturer, Model } from './terminals.model.js';
import { TerminalIdParams, TerminalListQuery, TerminalListResponse, TerminalStatusView } from './terminals.schemas.js';
import type { TerminalsService } from './terminals.service.js';

/** What these routes use. */
export interface TerminalsRouteDeps {
  terminals: TerminalsService;
  /** Whether a POS transaction is in progress on the terminal (the POS module knows). */
  busy(terminal: { merchantId: string; id: string }): Promise<boolean>;
  sandbox: boolean;
}

export function terminalsRoutes(app: App, deps: TerminalsRouteDeps): void {
  const { terminals } = deps;
  const tags = ['Terminals'];
  const base = '/pos-api/v1/terminals';

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List terminals',
        description:
          'The merchant terminals. `search` matches the serial number; `manufacturerIds` and `modelIds` take ' +
          'comma-separated ids. Online means a node holds the terminal channel socket (in sandbox, a terminal with ' +
          'no simulator connected is the virtual one the operator controls drive).',
        querystring: TerminalListQuery,
        response: { 200: TerminalListResponse, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await terminals.list(
        {
          merchantId: merchantOf(request).merchantId,
          deliveryStatusId: q.deliveryStatusId,
          serialNumber: q.serialNumber,
          manufacturerIds: enumIdList('manufacturerIds', q.manufacturerIds, Object.values(Manufacturer)),
          modelIds: enumIdList('modelIds', q.modelIds, Object.values(Model)),
        },
        pageRequest(q, TERMINAL_LIST),
      );
      return { items: result.items.map((row) => terminalListItem(row, deps.sandbox)), total: result.total };
    },
  );

  app.get(
    `${base}/:terminalId/status`,
    {
      schema: {
        tags,
        summary: 'Terminal status',
        description:
          'Connection, battery, printer and signal as the terminal last reported them over its channel. A terminal ' +
          'no node holds a socket for is Offline, and what it cannot know now (battery, printer, signal) is null.',
        params: TerminalIdParams,
        response: { 200: TerminalStatusView, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => {
      const terminal = await terminals.get(merchantOf(request).merchantId, request.params.terminalId);
      const presence = await terminals.presence(terminal);
      return terminalStatusView(terminal, presence, presence.online && (await deps.busy(terminal)));
    },
  );
}
