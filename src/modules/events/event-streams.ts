import { randomUUID } from 'node:crypto';
import type { OpaqueCursors } from '../../platform/crypto/opaque-cursors.js';
import type { Pool } from '../../platform/db/pool.js';
import { parseSnapshot } from '../../platform/db/snapshot.js';
import type { EventFeed, FeedBatch } from './event-feed.js';
import {
  currentSnapshot,
  dropStreamLease,
  readEvents,
  type StreamedEvent,
  takeStreamLease,
} from './event-stream.repo.js';
import { isNew, openPosition, type StreamPosition, sealPosition, withSeen } from './stream-position.js';

export interface StreamSink {
  /** An event, with the cursor that resumes right after it. */
  event(event: StreamedEvent, cursor: string): void;
  /** Where the stream stands before its first event (a client cut off before any resumes from there). */
  start(cursor: string): void;
  end(): void;
}

export interface OpenStream {
  close(): Promise<void>;
}

export type OpenOutcome = { kind: 'open'; stream: OpenStream } | { kind: 'bad-cursor' } | { kind: 'too-many' };

/**
 * A merchant's event streams (`GET /pay-api/v1/events/stream`): each is a lease (at most `cap` open per merchant
 * across every node), a position (stream-position.ts), and a place on this node's one reader (EventFeed). A stream
 * that resumes reads on its own from its position until it is level, then joins the reader.
 */
export class EventStreams {
  constructor(
    private readonly deps: {
      pool: Pool;
      feed: EventFeed;
      cursors: OpaqueCursors;
      nodeId: () => number;
      /** Streams one merchant may have open at once, on all nodes together. */
      cap: number;
      /** How many events one read takes at most. */
      batch: number;
    },
  ) {}

  /** How many streams this node serves now. */
  get open(): number {
    return this.deps.feed.size;
  }

  async openStream(
    merchantId: string,
    resume: string | undefined,
    wanted: (type: string) => boolean,
    sink: StreamSink,
  ): Promise<OpenOutcome> {
    const resumed = resume === undefined ? undefined : openPosition(this.deps.cursors, merchantId, resume);
    if (resume !== undefined && !resumed) return { kind: 'bad-cursor' };
    const lease = { id: randomUUID(), merchantId, node: this.deps.nodeId() };
    if (!(await takeStreamLease(this.deps.pool, lease, this.deps.cap))) return { kind: 'too-many' };

    let position: StreamPosition;
    let ended = false;
    let joined = false;
    let feedEnded = false;
    const waiting: FeedBatch[] = [];
    const deliver = (events: readonly StreamedEvent[], to: string, complete: boolean) => {
      const seen = position.seen.map((text) => parseSnapshot(text)!);
      for (const event of events) {
        if (!isNew(seen, event.txid)) continue;
        position = { seen: position.seen, to, seq: event.seq };
        if (wanted(event.type)) sink.event(event, sealPosition(this.deps.cursors, merchantId, position));
      }
      position = complete ? { seen: withSeen(position.seen, to), to: null, seq: 0 } : { ...position, to };
    };
    const unsubscribe = await this.deps.feed.subscribe(merchantId, {
      batch: (batch) => {
        if (ended) return;
        if (!joined) waiting.push(batch);
        else deliver(batch.events, batch.to, batch.complete);
      },
      end: () => {
        // Told before it joined (a read failed meanwhile): it ends once it has started.
        feedEnded = true;
        if (!ended && joined) sink.end();
      },
    });
    const close = async () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      await dropStreamLease(this.deps.pool, merchantId, lease.id).catch(() => {});
    };
    try {
      if (resumed) {
        position = resumed;
        sink.start(sealPosition(this.deps.cursors, merchantId, position));
        // On its own until level: reads from its position until one reads everything (its snapshot is then newer
        // than every read of the feed this stream will hear of).
        for (;;) {
          const read = await readEvents(
            this.deps.pool,
            [{ merchantId, position: { from: position.seen[0]!, to: position.to, seq: position.seq } }],
            this.deps.batch,
          );
          const found = read.events.get(merchantId) ?? [];
          const complete = found.length < this.deps.batch;
          // Level once a read from a snapshot (not the rest of a cut-short batch) found everything.
          const fresh = position.to === null;
          deliver(found, position.to ?? read.now, complete);
          if (complete && fresh) break;
        }
      } else {
        position = { seen: [await currentSnapshot(this.deps.pool)], to: null, seq: 0 };
        sink.start(sealPosition(this.deps.cursors, merchantId, position));
      }
      joined = true;
      for (const batch of waiting.splice(0)) deliver(batch.events, batch.to, batch.complete);
      if (feedEnded) sink.end();
    } catch (error) {
      await close();
      throw error;
    }
    return { kind: 'open', stream: { close } };
  }
}
