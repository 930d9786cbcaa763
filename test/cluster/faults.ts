// The cluster test's fault injector: a schedule drawn from the seed, carried out while the load runs and written to
// the history. SIGKILL of serve and worker nodes (restarted after a delay), SIGSTOP of a node for longer than any
// lease, PostgreSQL crashing in immediate mode, and the business clock moving forward.

import { pick, type Random } from '../random.js';
import type { Cluster } from './cluster.js';
import type { FaultRecord, HistoryWriter } from './history.js';

export interface FaultPlan {
  atMs: number;
  kind: 'kill-serve' | 'kill-worker' | 'pause' | 'postgres' | 'clock' | 'failover' | 'latency';
}

export interface FaultOptions {
  durationMs: number;
  /** How long a paused node stays stopped: longer than any lease it holds. */
  pauseMs: number;
  postgres: boolean;
  /** Kill the primary and promote the standby, once, instead of crashing PostgreSQL. */
  failover?: boolean;
}

/** The schedule: every kind at least once, the rest drawn by the seed, spread over the run (none in its last 10%). */
export function planFaults(random: Random, options: FaultOptions): FaultPlan[] {
  const kinds: FaultPlan['kind'][] = ['kill-serve', 'kill-worker', 'pause', 'latency', 'clock', 'clock'];
  if (options.failover) kinds.push('failover');
  else if (options.postgres) kinds.push('postgres');
  const extra = Math.max(0, Math.floor(options.durationMs / 15_000) - kinds.length);
  for (let i = 0; i < extra; i++) {
    kinds.push(pick(random, ['kill-serve', 'kill-worker', 'clock', 'pause', 'latency'] as const));
  }
  const window = options.durationMs * 0.85;
  return kinds
    .map((kind, i) => ({ kind, atMs: Math.floor(((i + random() * 0.8) / kinds.length) * window) }))
    .sort((a, b) => a.atMs - b.atMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class FaultInjector {
  readonly counts: Record<Exclude<FaultRecord['kind'], 'exited' | 'upgrade'>, number> = {
    sigkill: 0,
    restart: 0,
    sigstop: 0,
    sigcont: 0,
    'pg-crash': 0,
    'pg-restart': 0,
    'clock-advance': 0,
    latency: 0,
    'injector-error': 0,
    failover: 0,
  };
  private readonly pending: Promise<unknown>[] = [];

  constructor(
    private readonly cluster: Cluster,
    private readonly history: HistoryWriter,
    private readonly random: Random,
    private readonly advanceClock: (seconds: number) => Promise<void>,
    /** An operator API call on any live node. */
    private readonly admin: (method: string, path: string, body: unknown) => Promise<unknown>,
    private readonly options: FaultOptions,
  ) {}

  private record(kind: Exclude<FaultRecord['kind'], 'exited' | 'upgrade'>, target: string, detail?: string): void {
    this.counts[kind]++;
    this.history.write({ t: 'fault', at: Date.now(), kind, target, ...(detail ? { detail } : {}) });
  }

  /** Carries out the plan from `start`; resolves when every fault and its recovery is done. */
  async run(plan: FaultPlan[], start: number): Promise<void> {
    for (const fault of plan) {
      await sleep(Math.max(0, start + fault.atMs - Date.now()));
      this.pending.push(
        this.inject(fault).catch((error) => this.record('injector-error', fault.kind, String(error).slice(0, 2000))),
      );
    }
    await Promise.all(this.pending);
  }

  private async inject(fault: FaultPlan): Promise<void> {
    const up = (kind: 'serve' | 'worker') => this.cluster.nodes.filter((n) => n.kind === kind && n.state === 'up');
    switch (fault.kind) {
      case 'kill-serve': {
        const candidates = up('serve');
        if (candidates.length < 2) return; // one node always answers
        const node = pick(this.random, candidates);
        this.cluster.kill(node.name);
        this.record('sigkill', node.name);
        await sleep(1000 + Math.floor(this.random() * 3000));
        await this.cluster.startNode(node.name);
        this.record('restart', node.name);
        return;
      }
      case 'kill-worker': {
        const candidates = up('worker');
        if (candidates.length === 0) return;
        const node = pick(this.random, candidates);
        this.cluster.kill(node.name);
        this.record('sigkill', node.name);
        await sleep(1000 + Math.floor(this.random() * 3000));
        await this.cluster.startNode(node.name);
        this.record('restart', node.name);
        return;
      }
      case 'pause': {
        const candidates = [...up('worker'), ...(up('serve').length > 1 ? up('serve') : [])];
        if (candidates.length === 0) return;
        const node = pick(this.random, candidates);
        this.cluster.pause(node.name);
        this.record('sigstop', node.name, `${this.options.pauseMs} ms`);
        await sleep(this.options.pauseMs);
        this.cluster.resume(node.name);
        this.record('sigcont', node.name);
        return;
      }
      case 'postgres': {
        await this.cluster.crashPostgres();
        this.record('pg-crash', 'postgres', 'immediate');
        await sleep(1000 + Math.floor(this.random() * 1000));
        await this.cluster.restartPostgres();
        this.record('pg-restart', 'postgres');
        return;
      }
      case 'failover': {
        await this.cluster.failover();
        this.record('failover', 'postgres', 'primary killed, standby promoted, every node pointed at it');
        return;
      }
      case 'latency': {
        // Beyond the connector's 30 s deadline: calls that start in these seconds time out, their outcome unknown
        // until the reconciler asks the network.
        const extraLatencyMs = 35_000;
        await this.admin('POST', '/admin/v1/sandbox/card-network', { extraLatencyMs, seconds: 4 });
        this.record('latency', 'card-network', `${extraLatencyMs} ms for 4 s`);
        return;
      }
      case 'clock': {
        const seconds = 3600 * (1 + Math.floor(this.random() * 12));
        await this.advanceClock(seconds);
        this.record('clock-advance', 'clock', `${seconds} s`);
        return;
      }
    }
  }
}
