import { hostname } from 'node:os';
import type { SharedClock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Listener } from '../../platform/db/listener.js';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/observability/logger.js';
import { annotate, inSpan, SpanKind } from '../../platform/observability/tracing.js';
import { serialized } from '../../platform/serialized.js';
import { type AttemptDeps, attemptDelivery } from './delivery-attempt.js';
import { type AttemptRecord, type ClaimedDelivery, claimDue, recordAttempts, releaseLeases } from './webhooks.repo.js';

export const WEBHOOKS_CHANNEL = 'tessera_webhooks';

export interface DispatcherOptions {
  concurrency: number;
  perEndpoint: number;
  /** How long a claimed delivery stays leased to this worker; must outlive an attempt's timeout. */
  leaseMs: number;
  /** An attempt's own timeout: a ready delivery is sent only while its lease can outlive one more attempt. */
  attemptTimeoutMs: number;
  /** Told of each automatic attempt and how late it started against when it was due (metrics). */
  observer?: { attempt(record: AttemptRecord, lateSeconds: number): void };
}

/** Room for writing an attempt's outcome after it ends, inside the lease. */
const OUTCOME_WRITE_MARGIN_MS = 5000;

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
  /**
   * Leased and waiting for a free slot, in claim order: the next claim runs while these are sent, so a slot that
   * frees takes its next delivery at once instead of after a claim's round trip. At most `perEndpoint` of an
   * endpoint wait here, so each normally starts within one attempt's timeout of its claim; one whose lease could no
   * longer outlive its attempt is handed back instead of sent.
   */
  private ready: Array<{ delivery: ClaimedDelivery; leasedAt: number }> = [];
  private readonly readyByEndpoint = new Map<string, number>();
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
    const unsent = this.ready.splice(0).map(({ delivery }) => delivery.id);
    this.readyByEndpoint.clear();
    // Handed back for another worker now rather than when their leases run out.
    await releaseLeases(this.pool, unsent, this.workerId).catch((error) =>
      this.logger.error({ err: error, count: unsent.length }, 'webhook dispatcher: could not release leases'),
    );
  }

  /**
   * Attempts every delivery that is due now until none is left (and the attempts this process already had in flight
   * have finished and are written); answers how many it attempted. For tests and tools: advance the clock, drain,
   * assert. A failed attempt is rescheduled for its retry time and not attempted again here.
   */
  async drain(maxAttempts = 10_000): Promise<number> {
    let attempted = 0;
    for (;;) {
      const waiting = this.ready.splice(0).map(({ delivery }) => delivery);
      this.readyByEndpoint.clear();
      const claimed =
        waiting.length > 0
          ? waiting
          : await claimDue(this.pool, {
              now: this.deps.clock.now(),
              limit: 100,
              lockedBy: this.workerId,
              leaseMs: this.options.leaseMs,
              // A drain runs every claimed attempt at once, whatever their endpoints.
              perEndpoint: 100,
              busy: new Map(),
            });
      if (claimed.length === 0) {
        // A claim pass woken by a NOTIFY may hold leases it has not handed to a slot yet: what it leased is due now.
        if (this.pumping) {
          await this.pumping;
          continue;
        }
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

  /** The claim pass running now, if any: a drain waits for what it leases. */
  private pumping: Promise<void> | undefined;
  private readonly pumpOnce = serialized(() => {
    const pumped = this.pump().finally(() => {
      if (this.pumping === pumped) this.pumping = undefined;
    });
    this.pumping = pumped;
    return pumped;
  });

  private async pump(): Promise<void> {
    try {
      this.dispatch();
      // Claims keep the slots and the ready queue full: up to twice the slots leased, per endpoint and in all.
      while (!this.stopping && this.inFlight + this.ready.length < 2 * this.options.concurrency) {
        const held = new Map(this.inFlightByEndpoint);
        for (const [id, n] of this.readyByEndpoint) held.set(id, (held.get(id) ?? 0) + n);
        const claimed = await claimDue(this.pool, {
          now: this.deps.clock.now(),
          limit: Math.min(100, 2 * this.options.concurrency - this.inFlight - this.ready.length),
          lockedBy: this.workerId,
          leaseMs: this.options.leaseMs,
          perEndpoint: 2 * this.options.perEndpoint,
          busy: held,
        });
        if (claimed.length === 0) return;
        if (this.stopping) {
          await releaseLeases(
            this.pool,
            claimed.map((delivery) => delivery.id),
            this.workerId,
          );
          return;
        }
        const leasedAt = Date.now();
        for (const delivery of claimed) {
          this.ready.push({ delivery, leasedAt });
          this.readyByEndpoint.set(delivery.endpoint_id, (this.readyByEndpoint.get(delivery.endpoint_id) ?? 0) + 1);
        }
        this.dispatch();
      }
    } catch (error) {
      this.logger.error({ err: error }, 'webhook dispatcher: claim failed');
    }
  }

  /** Starts ready deliveries while there are free slots, in claim order, skipping endpoints at their share. */
  private dispatch(): void {
    if (this.stopping || this.ready.length === 0) return;
    const waiting: typeof this.ready = [];
    const expiring: string[] = [];
    const sendBy = Date.now() - (this.options.leaseMs - this.options.attemptTimeoutMs - OUTCOME_WRITE_MARGIN_MS);
    // In claim order, so the oldest lease is first: with no free slot and nothing expiring, nothing to do.
    if (this.inFlight >= this.options.concurrency && this.ready[0]!.leasedAt >= sendBy) return;
    for (const entry of this.ready) {
      const { delivery } = entry;
      const busy = this.inFlightByEndpoint.get(delivery.endpoint_id) ?? 0;
      if (entry.leasedAt >= sendBy && (this.inFlight >= this.options.concurrency || busy >= this.options.perEndpoint)) {
        waiting.push(entry);
        continue;
      }
      const left = (this.readyByEndpoint.get(delivery.endpoint_id) ?? 1) - 1;
      if (left <= 0) this.readyByEndpoint.delete(delivery.endpoint_id);
      else this.readyByEndpoint.set(delivery.endpoint_id, left);
      if (entry.leasedAt < sendBy) {
        expiring.push(delivery.id);
        continue;
      }
      this.inFlightByEndpoint.set(delivery.endpoint_id, busy + 1);
      this.inFlight++;
      void this.run(delivery);
    }
    this.ready = waiting;
    if (expiring.length > 0) {
      // Claimed again by the next pass (this worker's or another's), with a fresh lease.
      void releaseLeases(this.pool, expiring, this.workerId).catch((error) =>
        this.logger.error({ err: error, count: expiring.length }, 'webhook dispatcher: could not release leases'),
      );
    }
  }

  private async run(delivery: ClaimedDelivery): Promise<void> {
    try {
      const dueMs = delivery.next_attempt_at?.getTime();
      const lateSeconds = dueMs === undefined ? 0 : Math.max(0, this.deps.clock.nowMs() - dueMs) / 1000;
      const record = await inSpan(
        'webhook attempt',
        {
          'tessera.webhook.delivery_id': delivery.id,
          'tessera.webhook.endpoint_id': delivery.endpoint_id,
          'tessera.webhook.event_type': delivery.event_type,
          'tessera.webhook.attempt': delivery.attempts + 1,
        },
        async (span) => {
          const attempted = await attemptDelivery(this.deps, delivery, 'automatic');
          annotate(span, {
            'http.response.status_code': attempted.responseStatusCode ?? undefined,
            'tessera.webhook.delivered': attempted.logStatus === 'Success',
          });
          return attempted;
        },
        SpanKind.CLIENT,
      );
      this.options.observer?.attempt(record, lateSeconds);
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
      // The slot is free now: the next ready delivery takes it, and a claim refills the queue (its delivery stays
      // leased until its outcome is written, so that claim need not wait for the write).
      this.dispatch();
      this.wake();
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
