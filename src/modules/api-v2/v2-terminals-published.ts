// `GET /v2/terminals` in the published revision's terms (any request but one in the older terms): active terminals
// only (not deactivated, not Inactive), their `terminalStatus` (Ready, Busy, Offline) worked out as the status
// operation does, filtered, searched, sorted and paged in memory (a terminal's status is not a column).
import Type, { type Static } from 'typebox';
import { MAX_PAGE, PUBLISHED_PAGE_SIZE, pageInfoOf } from '../../platform/http/paging.js';
import { terminalListItem } from '../terminals/terminals.mapper.js';
import { DeliveryStatus } from '../terminals/terminals.model.js';
import type { TerminalsService } from '../terminals/terminals.service.js';

export const PUBLISHED_TERMINAL_QUERY = {
  pageIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Zero-based (published).' })),
  sortBy: Type.Optional(
    Type.Enum(['terminalManufacturer', 'merchantCompanyName', 'serialNumber', 'createdOn'], {
      description: 'Published revision; none: newest first.',
    }),
  ),
  sortOrder: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'asc by default (with sortBy).' })),
  terminalStatus: Type.Optional(Type.Enum(['Ready', 'Busy', 'Offline'])),
  terminalMode: Type.Optional(Type.Enum(['Standalone', 'SemiIntegrated'])),
  connectionStatus: Type.Optional(Type.Enum(['Online', 'Offline'])),
};

/**
 * How many of a merchant's terminals the published list works over at most (status is computed per terminal); a
 * merchant with more is listed through the older terms (`page`), which page in SQL.
 */
const MAX_TERMINALS = 5_000;

export const PublishedTerminalItem = Type.Object({
  id: Type.String({ format: 'uuid' }),
  deliveryStatus: Type.String(),
  lastSeenTimestamp: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  terminalId: Type.String({ format: 'uuid' }),
  merchantId: Type.String({ format: 'uuid' }),
  merchantCompanyName: Type.String(),
  serialNumber: Type.String(),
  terminalManufacturer: Type.String(),
  terminalModel: Type.String(),
  terminalMode: Type.String(),
  terminalStatus: Type.Enum(['Ready', 'Busy', 'Offline']),
  connectionStatus: Type.Enum(['Online', 'Offline']),
  lastSeenOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
type Item = Static<typeof PublishedTerminalItem>;

interface Query {
  pageIndex?: number;
  pageSize?: number;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  terminalStatus?: string;
  terminalMode?: string;
  connectionStatus?: string;
  serialNumber?: string;
  search?: string;
}

export async function publishedTerminalList(
  deps: {
    terminals: TerminalsService;
    busy(t: { merchantId: string; id: string }): Promise<boolean>;
    sandbox: boolean;
  },
  merchantId: string,
  q: Query,
) {
  const rows = await deps.terminals.list(
    { merchantId, serialNumber: q.serialNumber },
    { limit: MAX_TERMINALS, offset: 0, orderSql: 'ORDER BY t.created_at DESC, t.id DESC', search: undefined },
  );
  const items: Item[] = [];
  // Active terminals: not deactivated, not returned (Inactive); ones on their way are listed.
  for (const row of rows.items.filter((r) => !r.deactivatedAt && r.deliveryStatusId !== DeliveryStatus.Inactive)) {
    const v = terminalListItem(row, deps.sandbox);
    const online = v.connectionStatus === 'Online';
    const terminalStatus = !online ? 'Offline' : (await deps.busy(row)) ? 'Busy' : 'Ready';
    items.push({
      // The older revision's names beside (a client that sends no paging is answered in the published terms).
      id: v.id,
      deliveryStatus: v.deliveryStatusName,
      lastSeenTimestamp: v.lastSeenTimestamp,
      terminalId: v.id,
      merchantId: v.merchantId,
      merchantCompanyName: v.merchantCompanyName,
      serialNumber: v.serialNumber,
      terminalManufacturer: v.terminalManufacturer,
      terminalModel: v.terminalModel,
      terminalMode: v.terminalModeName,
      terminalStatus,
      connectionStatus: online ? 'Online' : 'Offline',
      lastSeenOn: v.lastSeenTimestamp,
    });
  }
  const needle = q.search?.trim().toLowerCase();
  const kept = items.filter(
    (i) =>
      (!q.terminalStatus || i.terminalStatus === q.terminalStatus) &&
      (!q.terminalMode || i.terminalMode === q.terminalMode) &&
      (!q.connectionStatus || i.connectionStatus === q.connectionStatus) &&
      (!needle ||
        [i.serialNumber, i.terminalModel, i.terminalManufacturer, i.terminalId, i.merchantCompanyName].some((f) =>
          f.toLowerCase().includes(needle),
        )),
  );
  // Newest first without sortBy (the list query's order); with it, by that field, ascending unless told.
  if (q.sortBy && q.sortBy !== 'createdOn') {
    const key = q.sortBy as 'terminalManufacturer' | 'merchantCompanyName' | 'serialNumber';
    const sign = q.sortOrder === 'desc' ? -1 : 1;
    kept.sort((a, b) => sign * (a[key].localeCompare(b[key]) || a.terminalId.localeCompare(b.terminalId)));
  } else if (q.sortBy === 'createdOn' && q.sortOrder !== 'desc') kept.reverse();
  const pageIndex = q.pageIndex ?? 0;
  const pageSize = q.pageSize ?? PUBLISHED_PAGE_SIZE;
  return {
    items: kept.slice(pageIndex * pageSize, pageIndex * pageSize + pageSize),
    total: kept.length,
    pageInfo: pageInfoOf(pageIndex, pageSize, kept.length),
  };
}
