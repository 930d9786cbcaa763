// Every target `npm run bench` checks, in one place: each figure measured in this run becomes a row of the summary
// (a figure not measured — BENCH_ONLY — adds no row). The targets are the issues' (docs/performance.md).
import type { Figure } from './fixed-clients.js';
import type { PaymentGrowth } from './payment-growth.js';
import type { RetentionFigures } from './retention.js';
import { ratioOf, Scoreboard } from './scoreboard.js';

type Maybe<T> = T | undefined;

export interface Measured {
  baseline?: Figure;
  baselineAgain?: Figure;
  authenticatedGet?: Figure;
  tokenIssuance?: Figure;
  uncachedBaseline?: Figure;
  uncachedGet?: Figure;
  paymentBaseline?: Figure;
  paymentBaselineAgain?: Figure;
  rawSale?: Figure;
  adyenSale?: Figure;
  sales: Array<{ name: string; figure: Maybe<Figure> }>;
  webhookDelivery?: {
    deliveriesPerSecond: number;
    throughputRatio: number;
    idleP50Ms: number;
    loadedP99Ms: number;
    liveHeapGrowthMiB?: { small: number; large: number; smallCount: number; largeCount: number };
  };
  sessions?: {
    paymentBaseline?: Figure;
    createV2?: Figure;
    createIntegration?: Figure;
    retrieve?: Figure & { throughputRatio?: number };
    checkoutPage: { ttfbP99Ms: number; totalBytes: number };
  };
  nacha?: {
    timeRatioLibraryOverOurs: number;
    in16MiBOldSpace: { ours900k: { ok: boolean } };
    cutoff: { liveHeapGrowthMiB: { at10k: number; at100k: number } };
    clearing: { liveHeapGrowthMiB: { at10k: number; at100k: number } };
  };
  billing?: {
    throughputRatio: number;
    perSecond: number;
    apiSale: Figure;
    liveHeapGrowthMiB: { at10k: number; at100k: number };
  };
  pos?: {
    salesRatio: number;
    apiSale: Figure;
    sales: { salesPerSecond: number; p99Ms: number; lanes: number };
    longPoll: { heapPerWaiterKiB: number; releaseP99Ms: number };
    burst: { p99Ratio: number };
  };
  eventStreams?: { p99Ratio: number };
  invoices?: {
    createPublish?: { throughputRatio?: number; publishedPerSecond?: number };
    pdf?: { pdfsPerSecond?: number; p99Ratio?: number };
    list?: { firstPage?: unknown };
  };
  links?: { throughputRatio: number };
  partner?: { listP99Ms: number; worstP99Ms: number };
  dashboard?: { worstP99Ms: number; weight: { homeGzipBytes: number }; transactions: number };
  exports?: Array<{ name: string; liveHeapGrowthMiB: { small: number; large: number }; rows: [number, number] }>;
  retention?: RetentionFigures;
  growth?: PaymentGrowth;
}

/** Ten times the objects may hold at most twice the memory plus this much measurement noise (MiB). */
const FLAT_NOISE_MIB = 8;
const flat = (small: number, large: number) => large <= 2 * small + FLAT_NOISE_MIB;

export function score(m: Measured): Scoreboard {
  const board = new Scoreboard();
  board.atLeast(
    'authenticated GET (cache on) / SELECT 1',
    ratioOf(m.authenticatedGet?.requestsPerSecond, m.baseline?.requestsPerSecond),
    0.5,
  );
  board.atLeast(
    'authenticated GET, uncached / SELECT 1',
    ratioOf(m.uncachedGet?.requestsPerSecond, m.uncachedBaseline?.requestsPerSecond),
    0.5,
  );
  board.info('token issuance / SELECT 1', ratioOf(m.tokenIssuance?.requestsPerSecond, m.baseline?.requestsPerSecond));
  board.info(
    'SELECT 1 baseline drift (again / first)',
    ratioOf(m.baselineAgain?.requestsPerSecond, m.baseline?.requestsPerSecond),
  );

  const payment = m.paymentBaseline;
  for (const { name, figure } of m.sales) {
    if (!figure || !payment) continue;
    board.atLeast(
      `${name} / 2-INSERT baseline`,
      ratioOf(figure.requestsPerSecond, payment.requestsPerSecond),
      0.8,
      '',
      `${figure.requestsPerSecond}/s`,
    );
    board.atMost(
      `${name} p99 / baseline p99`,
      ratioOf(figure.p99Ms, Math.max(1, payment.p99Ms)),
      1.5,
      '',
      `${figure.p99Ms} vs ${payment.p99Ms} ms`,
    );
  }
  board.atLeast(
    'raw-card sale through Adyen (its fake) / sandbox sale',
    ratioOf(m.adyenSale?.requestsPerSecond, m.rawSale?.requestsPerSecond),
    0.8,
    '',
    m.adyenSale && m.rawSale && `${m.adyenSale.requestsPerSecond} vs ${m.rawSale.requestsPerSecond}/s`,
  );
  board.info(
    '2-INSERT baseline drift (again / first)',
    ratioOf(m.paymentBaselineAgain?.requestsPerSecond, payment?.requestsPerSecond),
  );

  const hooks = m.webhookDelivery;
  board.atLeast(
    'webhook deliveries per second (signed, logged)',
    hooks?.deliveriesPerSecond,
    5000,
    '/s',
    hooks && `${hooks.throughputRatio} of the receiver's ceiling`,
  );
  board.atMost('webhook commit → receiver p50 while idle', hooks?.idleP50Ms, 10, ' ms');
  const deliveryHeap = hooks?.liveHeapGrowthMiB;
  if (deliveryHeap) {
    board.holds(
      'webhook deliveries: memory flat in the number delivered',
      `${deliveryHeap.small} → ${deliveryHeap.large} MiB (${deliveryHeap.smallCount.toLocaleString('en-US')} → ${deliveryHeap.largeCount.toLocaleString('en-US')})`,
      '≤ 2× + 8 MiB',
      flat(deliveryHeap.small, deliveryHeap.large),
    );
  }

  const s = m.sessions;
  const sessionBase = s?.paymentBaseline;
  board.atLeast(
    'session create (v2) / 2-INSERT baseline',
    ratioOf(s?.createV2?.requestsPerSecond, sessionBase?.requestsPerSecond),
    0.4,
  );
  board.atLeast(
    'session create (integration API) / 2-INSERT baseline',
    ratioOf(s?.createIntegration?.requestsPerSecond, sessionBase?.requestsPerSecond),
    0.4,
  );
  board.info('session retrieve / SELECT 1', s?.retrieve?.throughputRatio);
  board.atMost('checkout page first byte p99', s?.checkoutPage.ttfbP99Ms, 20, ' ms');
  board.atMost('checkout page total transfer', s?.checkoutPage.totalBytes, 51_200, ' B');

  const inv = m.invoices;
  board.atLeast('invoice create + publish / 2-INSERT baseline', inv?.createPublish?.throughputRatio, 0.4);
  board.info('invoice PDFs per second (worker threads)', inv?.pdf?.pdfsPerSecond);
  board.atMost('invoice list p99 (100,000 invoices)', (inv?.list?.firstPage as Figure | undefined)?.p99Ms, 20, ' ms');

  const pos = m.pos;
  board.atLeast(
    `POS sale through ${pos?.sales.lanes ?? 16} simulated terminals / API sale`,
    pos?.salesRatio,
    0.25,
    '',
    pos && `${pos.sales.salesPerSecond} vs ${pos.apiSale.requestsPerSecond}/s`,
  );
  board.atMost('POS long-poll heap per waiter', pos?.longPoll.heapPerWaiterKiB, 50, ' KiB');
  board.atMost('POS long-poll release p99', pos?.longPoll.releaseP99Ms, 50, ' ms');
  board.info('2,000 long-polls released: other tenant p99 / before', pos?.burst.p99Ratio);
  board.info('2,000 idle event streams: other tenant p99 / none', m.eventStreams?.p99Ratio);

  const nacha = m.nacha;
  board.atLeast('NACHA 100,000 entries: @ach/ach time / ours', nacha?.timeRatioLibraryOverOurs, 1.01);
  if (nacha) {
    const heap = nacha.cutoff.liveHeapGrowthMiB;
    board.holds(
      'NACHA cutoff: memory flat (10k → 100k entries)',
      `${heap.at10k} → ${heap.at100k} MiB; 900k in 16 MiB ${nacha.in16MiBOldSpace.ours900k.ok ? 'yes' : 'no'}`,
      '≤ 2× + 2 MiB',
      heap.at100k <= 2 * heap.at10k + 2 && nacha.in16MiBOldSpace.ours900k.ok,
    );
    // A slice (2,000 transactions, their ledger lines and events) is a few MiB live at either size; a clearing that
    // held the whole file at once would grow tenfold with it.
    const clearing = nacha.clearing.liveHeapGrowthMiB;
    board.holds(
      'NACHA clearing: memory flat (10k → 100k entries)',
      `${clearing.at10k} → ${clearing.at100k} MiB`,
      '≤ 2× + 8 MiB',
      clearing.at100k <= 2 * clearing.at10k + 8,
    );
  }

  const billing = m.billing;
  board.atLeast(
    'billing run installments/s / API vaulted sale',
    billing?.throughputRatio,
    0.5,
    '',
    billing && `${billing.perSecond} vs ${billing.apiSale.requestsPerSecond}/s`,
  );
  if (billing) {
    const heap = billing.liveHeapGrowthMiB;
    board.holds(
      'billing run: memory flat (10k → 100k)',
      `${heap.at10k} → ${heap.at100k} MiB`,
      '≤ 2× + 8 MiB',
      flat(heap.at10k, heap.at100k),
    );
  }
  const kept = m.retention;
  if (kept) {
    const month = `${kept.rowsPerMonth.toLocaleString('en-US')} rows`;
    board.atMost(`dropping a month of delivery logs (${month}): DROP of its partition`, kept.dropMonthMs, 1000, ' ms');
    board.atLeast(
      'dropping a month: DELETE + VACUUM on one table / DROP of its partition',
      ratioOf(kept.deleteMonthMs + kept.vacuumAfterDeleteMs, Math.max(1, kept.dropMonthMs)),
      10,
      '',
      `${kept.deleteMonthMs} + ${kept.vacuumAfterDeleteMs} vs ${kept.dropMonthMs} ms`,
    );
    board.info(
      'delivery logs per million rows: one table; partitioned',
      `${(kept.bytesPerMillion.single / 1048576).toFixed(0)} MiB; ${(kept.bytesPerMillion.partitioned / 1048576).toFixed(0)} MiB`,
    );
  }
  if (m.growth) {
    const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
    board.info(
      'per million payments: kept for ever; dropped after a retention',
      `${mib(m.growth.keptPerMillion)}; ${mib(m.growth.droppedPerMillion)}`,
    );
  }
  for (const exported of m.exports ?? []) {
    const heap = exported.liveHeapGrowthMiB;
    board.holds(
      `${exported.name}: memory flat`,
      `${heap.small} → ${heap.large} MiB (${exported.rows[0].toLocaleString('en-US')} → ${exported.rows[1].toLocaleString('en-US')} rows)`,
      '≤ 2× + 8 MiB',
      flat(heap.small, heap.large),
    );
  }

  board.atLeast('payment link opened / checkout page', m.links?.throughputRatio, 0.5);
  board.atMost('partner merchant list p99 (100,000 merchants, 200/page)', m.partner?.listP99Ms, 50, ' ms');
  board.info('partner list, worst filter or sort p99 (ms)', m.partner?.worstP99Ms);
  board.atMost(
    `dashboard worst page p99 (${m.dashboard?.transactions?.toLocaleString('en-US')} tx)`,
    m.dashboard?.worstP99Ms,
    100,
    ' ms',
  );
  board.atMost('dashboard first page, gzip', m.dashboard?.weight.homeGzipBytes, 307_200, ' B');
  return board;
}
