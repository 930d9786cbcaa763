// A Tessera deployment on this machine for the cluster test: one PostgreSQL (its own embedded one, durable, so an
// immediate-mode crash can be recovered; or CLUSTER_DATABASE_URL), `serve` and `worker` processes started as an
// operator would (the bundle `npm start` runs), and the hands of the fault injector: SIGKILL and restart, SIGSTOP and
// SIGCONT, a PostgreSQL crash.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/db/embedded.js';
import { migrate } from '../../src/platform/db/migrator.js';
import { createClient } from '../../src/platform/db/pool.js';
import { freePort } from '../../src/platform/net.js';
import { type Proc, tessera, waitForLog } from '../e2e/tessera-process.js';
import { type PgBouncer, startPgBouncer } from './pgbouncer.js';
import { promote, requireSynchronousStandby, startStandby, waitForCatchUp } from './standby.js';

export interface ClusterNode {
  name: string;
  kind: 'serve' | 'worker';
  port: number | null;
  proc: Proc | undefined;
  state: 'up' | 'down' | 'paused';
  /** Another build's `bin/tessera.js` this node runs (a rolling upgrade); default this checkout's bundle. */
  bin?: string;
}

export interface ClusterOptions {
  serve: number;
  workers: number;
  /** Settings every node shares (leases, timeouts, sandbox latency). */
  env: Record<string, string>;
  /** Where each node's output goes (`<name>.log`, across its restarts). */
  logDir: string;
  /**
   * Put PgBouncer in transaction pooling mode between the nodes and PostgreSQL: the nodes' DATABASE_URL goes through
   * it, LISTEN and the liveness and migration locks use DATABASE_DIRECT_URL, and statements are sent unnamed.
   */
  pgbouncer?: boolean;
  /** Extra PostgreSQL settings (e.g. the capacity benchmark's pg_stat_statements). */
  postgresSettings?: Record<string, string>;
  /** A synchronous streaming standby of the embedded PostgreSQL, for `failover()`. */
  standby?: boolean;
  /**
   * Told when a process exits without being killed by the injector. Such a process is started again a second later,
   * as a supervisor (systemd's Restart=always) would.
   */
  onUnexpectedExit?: (name: string, code: number | null, signal: string | null) => void;
  /**
   * Every node starts from this build's `bin/tessera.js` (the previous release, for a rolling upgrade), and the
   * database is left for those nodes to migrate.
   */
  bin?: string;
}

/** What a start has brought up so far, for stopping it when the start fails. */
interface Parts {
  db?: EmbeddedDatabase;
  standby?: EmbeddedDatabase;
  bouncer?: PgBouncer;
  cluster?: Cluster;
}

export class Cluster {
  readonly nodes: ClusterNode[] = [];
  private stopped = false;
  private standby: EmbeddedDatabase | undefined;

  private constructor(
    /** The primary PostgreSQL's direct URL (after a failover: the promoted standby's). */
    public databaseUrl: string,
    private db: EmbeddedDatabase | undefined,
    private readonly dataDir: string,
    private readonly options: ClusterOptions,
    readonly publicBaseUrl: string,
    private bouncer: PgBouncer | undefined,
  ) {
    mkdirSync(options.logDir, { recursive: true });
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    // The bundle is what runs; the build leaves a current one alone.
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cluster-'));
    const parts: Parts = {};
    try {
      return await Cluster.assemble(options, dataDir, parts);
    } catch (error) {
      // Nothing started for a run that failed to start outlives it: not a process, not a port, not a directory.
      await parts.cluster?.stop().catch(() => {});
      if (!parts.cluster) {
        await parts.bouncer?.stop().catch(() => {});
        await parts.standby?.stop().catch(() => {});
        await parts.db?.stop().catch(() => {});
        rmSync(dataDir, { recursive: true, force: true });
      }
      throw error;
    }
  }

  private static async assemble(options: ClusterOptions, dataDir: string, parts: Parts): Promise<Cluster> {
    let db: EmbeddedDatabase | undefined;
    let url = process.env.CLUSTER_DATABASE_URL;
    if (url) url = await freshDatabase(url);
    else {
      // Durable (fsync on): a crash in immediate mode must lose nothing that was committed.
      db = await startEmbeddedPostgres({
        dataDir,
        database: 'tessera',
        settings: { max_connections: '400', ...options.postgresSettings },
      });
      parts.db = db;
      url = db.url;
    }
    // The nodes of another build migrate the database themselves, to their own version.
    if (!options.bin) await migrate(url);
    let standby: EmbeddedDatabase | undefined;
    if (options.standby && db) {
      standby = await startStandby(url, dataDir, path.join(dataDir, 'standby'), {
        max_connections: '400',
        ...options.postgresSettings,
      });
      parts.standby = standby;
      await requireSynchronousStandby(url);
      await waitForCatchUp(url);
    }
    let bouncer: PgBouncer | undefined;
    if (options.pgbouncer) bouncer = await startPgBouncer(url, path.join(dataDir, 'pgbouncer'));
    parts.bouncer = bouncer;
    const ports = await Promise.all(Array.from({ length: options.serve }, () => freePort()));
    const publicBaseUrl = `http://127.0.0.1:${ports[0]}`;
    const cluster = new Cluster(url, db, dataDir, options, publicBaseUrl, bouncer);
    cluster.standby = standby;
    parts.cluster = cluster;
    ports.forEach((port, i) => {
      cluster.nodes.push({
        name: `serve-${i + 1}`,
        kind: 'serve',
        port,
        proc: undefined,
        state: 'down',
        bin: options.bin,
      });
    });
    for (let i = 0; i < options.workers; i++) {
      cluster.nodes.push({
        name: `worker-${i + 1}`,
        kind: 'worker',
        port: null,
        proc: undefined,
        state: 'down',
        bin: options.bin,
      });
    }
    await Promise.all(cluster.nodes.map((node) => cluster.startNode(node.name)));
    return cluster;
  }

  node(name: string): ClusterNode {
    const found = this.nodes.find((n) => n.name === name);
    if (!found) throw new Error(`no node ${name}`);
    return found;
  }

  /**
   * Starts the node's process, and starts it again when it exits during start-up (PostgreSQL down at that moment, as
   * a process supervisor would): up to `attempts` times.
   */
  async startNode(name: string, attempts = 10): Promise<void> {
    // One start at a time per node: a supervisor's restart and the run's own may ask together.
    const running = this.starting.get(name);
    if (running) return running;
    const start = this.startWithRetries(name, attempts).finally(() => this.starting.delete(name));
    this.starting.set(name, start);
    return start;
  }

  private readonly starting = new Map<string, Promise<void>>();

  private async startWithRetries(name: string, attempts: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (this.stopped) throw new Error(`the cluster stopped while ${name} was starting`);
      try {
        await this.spawnNode(name);
        return;
      } catch (error) {
        if (attempt >= attempts) throw error;
        // Another process took the port meanwhile: this node listens elsewhere (the public address is a setting).
        const node = this.node(name);
        if (node.kind === 'serve' && String(error).includes('EADDRINUSE')) node.port = await freePort();
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async spawnNode(name: string): Promise<void> {
    const node = this.node(name);
    const env: Record<string, string> = {
      ...this.options.env,
      DATABASE_URL: this.databaseUrl,
      ...(this.bouncer
        ? {
            DATABASE_URL: this.bouncer.url,
            DATABASE_DIRECT_URL: this.databaseUrl,
            DATABASE_PREPARED_STATEMENTS: 'false',
          }
        : {}),
      SANDBOX_DEMO_DATA: 'false',
      PUBLIC_BASE_URL: this.publicBaseUrl,
      DATA_DIR: path.join(this.dataDir, name),
      LOG_LEVEL: 'info',
    };
    const from = node.bin ? { bin: node.bin } : 'bundle';
    const proc =
      node.kind === 'serve'
        ? tessera(['serve'], { ...env, PORT: String(node.port), WORKERS: '0' }, from)
        : tessera(['worker'], { ...env, WORKERS: env.WORKERS ?? '4' }, from);
    node.proc = proc;
    const logFile = path.join(this.options.logDir, `${name}.log`);
    appendFileSync(logFile, `--- started pid ${proc.child.pid} at ${new Date().toISOString()}\n`);
    const keep = (chunk: Buffer) => {
      appendFileSync(logFile, chunk);
      if (proc.output.length > 1000) proc.output.splice(0, proc.output.length - 100);
    };
    proc.child.stdout!.on('data', keep);
    proc.child.stderr!.on('data', keep);
    proc.child.on('exit', (code, signal) => {
      appendFileSync(logFile, `--- exited ${code ?? signal} at ${new Date().toISOString()}\n`);
      // Killed by the injector, the node is already marked down; anything else is the process's own doing.
      if (node.proc === proc && node.state !== 'down') {
        node.state = 'down';
        this.options.onUnexpectedExit?.(name, code, signal);
        setTimeout(() => {
          if (!this.stopped && node.proc === proc) this.startNode(name).catch(() => {});
        }, 1000);
      }
    });
    try {
      await waitForLog(proc, node.kind === 'serve' ? 'tessera listening' : 'tessera worker running', 60_000);
    } catch (error) {
      // A process too slow to start is not left behind holding the port the next attempt needs.
      node.state = 'down';
      proc.child.kill('SIGKILL');
      await proc.exited;
      throw error;
    }
    // What was kept in memory to find the start line is in the log file now; memory keeps only what comes next.
    proc.output.length = 0;
    node.state = 'up';
  }

  /**
   * One step of a rolling upgrade: the node leaves the load balancer (no new requests reach it), stops gracefully
   * (SIGTERM: requests in flight finish, jobs are handed back), and starts again from `bin` (undefined: this
   * checkout's bundle).
   */
  async upgrade(name: string, bin: string | undefined): Promise<void> {
    const node = this.node(name);
    const proc = node.proc;
    node.state = 'down';
    proc?.child.kill('SIGTERM');
    const code = await proc?.exited;
    if (code !== 0 && code !== undefined) throw new Error(`${name} did not stop cleanly on SIGTERM (exit ${code})`);
    node.bin = bin;
    await this.startNode(name);
  }

  /** SIGKILL: the process dies at once, mid-request or mid-job. */
  kill(name: string): void {
    const node = this.node(name);
    if (node.state === 'paused') node.proc?.child.kill('SIGCONT');
    node.proc?.child.kill('SIGKILL');
    node.state = 'down';
  }

  /** SIGSTOP: the process stops answering but keeps its connections (and locks) open, as a hung node does. */
  pause(name: string): void {
    const node = this.node(name);
    node.proc?.child.kill('SIGSTOP');
    node.state = 'paused';
  }

  resume(name: string): void {
    const node = this.node(name);
    node.proc?.child.kill('SIGCONT');
    node.state = 'up';
  }

  /** Serve nodes that answer now, as base URLs. */
  liveServeUrls(): Array<{ name: string; url: string }> {
    return this.nodes
      .filter((n) => n.kind === 'serve' && n.state === 'up')
      .map((n) => ({ name: n.name, url: `http://127.0.0.1:${n.port}` }));
  }

  /** The URL the nodes' pools use: PgBouncer's when it is in between. */
  get poolUrl(): string {
    return this.bouncer?.url ?? this.databaseUrl;
  }

  /** The postmaster's process id, when the cluster runs its own PostgreSQL. */
  get postgresPid(): number | undefined {
    return this.db?.pid;
  }

  get canFailover(): boolean {
    return this.standby !== undefined;
  }

  /**
   * The primary dies (immediate shutdown), the standby is promoted, and every node is pointed at it: one DSN change,
   * each process restarted with it (PgBouncer, when in between, is replaced by one in front of the new primary).
   */
  async failover(): Promise<void> {
    const standby = this.standby;
    if (!standby) return;
    await this.db?.crash?.();
    await promote(standby.url);
    const old = this.db;
    this.db = standby;
    this.standby = undefined;
    this.databaseUrl = standby.url;
    if (this.bouncer) {
      await this.bouncer.stop();
      this.bouncer = await startPgBouncer(standby.url, path.join(this.dataDir, 'pgbouncer-promoted'));
    }
    await old?.stop();
    for (const node of this.nodes) if (node.state !== 'down') this.kill(node.name);
    await Promise.all(this.nodes.map((node) => this.startNode(node.name)));
  }

  get canCrashPostgres(): boolean {
    return this.db?.crash !== undefined;
  }

  /** PostgreSQL stops in immediate mode (no checkpoint: recovery replays the WAL at the next start). */
  async crashPostgres(): Promise<void> {
    await this.db?.crash?.();
  }

  /** Starts the crashed PostgreSQL again on the same port, so every node reconnects to the address it knows. */
  async restartPostgres(): Promise<void> {
    if (!this.db) return;
    const restarted = await startEmbeddedPostgres({
      dataDir: this.dataDir,
      database: 'tessera',
      port: this.db.port,
      settings: { max_connections: '400', ...this.options.postgresSettings },
    });
    Object.assign(this.db, restarted);
  }

  /** Where the nodes' output is. */
  get logDir(): string {
    return this.options.logDir;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const node of this.nodes) {
      if (node.state === 'paused') node.proc?.child.kill('SIGCONT');
      node.state = 'down';
      node.proc?.child.kill('SIGKILL');
    }
    await Promise.all(this.nodes.map((n) => n.proc?.exited));
    await this.bouncer?.stop();
    await this.standby?.stop();
    await this.db?.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A database of its own on the given server (its role needs CREATEDB). */
async function freshDatabase(serverUrl: string): Promise<string> {
  const name = `tessera_cluster_${Date.now().toString(36)}`;
  const client = createClient(serverUrl, 'tessera-cluster');
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
