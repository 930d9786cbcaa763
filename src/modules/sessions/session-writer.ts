import type { QueryConfig } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { Grouped } from '../../platform/db/grouped.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { eventsInsert } from '../events/outbox.js';
import type { PaymentSession, SessionSettings } from './sessions.model.js';
import { insertSessions } from './sessions.repo.js';

export interface NewSession {
  id: string;
  settings: SessionSettings;
  now: Date;
  idempotencyId: string | null;
}

/**
 * New sessions of concurrent requests written together (group commit, platform/db/grouped.ts): their inserts in one
 * round trip, one events insert for the group (the webhook fan-out runs once), their expiry jobs with COMMIT, and one
 * commit. A group that fails (one session's idempotency id already taken) is written again one by one, so only that
 * request sees its error.
 */
export class SessionWriter {
  private readonly grouped: Grouped<NewSession, PaymentSession>;

  constructor(pool: Pool, clock: Clock, expiryJobs: (sessions: PaymentSession[]) => QueryConfig) {
    this.grouped = new Grouped((items) =>
      withTransaction(pool, async (tx) => {
        const sessions = await insertSessions(tx, items);
        tx.defer(
          eventsInsert(
            clock,
            sessions.map((session) => ({
              type: 'payment_session.created',
              merchantId: session.merchantId,
              resourceType: 'payment_session',
              resourceId: session.id,
            })),
          ).query,
        );
        const expiring = sessions.filter((session) => session.expiresAt);
        if (expiring.length > 0) tx.defer(expiryJobs(expiring));
        return sessions;
      }),
    );
  }

  create(item: NewSession): Promise<PaymentSession> {
    return this.grouped.submit(item);
  }
}
