import { OpaqueCursors } from '../../platform/crypto/opaque-cursors.js';
import { partitionSweepPurge } from '../../platform/db/time-partitions.js';
import { defineModule } from '../manifest.js';
import { EventFeed } from './event-feed.js';
import { eventStreamRoutes } from './event-stream.routes.js';
import { EventStreams } from './event-streams.js';

declare module '../services.js' {
  interface Services {
    eventStreams: EventStreams;
    /** Seals the positions handed to clients (event streams, the request log) so they reveal nothing. */
    cursors: OpaqueCursors;
  }
}

export const eventsModule = defineModule({
  folder: 'modules/events',
  summary: 'Domain events: the catalog, the transactional outbox every module records into, and event streams.',
  tables: ['events', 'event_stream_leases'],
  publishes: ['event_records'],
  needs: ['dataKeys'],
  provides: ['eventStreams', 'cursors'],
  async build({ pool, logger, config, nodeId, onStop }, { dataKeys }) {
    const cursors = new OpaqueCursors(await dataKeys.deploymentSecret('opaque-cursors'));
    const feed = new EventFeed(pool, logger, { pollMs: 250, batch: 200 });
    onStop(() => feed.stop());
    const eventStreams = new EventStreams({
      pool,
      feed,
      cursors,
      nodeId,
      cap: config.eventStreamsPerMerchant,
      batch: 200,
    });
    return { cursors, eventStreams };
  },
  routes: (app, { eventStreams }, { logger, config }) =>
    eventStreamRoutes(app, { streams: eventStreams, logger, cap: config.eventStreamsPerMerchant }),
  // Month partitions ahead, and those past EVENT_RETENTION_DAYS dropped (docs/operations.md, "Retention").
  purges: (_services, { pool, config }) => [
    partitionSweepPurge('eventPartitions', pool, {
      table: 'events',
      column: 'occurred_at',
      retentionDays: config.retention.eventsDays,
    }),
  ],
});
