import { hostname } from 'node:os';
import type { SharedClock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Listener } from '../../platform/db/listener.js';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/observability/logger.js';
import { serialized } from '../../platform/serialized.js';
import { type AttemptDeps, attemptDelivery } from './delivery-attempt.js';
import { type AttemptRecord, type ClaimedDelivery, claimDue, recordAttempts, releaseLeases } from './webhooks.repo.js';

export const WEBHOOKS_CHANNEL = 'tessera_webhooks';

export interface DispatcherOptions {
  concurrency: number;
  perEndpoint: number;
  /** How long a claimed delivery stays leased to this worker; must outlive an attempt's timeout. */
  leaseMs: number;
}

/**
 * Delivers webhook messages from a worker process. Claims due deliveries (woken by the fan-out trigger's NOTIFY, a
 * clock advance, or a 1 s poll for retries coming due), keeps up to `concurrency` attempts in flight and at most
 * `perEndpoint` per endpoint, so one slow receiver cannot hold up the others. Finished attempts are written in
 * batches (one statement for the delivery updates and log rows). A worker that dies loses only its leases: the
 * deliveries become claimable again when the lease ends, so every message is delivered at least once.
 */
export class WebhookDispatcher {
  private readonly workerId = `webhooks:${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private readonly inFlightByEndpoint = new Map<string, number>();
  private inFlight = 0;
  private started = false;
  private stopping = false;
  private poller: NodeJS.Timeout | undefined;
  private finished: AttemptRecord[] = [];
  private flushing: Promise<void> | undefined;
  private idle: Array<() => void> = [];
  /** Waiting for the attempts in flight now to finish (drain). */
  private quiet: Array<() => void> = [];

  constructor(
    private readonly pool: Pool,
    private readonly deps: AttemptDeps,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  start(listener: Listener, sharedClock?: SharedClock): void {
    if (this.started) return;
    this.started = true;
    const wake = () => this.wake();
    listener.on(WEBHOOKS_CHANNEL, wake, wake);
    sharedClock?.onAdvance(wake);
    this.poller = setInterval(wake, 1000);
    this.poller.unref();
    this.wake();
  }

  /** Stops claiming, waits (bounded) for attempts in flight and writes their outcomes. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.poller);
    if (this.inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => this.idle.push(resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref()),
      ]);
    }
    await this.flush();
  }

  /**
   * Attempts every delivery that is due now until none is left (and the attempts this process already had in flight
   * have finished and are written); answers how many it attempted. For tests and tools: advance the clock, drain,
   * assert. A failed attempt is rescheduled for its retry time and not attempted again here.
   */
  async drain(maxAttempts = 10_000): Promise<number> {
    let attempted = 0;
    for (;;) {
      const claimed = await claimDue(this.pool, {
        now: this.deps.clock.now(),
        limit: 100,
        lockedBy: this.workerId,
        leaseMs: this.options.leaseMs,
        skipEndpoints: [],
      });
      if (claimed.length === 0) {
        if (this.inFlight > 0) {
          await new Promise<void>((resolve) => this.quiet.push(resolve));
          continue;
        }
        await this.flush();
        return attempted;
      }
      for (const delivery of claimed) {
        this.inFlightByEndpoint.set(delivery.endpoint_id, (this.inFlightByEndpoint.get(delivery.endpoint_id) ?? 0) + 1);
        this.inFlight++;
      }
      await Promise.all(claimed.map((delivery) => this.run(delivery)));
      await this.flush();
      attempted += claimed.length;
      if (attempted > maxAttempts) throw new Error(`drain made more than ${maxAttempts} attempts`);
    }
  }

  wake(): void {
    if (this.stopping || !this.started) return;
    this.pumpOnce();
  }

  private readonly pumpOnce = serialized(() => this.pump());

  private async pump(): Promise<void> {
    try {
      while (!this.stopping && this.inFlight < this.options.concurrency) {
        const saturated = [...this.inFlightByEndpoint]
          .filter(([, n]) => n >= this.options.perEndpoint)
          .map(([id]) => id);
        const claimed = await claimDue(this.pool, {
          now: this.deps.clock.now(),
          limit: Math.min(100, this.options.concurrency - this.inFlight),
          lockedBy: this.workerId,
          leaseMs: this.options.leaseMs,
          skipEndpoints: saturated,
        });
        if (claimed.length === 0) return;
        const surplus: string[] = [];
        for (const delivery of claimed) {
          const busy = this.inFlightByEndpoint.get(delivery.endpoint_id) ?? 0;
          if (busy >= this.options.perEndpoint) {
            surplus.push(delivery.id);
            continue;
          }
          this.inFlightByEndpoint.set(delivery.endpoint_id, busy + 1);
          this.inFlight++;
          void this.run(delivery);
        }
        // Claimed in the same batch beyond an endpoint's share: hand back at once for this or another worker.
        await releaseLeases(this.pool, surplus, this.workerId);
        if (surplus.length > 0 && surplus.length === claimed.length) return;
      }
    } catch (error) {
      this.logger.error({ err: error }, 'webhook dispatcher: claim failed');
    }
  }

  private async run(delivery: ClaimedDelivery): Promise<void> {
    try {
      const record = await attemptDelivery(this.deps, delivery, 'automatic');
      this.finished.push(record);
      this.scheduleFlush();
    } catch (error) {
      // Only a local fault gets here (e.g. a secret this node cannot open): the lease runs out and another node,
      // or this one later, tries again.
      this.logger.error({ err: error, deliveryId: delivery.id }, 'webhook dispatcher: attempt could not run');
    } finally {
      const busy = (this.inFlightByEndpoint.get(delivery.endpoint_id) ?? 1) - 1;
      if (busy <= 0) this.inFlightByEndpoint.delete(delivery.endpoint_id);
      else this.inFlightByEndpoint.set(delivery.endpoint_id, busy);
      this.inFlight--;
      if (this.inFlight === 0) for (const resolve of this.quiet.splice(0)) resolve();
      if (this.inFlight === 0 && this.stopping) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Outcomes finished while a write is running go in the next write, so the writes batch themselves under load. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.finished.length > 0) {
        const batch = this.finished.splice(0, 200);
        try {
          await recordAttempts(this.pool, this.workerId, batch);
        } catch (error) {
          // Not recorded: the leases run out and the deliveries are attempted again (at-least-once).
          this.logger.error({ err: error, count: batch.length }, 'webhook dispatcher: could not record attempts');
        }
      }
    })().finally(() => {
      this.flushing = undefined;
      this.wake();
    });
  }

  private async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.finished.length > 0) {
      this.scheduleFlush();
      await this.flushing;
    }
  }
}
