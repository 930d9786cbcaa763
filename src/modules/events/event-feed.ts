import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/observability/logger.js';
import {
  currentSnapshot,
  type MerchantRead,
  type ReadPosition,
  readEvents,
  type StreamedEvent,
} from './event-stream.repo.js';

/** What one read of the feed found for a merchant: events visible in `to`, in order; `complete` when it read them all. */
export interface FeedBatch {
  to: string;
  events: StreamedEvent[];
  complete: boolean;
}

export interface FeedSubscriber {
  batch(batch: FeedBatch): void;
  /** The feed cannot read any more (the database went away): the stream ends, and its client resumes elsewhere. */
  end(): void;
}

interface Channel {
  position: ReadPosition;
  subscribers: Set<FeedSubscriber>;
}

/**
 * One reader per node for every event stream it serves: each merchant with a stream open here is a channel with its
 * own position, and one statement a tick (every `pollMs`) reads every channel's new events, which each stream of the
 * merchant filters for itself. Idle streams cost nothing but their socket: the statement is the same for one stream
 * or two thousand. Nothing here is shared between nodes: a stream can resume on any node from its own position.
 */
export class EventFeed {
  private readonly channels = new Map<string, Channel>();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    private readonly options: { pollMs: number; batch: number },
  ) {}

  /** Streams open on this node, by merchant (for the metrics and the tests). */
  get size(): number {
    let n = 0;
    for (const channel of this.channels.values()) n += channel.subscribers.size;
    return n;
  }

  /**
   * Adds a stream of the merchant. Once this resolves, every batch the stream receives comes from a position taken
   * before this call returned, so a stream that takes its own starting snapshot afterwards misses nothing.
   */
  async subscribe(merchantId: string, subscriber: FeedSubscriber): Promise<() => void> {
    let channel = this.channels.get(merchantId);
    if (!channel) {
      const position = { from: await currentSnapshot(this.pool), to: null, seq: 0 };
      // Another stream of the merchant may have opened the channel meanwhile: its position is as good.
      channel = this.channels.get(merchantId) ?? { position, subscribers: new Set() };
      this.channels.set(merchantId, channel);
    }
    channel.subscribers.add(subscriber);
    this.schedule();
    return () => {
      channel.subscribers.delete(subscriber);
      if (channel.subscribers.size === 0 && this.channels.get(merchantId) === channel) this.channels.delete(merchantId);
    };
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const channel of this.channels.values()) for (const subscriber of channel.subscribers) subscriber.end();
    this.channels.clear();
  }

  private schedule(): void {
    if (this.timer || this.stopped || this.channels.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read().finally(() => this.schedule());
    }, this.options.pollMs);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    if (this.reading || this.channels.size === 0) return;
    this.reading = true;
    const channels = [...this.channels];
    const reads: MerchantRead[] = channels.map(([merchantId, channel]) => ({ merchantId, position: channel.position }));
    try {
      const { now, events } = await readEvents(this.pool, reads, this.options.batch);
      for (const [merchantId, channel] of channels) {
        const found = events.get(merchantId) ?? [];
        const complete = found.length < this.options.batch;
        const to = channel.position.to ?? now;
        channel.position = complete
          ? { from: to, to: null, seq: 0 }
          : { from: channel.position.from, to, seq: found.at(-1)!.seq };
        // Every stream hears of every read, also an empty one: it tells the stream where it now stands.
        for (const subscriber of channel.subscribers) subscriber.batch({ to, events: found, complete });
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'event feed: read failed; its streams end and their clients resume');
      for (const [merchantId, channel] of channels) {
        for (const subscriber of channel.subscribers) subscriber.end();
        if (this.channels.get(merchantId) === channel) this.channels.delete(merchantId);
      }
    } finally {
      this.reading = false;
    }
  }
}
