import {
  basicAuthMatches,
  itemsAreSigned,
  notificationItems,
  processorNotification,
} from '../../connectors/card/adyen/adyen-notifications.js';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import { Grouped } from '../../platform/db/grouped.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { CardPaymentsService } from '../payments/card-payments.service.js';
import { connectorSettings, type ProcessorsService } from '../processors/processors.service.js';
import { applyNotificationQueue } from './processor-notifications.queues.js';
import {
  findUnapplied,
  findUnappliedNotification,
  insertNotifications,
  markApplied,
  type NotificationRow,
} from './processor-notifications.repo.js';

export type Receipt = { accepted: true; recorded: number } | { accepted: false; status: 400 | 401; message: string };

/**
 * Notifications from card processors: checked (the message's Basic credentials and each item's HMAC signature,
 * against the processor's current or overlapping credentials), recorded once each, accepted only once recorded, and
 * applied by a job through the payments core (docs/connectors.md, "Notifications").
 */
export class ProcessorNotificationsService {
  /**
   * The notification messages of concurrent requests recorded together: one insert of all their items and one of
   * their apply jobs, with COMMIT (a processor sends a message per payment: a transaction each would cost a commit
   * and three round trips per payment). Each message is answered with how many of its items were new.
   */
  private readonly arrivals: Grouped<NotificationRow[], number>;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly processors: ProcessorsService,
    private readonly cards: CardPaymentsService,
  ) {
    this.arrivals = new Grouped((messages) =>
      withTransaction(this.pool, async (tx) => {
        const rows = messages.flat();
        const inserted = await insertNotifications(tx, rows);
        const jobs = rows
          .filter((row) => inserted.has(row.id))
          .map((row) => ({ payload: { id: row.id, merchantId: row.merchantId }, options: { singletonKey: row.id } }));
        if (jobs.length > 0) tx.defer(applyNotificationQueue.enqueueManyQuery(this.clock, jobs));
        return messages.map((rows) => rows.filter((row) => inserted.has(row.id)).length);
      }),
    );
  }

  /** An Adyen notification message for `processorId`: recorded whole, or refused whole. */
  async receiveAdyen(processorId: string, authorization: string | undefined, body: unknown): Promise<Receipt> {
    const refused = {
      accepted: false as const,
      status: 401 as const,
      message: 'Not a notification of this processor.',
    };
    const usable = await this.processors.usableCredentials(processorId);
    if (!usable || usable.processor.connector !== 'adyen') return refused;
    if (!basicAuthMatches(authorization, usable.versions)) return refused;
    const items = notificationItems(body);
    if (typeof items === 'string') return { accepted: false, status: 400, message: items };
    const merchantAccount = String(connectorSettings(usable.processor).merchantAccount);
    if (!itemsAreSigned(items, usable.versions, merchantAccount)) return refused;
    const processor = usable.processor;
    const recorded = await this.arrivals.submit(
      items.map((item) => ({
        id: newId(),
        merchantId: processor.merchantId,
        processorId: processor.id,
        notification: processorNotification(item),
        receivedAt: this.clock.now(),
      })),
    );
    return { accepted: true, recorded };
  }

  /** Applies a recorded notification (a job): through the payments core, then marked applied with what it did. */
  async apply(merchantId: string, id: string): Promise<void> {
    const row = await findUnappliedNotification(this.pool, merchantId, id);
    if (!row) return;
    const processor = await this.processors.processor(row.processorId);
    const outcome = processor
      ? await this.cards.applyNotification(processor, row.notification)
      : 'the processor is gone';
    await markApplied(this.pool, merchantId, id, outcome, this.clock.now());
    this.logger.info(
      { notificationId: id, eventCode: row.notification.eventCode, success: row.notification.success, outcome },
      'processor notification applied',
    );
  }

  /** Recorded notifications whose job was lost go to a job again (the sweep). */
  async requeueLost(before: Date): Promise<number> {
    const lost = await findUnapplied(this.pool, before, 500);
    for (const { id, merchantId } of lost) {
      await applyNotificationQueue.enqueue(this.pool, this.clock, { id, merchantId }, { singletonKey: id });
    }
    return lost.length;
  }
}
