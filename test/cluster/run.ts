// One cluster run: a deployment of 3 `serve` and 2 `worker` processes on one PostgreSQL, a loopback webhook receiver,
// the load driver and the fault injector for a while, then every node back, the business clock moved on until all
// that was due has happened, and the checker over the history and the database (docs/reliability.md).
import type pg from 'pg';
import { createPool } from '../../src/platform/db/pool.js';
import { FakeAdyen } from '../fakes/adyen/fake-adyen.js';
import { seeded } from '../random.js';
import { nachaSftpSettings, SftpSandboxBank } from '../sftp-bank.js';
import { type SftpServer, startSftpServer } from '../sftp-server.js';
import { startReceiver } from '../webhook-receiver.js';
import { check, clientFailures, type Snapshot, takeSnapshot, type Violation } from './checker.js';
import { Cluster } from './cluster.js';
import { FaultInjector, planFaults } from './faults.js';
import { HistoryWriter, readHistory } from './history.js';
import { LoadDriver, type MerchantLoad } from './load.js';

export interface RunOptions {
  seed: number;
  /** How long the load and the faults run. */
  seconds: number;
  clients: number;
  historyFile: string;
  /** Through PgBouncer in transaction pooling mode. */
  pgbouncer?: boolean;
  /** With a synchronous standby, promoted under load once the primary is killed (instead of a PostgreSQL crash). */
  standby?: boolean;
  /**
   * With a bank connection over SFTP: the second merchant's ACH goes to a nacha-sftp processor on OpenSSH (loopback),
   * whose sandbox bank answers every file and hands its returns back at once; sshd is stopped now and then.
   */
  sftp?: boolean;
  /**
   * A rolling upgrade instead of faults: every node starts from this older build (and migrates the database to its
   * version), and under load each is stopped gracefully and started from this checkout's bundle, one at a time. Any
   * request a client saw fail is a violation.
   */
  upgradeFrom?: { commit: string; bin: string };
  log?: (line: string) => void;
}

export interface RunReport {
  seed: number;
  seconds: number;
  pgbouncer: boolean;
  standby: boolean;
  /** The commit the nodes were upgraded from, in an upgrade run. */
  upgradedFrom?: string;
  operations: LoadDriver['counts'];
  faults: FaultInjector['counts'];
  /** Processes that exited by themselves (not killed by the injector): each fails the run. */
  exited: number;
  nodeLogs: string;
  webhookRequests: number;
  /** Requests the fake of Adyen took, and what it found against Adyen's contract (each fails the run). */
  adyen: { requests: number; notifications: number; faults: Record<string, number>; violations: string[] };
  /** Files the SFTP bank received and what was wrong on its server at the end (each fails the run). */
  sftp?: { files: number; pauses: number; violations: string[] };
  transactions: number;
  events: number;
  violations: Violation[];
  historyFile: string;
}

/** What every node of the run shares: leases short enough for a pause to outlast them in a short run. */
const NODE_ENV = {
  JOB_LEASE_SECONDS: '10',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '2000',
  SANDBOX_CARD_LATENCY_MS: '40',
  RATE_LIMIT_PER_MINUTE: '10000000',
  RATE_LIMIT_BURST_PER_10S: '10000000',
  // Every payer of the run comes from 127.0.0.1: the hosted pages' per-address limits would stop the load.
  CHECKOUT_RATE_LIMIT_PER_MINUTE: '10000000',
  CHECKOUT_SUBMISSIONS_PER_SESSION_PER_MINUTE: '1000',
  POS_LONG_POLL_MS: '5000',
  DB_POOL_SIZE: '10',
};
/** Longer than the job lease (10 s) and a webhook delivery's (2 × 2 s + 5 s). */
const PAUSE_MS = 13_000;

const EVENT_TYPES = [
  'transaction.card.authorized',
  'transaction.card.captured',
  'transaction.card.declined',
  'transaction.card.failed',
  'transaction.card.voided',
  'transaction.card.refunded',
  'transaction.ach.scheduled',
  'transaction.ach.in_progress',
  'transaction.ach.cancelled',
  'transaction.ach.cleared',
  'transaction.ach.charged_back',
  'transaction.ach.failed',
  'transaction.ach.refunded',
  'subscription.created',
  'subscription.paid',
  'subscription.payment_failed',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The third merchant's Adyen account, at the fake of Adyen (test/fakes/adyen) the run starts on loopback. */
const ADYEN_ACCOUNT = {
  apiKey: 'AQE-cluster-key-0001',
  merchantAccount: 'ClusterAdyen',
  hmacKey: '5A'.repeat(32),
  notificationUsername: 'adyen-cluster',
  notificationPassword: 'cluster-notification-password',
};

export async function runCluster(options: RunOptions): Promise<RunReport> {
  const log = options.log ?? (() => {});
  const history = new HistoryWriter(options.historyFile);
  const receiver = await startReceiver();
  const flaky = seeded(options.seed + 2);
  const hits: Snapshot['received'] = [];
  // One answer in ten is a 503: deliveries are retried, and the retry must carry the same message id.
  receiver.state.answer = (hit) => {
    const status = flaky() < 0.1 ? 503 : 200;
    const headerId = String(hit.headers['webhook-id'] ?? '');
    let bodyId = '';
    try {
      bodyId = JSON.parse(hit.body).id;
    } catch {
      // a body that is not JSON shows up as a mismatch
    }
    hits.push({ headerId, bodyId, accepted: status < 300 });
    return status;
  };
  log(
    `starting PostgreSQL${options.standby ? ' with a synchronous standby' : ''}` +
      `${options.pgbouncer ? ', PgBouncer (transaction pooling)' : ''}, 3 serve and 2 worker processes` +
      `${options.upgradeFrom ? ` of commit ${options.upgradeFrom.commit.slice(0, 12)}` : ''}`,
  );
  const logDir = options.historyFile.replace(/\.jsonl$/, '-nodes');
  let exited = 0;
  const cluster = await Cluster.start({
    serve: 3,
    workers: 2,
    env: NODE_ENV,
    logDir,
    pgbouncer: options.pgbouncer ?? false,
    standby: options.standby ?? false,
    bin: options.upgradeFrom?.bin,
    // A process that dies by itself is a finding: it is written down and fails the run (the cluster restarts it).
    onUnexpectedExit: (name, code, signal) => {
      exited++;
      history.write({ t: 'fault', at: Date.now(), kind: 'exited', target: name, detail: `${code ?? signal}` });
      log(`${name} exited by itself (${code ?? signal}); its output is in ${logDir}`);
    },
  });
  let pool: pg.Pool | undefined;
  // Adyen beside the sandbox card network: one request in ten meets a fault (an answer dropped after Adyen recorded
  // the request, a 500, a notification delivered before the answer), one notification in five comes twice, and each
  // is delivered to whichever serve node is up (Adyen keeps trying while none is).
  const adyen = await new FakeAdyen(ADYEN_ACCOUNT).start();
  const adyenRandom = seeded(options.seed + 3);
  // (None in an upgrade run: a payment Adyen leaves unknown keeps its payer waiting past the load's deadline, which
  // would read as a failure of the upgrade.)
  adyen.randomFaults = {
    rate: options.upgradeFrom ? 0 : 0.1,
    random: adyenRandom,
    kinds: [{ kind: 'drop-after-record' }, { kind: 'status-500' }, { kind: 'notify-before-answer' }],
  };
  adyen.notifier.duplicateRate = 0.2;
  adyen.notifier.random = adyenRandom;
  adyen.notifier.maxAttempts = 2000;
  const sftp: SftpServer | undefined = options.sftp ? await startSftpServer() : undefined;
  const bank = sftp ? new SftpSandboxBank(sftp) : undefined;
  const sftpReport = { files: 0, pauses: 0, violations: [] as string[] };
  let bankRunning = Boolean(bank);
  // The bank answers what arrives and hands back its returns at once (the clock jumps days at the end anyway).
  const bankLoop = (async () => {
    while (bankRunning) {
      try {
        for (const file of await bank!.answerNew()) {
          sftpReport.files++;
          if (file.returns) await bank!.writeInbound(`returns-${file.name}`, file.returns);
        }
      } catch (error) {
        sftpReport.violations.push(`the bank could not read a file: ${(error as Error).message}`);
      }
      await sleep(300);
    }
  })();
  try {
    const load = new LoadDriver(cluster, history, seeded(options.seed));
    const advance = async (seconds: number) => {
      await load.admin('POST', '/admin/v1/clock/advance', { seconds });
    };
    const merchants: MerchantLoad[] = [];
    const endpoints: Array<{ merchantId: string; endpointId: string }> = [];
    for (const name of ['Cluster A', 'Cluster B', 'Cluster Adyen']) {
      const m = await load.merchant(name);
      merchants.push(m);
      const onAdyen = name === 'Cluster Adyen';
      if (sftp && name === 'Cluster B') {
        await load.admin('POST', `/admin/v1/merchants/${m.id}/processors`, {
          name: 'Bank over SFTP',
          typeId: 2,
          connector: 'nacha-sftp',
          isDefault: true,
          settings: nachaSftpSettings(sftp),
          credentials: { privateKey: sftp.privateKey },
        });
      }
      if (onAdyen) {
        const processor = await load.admin('POST', `/admin/v1/merchants/${m.id}/processors`, {
          name: 'Adyen (fake)',
          typeId: 1,
          connector: 'adyen',
          isDefault: true,
          settings: { merchantAccount: ADYEN_ACCOUNT.merchantAccount, baseUrl: adyen.url },
          credentials: {
            apiKey: ADYEN_ACCOUNT.apiKey,
            hmacKey: ADYEN_ACCOUNT.hmacKey,
            notificationUsername: ADYEN_ACCOUNT.notificationUsername,
            notificationPassword: ADYEN_ACCOUNT.notificationPassword,
          },
        });
        adyen.notifier.url = () => {
          const nodes = cluster.liveServeUrls();
          const node = nodes[Math.floor(adyenRandom() * nodes.length)];
          return node ? `${node.url}${processor.notificationUrlPath}` : undefined;
        };
      }
      const endpoint = await load.admin(
        'POST',
        '/v2/webhooks/endpoints',
        { name: 'cluster', endpointUrl: receiver.url, eventTypes: EVENT_TYPES },
        m.token,
      );
      endpoints.push({ merchantId: m.id, endpointId: endpoint.endpointId });
      // Adyen takes no card-present payments here (docs/connectors.md): its merchant has no terminals.
      for (let i = 0; i < (onAdyen ? 0 : 2); i++) {
        const terminal = await load.admin('POST', `/admin/v1/merchants/${m.id}/terminals`, {
          serialNumber: `CL-${m.id.slice(-6)}-${i}`,
          terminalManufacturer: 'Sunmi',
          terminalModel: 'SunmiP2',
          terminalModeId: 2,
        });
        m.terminals.push(terminal.id);
      }
      await subscriptions(load, m, 3, onAdyen ? 'Adyen' : 'SandboxCard');
    }

    const durationMs = options.seconds * 1000;
    const injector = new FaultInjector(
      cluster,
      history,
      seeded(options.seed + 1),
      advance,
      (method, path, body) => load.admin(method, path, body),
      {
        durationMs,
        pauseMs: PAUSE_MS,
        postgres: cluster.canCrashPostgres,
      },
    );
    const plan = options.upgradeFrom
      ? []
      : planFaults(seeded(options.seed + 1), {
          durationMs,
          pauseMs: PAUSE_MS,
          postgres: cluster.canCrashPostgres,
          failover: cluster.canFailover,
        });
    log(
      `load for ${options.seconds} s with ${options.clients} clients; ` +
        (options.upgradeFrom
          ? 'a rolling upgrade to this checkout, one node at a time'
          : `faults: ${plan.map((f) => f.kind).join(', ')}`),
    );
    const start = Date.now();
    const clients = Array.from({ length: options.clients }, async (_, i) => {
      const m = merchants[i % merchants.length]!;
      while (Date.now() - start < durationMs) await load.step(m);
    });
    // The bank's server goes away for a few seconds now and then: deliveries and collections retry.
    const bankOutages = (async () => {
      const random = seeded(options.seed + 4);
      while (sftp && Date.now() - start < durationMs - 5000) {
        await sleep(5000 + random() * 10_000);
        await sftp.pause();
        sftpReport.pauses++;
        await sleep(1000 + random() * 3000);
        await sftp.resume();
      }
    })();
    // The rolling upgrade: serve and worker nodes in turn, spread over the middle of the run.
    const rollout = (async () => {
      if (!options.upgradeFrom) return;
      const order = ['serve-1', 'worker-1', 'serve-2', 'worker-2', 'serve-3'];
      for (const [i, name] of order.entries()) {
        const at = start + durationMs * (0.15 + (0.7 * i) / (order.length - 1));
        await sleep(Math.max(0, at - Date.now()));
        history.write({ t: 'fault', at: Date.now(), kind: 'upgrade', target: name, detail: 'to this checkout' });
        await cluster.upgrade(name, undefined);
        log(`${name} upgraded`);
      }
    })();
    await Promise.all([...clients, injector.run(plan, start), bankOutages, rollout]);
    log(`load done: ${load.counts.operations} operations`);

    log('every node back; moving the clock on until all that is due has happened');
    // Read the database the nodes use now (after a failover, the promoted standby).
    pool = createPool(cluster.databaseUrl, 3, 'tessera-cluster-check');
    for (const node of cluster.nodes) {
      if (node.state === 'paused') cluster.resume(node.name);
      if (node.state === 'down') await cluster.startNode(node.name);
    }
    // Eight days cover ACH files, settlement dates, returns two business days later (past a weekend) and a weekly
    // installment; then a day at a time while a webhook delivery still waits for a retry.
    for (let day = 0; day < 30; day++) {
      await advance(86_400);
      await quiet(pool, 120_000);
      if (day >= 7 && (await waitingDeliveries(pool)) === 0) break;
    }
    // Whatever Adyen still has to notify arrives, and what it settles runs, before the check.
    await adyen.notifier.settled();
    await quiet(pool, 120_000);
    if (sftp) {
      await sftp.resume();
      // One more collection after the bank's last answers, then the server's side is checked.
      await advance(86_400);
      await quiet(pool, 120_000);
      sftpReport.violations.push(...(await checkBankServer(pool, bank!)));
    }
    log('quiet; checking');
    const snapshot = await takeSnapshot(pool, { endpoints, received: hits });
    const recorded = readHistory(options.historyFile);
    const violations = check(recorded, snapshot);
    if (options.upgradeFrom) {
      violations.push(...clientFailures(recorded));
      const behind = cluster.nodes.filter((node) => node.bin !== undefined).map((node) => node.name);
      if (behind.length > 0) {
        violations.push({ invariant: 'no-failed-request', detail: `not upgraded: ${behind.join(', ')}` });
      }
    }
    return {
      seed: options.seed,
      seconds: options.seconds,
      pgbouncer: options.pgbouncer ?? false,
      standby: options.standby ?? false,
      ...(options.upgradeFrom ? { upgradedFrom: options.upgradeFrom.commit } : {}),
      operations: load.counts,
      faults: injector.counts,
      exited,
      nodeLogs: logDir,
      webhookRequests: hits.length,
      adyen: {
        requests: adyen.requests.length,
        notifications: adyen.notifier.sent.length,
        faults: adyen.faultsMet,
        violations: [...adyen.violations, ...adyen.notifier.violations],
      },
      ...(sftp ? { sftp: sftpReport } : {}),
      transactions: snapshot.transactions.length,
      events: snapshot.events.length,
      violations,
      historyFile: options.historyFile,
    };
  } catch (error) {
    log(`the run failed; the nodes' output is in ${logDir}`);
    throw error;
  } finally {
    await pool?.end();
    await cluster.stop();
    await receiver.close();
    await adyen.stop();
    bankRunning = false;
    await bankLoop;
    await sftp?.stop();
  }
}

/**
 * The bank's server at the end: no temporary file left where the bank takes files, one final file for each file
 * Tessera recorded as delivered (and none it did not), and no delivery waiting on the operator.
 */
async function checkBankServer(pool: pg.Pool, bank: SftpSandboxBank): Promise<string[]> {
  const problems: string[] = [];
  const { final, hidden } = bank.outboundNames();
  if (hidden.length > 0) problems.push(`temporary files left on the bank's server: ${hidden.join(', ')}`);
  const { rows } = await pool.query<{ remote_name: string; state: string }>(
    "SELECT remote_name, state FROM ach_bank_files WHERE direction = 'outbound'",
  );
  const delivered = rows.filter((r) => ['sent', 'accepted', 'rejected'].includes(r.state)).map((r) => r.remote_name);
  const stuck = rows.filter((r) => !['sent', 'accepted', 'rejected', 'expired'].includes(r.state));
  if (stuck.length > 0)
    problems.push(`files not delivered: ${stuck.map((r) => `${r.remote_name} ${r.state}`).join(', ')}`);
  if (JSON.stringify([...delivered].sort()) !== JSON.stringify(final)) {
    problems.push(`the server has ${final.join(', ')}; Tessera delivered ${delivered.sort().join(', ')}`);
  }
  return problems;
}

/** Subscriptions of the merchant, billed every 7 days from now, each on a customer's vaulted card. */
async function subscriptions(load: LoadDriver, m: MerchantLoad, count: number, processorType: string): Promise<void> {
  const config = await load.admin('GET', '/v2/settings/payment-config', undefined, m.token);
  const processor = config.availablePaymentProcessors.find((p: { type: string }) => p.type === processorType).id;
  for (let i = 0; i < count; i++) {
    const { customerId } = await load.admin(
      'POST',
      '/v2/customers',
      {
        firstName: `Subscriber ${i}`,
        paymentMethodsCards: [{ cardNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2035 }],
      },
      m.token,
    );
    const customer = await load.admin('GET', `/v2/customers/${customerId}`, undefined, m.token);
    await load.perform(
      m,
      'subscription.create',
      {
        method: 'POST',
        path: '/sub-api/v1/subscriptions',
        body: {
          customerId,
          paymentMethodId: customer.cards[0].id,
          amount: 10 + i,
          currencyId: 1,
          paymentFrequencyUnit: 1,
          paymentFrequency: 7,
          numberOfPayments: 4,
          transactionType: 2,
          requesterIpAddress: '203.0.113.20',
          paymentProcessorId: processor,
        },
      },
      { amountCents: (10 + i) * 100 },
      (b) => b?.id ?? b?.subscriptionId ?? null,
    );
  }
}

async function waitingDeliveries(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('Pending', 'Scheduled')",
  );
  return rows[0]!.n;
}

/** Waits until nothing is due: no job whose time has come, no webhook delivery waiting for its attempt. */
async function quiet(pool: pg.Pool, timeoutMs: number): Promise<void> {
  const started = Date.now();
  let calm = 0;
  while (Date.now() - started < timeoutMs) {
    try {
      const { rows } = await pool.query<{ jobs: number; deliveries: number }>(
        `WITH now AS (SELECT now() + offset_ms * interval '1 millisecond' AS at FROM clock_state)
         SELECT (SELECT count(*)::int FROM jobs, now WHERE failed_at IS NULL AND run_at <= now.at) AS jobs,
                (SELECT count(*)::int FROM webhook_deliveries, now
                   WHERE status IN ('Pending', 'Scheduled') AND next_attempt_at <= now.at) AS deliveries`,
      );
      calm = rows[0]!.jobs === 0 && rows[0]!.deliveries === 0 ? calm + 1 : 0;
      if (calm >= 3) return;
    } catch {
      calm = 0;
    }
    await sleep(500);
  }
}
