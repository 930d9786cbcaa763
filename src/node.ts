import { type BuildAppOptions, buildApp } from './app.js';
import type { Config } from './config.js';
import { composeModules } from './modules/compose.js';
import { MODULES } from './modules/index.js';
import type { AppContext, Platform } from './modules/manifest.js';
import { SharedClock, systemClock } from './platform/clock/clock.js';
import { NodeLiveness } from './platform/cluster/node-liveness.js';
import { loadKeyEncryptionKey } from './platform/crypto/kek.js';
import { registerBackupGauges } from './platform/db/backup/backup-metrics.js';
import { deploymentId } from './platform/db/deployment.js';
import { Listener } from './platform/db/listener.js';
import { createPool } from './platform/db/pool.js';
import { registerPartitionGauges } from './platform/db/time-partitions.js';
import { IdempotencyStore } from './platform/http/idempotency.js';
import { RateLimiter } from './platform/http/rate-limit.js';
import { type App, closeGracefully } from './platform/http/server.js';
import { maintenanceHandler, maintenanceSchedule } from './platform/jobs/maintenance.js';
import { registerQueueGauges } from './platform/jobs/queue-metrics.js';
import { JobRunner } from './platform/jobs/runner.js';
import type { Logger } from './platform/observability/logger.js';
import { createMetrics } from './platform/observability/metrics.js';
import { startTracing } from './platform/observability/tracing.js';

export interface Node {
  ctx: AppContext;
  app: App;
  /**
   * This process's node liveness id (what it records on the work it holds; `tessera_node_alive(id)` in SQL). Logged
   * at start, so an operator can tell which process held what.
   */
  nodeId(): number;
  /** The operator token, only when this node just generated it (first sandbox start without ADMIN_TOKEN). */
  generatedAdminToken: string | undefined;
  /** Start background workers (no-op when WORKERS=0). */
  startWorkers(): Promise<void>;
  /**
   * Runs every due job and every due webhook delivery in this process until neither has anything left (a job may
   * record events, whose deliveries then come due). For tests and tools; workers keep running meanwhile.
   */
  drain(): Promise<void>;
  listen(): Promise<string>;
  /** Graceful: stop accepting, finish in-flight requests, stop workers, flush counters, close the pool. */
  stop(): Promise<void>;
}

export interface NodeOptions {
  logger: Logger;
  databaseUrl: string;
  /** The session-capable URL for LISTEN and the liveness lock (default `databaseUrl`). */
  directDatabaseUrl?: string;
  processMetrics?: boolean;
  app?: BuildAppOptions;
}

/**
 * Wires one node against one database: the platform (pool, LISTEN session, liveness, clock, keys), every module of
 * the module list (src/modules/index.ts) built in order, the HTTP app from their routes and the job runner from their
 * queues and schedules.
 */
export async function createNode(config: Config, options: NodeOptions): Promise<Node> {
  const { logger, databaseUrl } = options;
  const pool = createPool(databaseUrl, config.dbPoolSize, 'tessera', {
    preparedStatements: config.databasePreparedStatements,
  });
  const closers: Array<() => Promise<void> | void> = [() => pool.end()];
  try {
    if (config.otlpEndpoint) {
      const stopTracing = await startTracing({
        endpoint: config.otlpEndpoint,
        serviceName: config.otelServiceName,
        attributes: { 'deployment.environment.name': config.env },
      });
      // Last of all: the spans of everything that stops before are flushed with it.
      closers.push(stopTracing);
    }
    const listener = new Listener(options.directDatabaseUrl ?? databaseUrl, (error) =>
      logger.warn({ err: error }, 'notification listener error'),
    );
    const liveness = new NodeLiveness();
    liveness.attach(listener);
    await listener.start();
    const nodeId = () => liveness.id;
    closers.unshift(() => listener.stop());

    const kek = await loadKeyEncryptionKey(config, pool);
    const sharedClock = config.env === 'sandbox' ? new SharedClock(pool) : undefined;
    if (sharedClock) {
      await sharedClock.start(listener);
      closers.unshift(() => sharedClock.stop());
    }
    const metrics = createMetrics({ processMetrics: options.processMetrics ?? false });
    const platform: Platform = {
      config,
      sandbox: config.env === 'sandbox',
      pool,
      databaseUrl,
      clock: sharedClock ?? systemClock,
      sharedClock,
      logger,
      metrics,
      kek,
      listener,
      nodeId,
      deploymentId: await deploymentId(pool),
      onStop: (close) => closers.unshift(close),
    };
    const { clock } = platform;

    const rateLimiter = new RateLimiter(pool, clock, [
      { name: 'minute', windowSeconds: 60, limit: config.rateLimitPerMinute },
      { name: 'burst', windowSeconds: 10, limit: config.rateLimitBurstPer10s },
    ]);
    rateLimiter.start();
    closers.unshift(() => rateLimiter.stop());
    const idempotency = new IdempotencyStore(pool, clock, kek, config.idempotencyRetentionMinutes, nodeId);

    const { services, queues, schedules, workers, purges } = await composeModules(MODULES, platform);
    const jobs = new JobRunner(pool, clock, logger, metrics, config.workers, nodeId, config.jobLeaseSeconds);
    registerQueueGauges(metrics, pool, clock);
    registerPartitionGauges(metrics, pool);
    // BACKUP_DIR is this host's only when the database is the embedded one.
    registerBackupGauges(metrics, pool, config.databaseUrl ? undefined : config.backupDir);
    jobs.register(maintenanceHandler(pool, clock, logger, purges));
    jobs.schedule(maintenanceSchedule);
    for (const queue of queues) jobs.register(queue);
    for (const schedule of schedules) jobs.schedule(schedule);

    const ctx: AppContext = { ...platform, jobs, services };
    const app = await buildApp(
      ctx,
      {
        logger,
        metrics,
        documentationUrl: `${config.publicBaseUrl}/docs`,
        trustProxy: config.trustProxy,
        tokens: services.accessTokens,
        operator: services.operator,
        rateLimiter,
        idempotency,
        requestLog: services.requestLog,
      },
      options.app,
    );

    let stopped = false;
    return {
      ctx,
      app,
      nodeId,
      generatedAdminToken: services.operator.generatedToken,
      async startWorkers() {
        await jobs.start(listener, sharedClock);
        for (const worker of workers) await worker.start();
      },
      async listen() {
        return app.listen({ host: config.host, port: config.port });
      },
      async drain() {
        for (let round = 0; round < 100; round++) {
          let ran = await jobs.drain();
          for (const worker of workers) ran += await worker.drain();
          if (ran === 0) return;
        }
        throw new Error('drain: jobs and deliveries keep coming due');
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await closeGracefully(app);
        await Promise.all([
          jobs.stop(config.shutdownTimeoutMs),
          ...workers.map((worker) => worker.stop(config.shutdownTimeoutMs)),
        ]);
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await Promise.resolve(close()).catch(() => {});
    throw error;
  }
}
