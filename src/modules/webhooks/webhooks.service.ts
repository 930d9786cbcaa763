import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { dictionary } from '../../platform/dictionary.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { eventTypeNamed } from '../events/event-catalog.js';
import { type AttemptDeps, attemptDelivery, exchangeLog, sendSigned, webhookSecretAad } from './delivery-attempt.js';
import type { WebhookSender } from './sender.js';
import { newSigningSecret } from './signing.js';
import { endpointUrlProblem, type TargetPolicy } from './target-policy.js';
import {
  cancelDeliveries,
  countEndpoints,
  deleteEndpoint,
  type EndpointFilter,
  type EndpointRow,
  findEndpoint,
  findLog,
  insertEndpoint,
  type LogDetailRow,
  type LogFilter,
  type LogRow,
  leaseDelivery,
  listEndpoints,
  listLogs,
  logsOfEvents,
  recordAttempts,
  releaseLeases,
  streamLogs,
  unleasedBecause,
  updateEndpoint,
  type WebhookOwner,
} from './webhooks.repo.js';

export const MAX_ENDPOINTS_PER_OWNER = 50;
const MAX_NAME_LENGTH = 255;

export interface EndpointInput {
  name?: string;
  endpointUrl?: string;
  eventTypes?: string[];
  status?: 'Active' | 'Inactive';
}

export interface PingResult {
  success: boolean;
  statusCode: number | null;
  roundTripDurationMs: number;
  /** The same figure under the name of the SDK's document (ISV API 2.12). */
  durationMs: number;
  errorMessage: string | null;
  deliveryLogId: string;
}

/** Endpoint management, ping, manual retry and the delivery log, for merchant and partner callers. */
export class WebhooksService {
  private readonly policy: TargetPolicy;
  /** What sending needs, for pings and manual retries alike. */
  private readonly attemptDeps: AttemptDeps;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly kek: KeyEncryptionKey,
    private readonly config: Config,
    sender: WebhookSender,
  ) {
    this.policy = { allowLoopback: config.webhookAllowPrivateTargets };
    this.attemptDeps = { clock, kek, sender, headerPrefix: config.webhookHeaderPrefix };
  }

  async create(owner: WebhookOwner, input: EndpointInput): Promise<EndpointRow & { hmacSecret: string }> {
    const name = checkName(input.name);
    const url = await this.checkUrl(input.endpointUrl);
    const subscriptions = checkEventTypes(owner, input.eventTypes);
    const secret = newSigningSecret();
    const id = newId();
    const now = this.clock.now();
    return withTransaction(this.pool, async (tx) => {
      // One owner's creations queue on this lock, so the cap holds under concurrent requests.
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `webhook-endpoints:${owner.merchantId ?? owner.partnerId}`,
      ]);
      if ((await countEndpoints(tx, owner)) >= MAX_ENDPOINTS_PER_OWNER) {
        throw ValidationError.field('endpointUrl', `At most ${MAX_ENDPOINTS_PER_OWNER} webhook endpoints per account.`);
      }
      const row = await insertEndpoint(tx, {
        id,
        merchant_id: owner.merchantId ?? null,
        partner_id: owner.partnerId ?? null,
        name,
        url,
        event_types: input.eventTypes!,
        subscriptions,
        status: 'Active',
        secret_sealed: this.kek.seal(Buffer.from(secret, 'utf8'), webhookSecretAad(id)),
        kek_version: this.kek.version,
        created_at: now,
        modified_at: now,
      });
      return { ...row, hmacSecret: secret };
    });
  }

  list(owner: WebhookOwner, filter: EndpointFilter, page: PageRequest) {
    return listEndpoints(this.pool, owner, filter, page);
  }

  async get(owner: WebhookOwner, id: string): Promise<EndpointRow> {
    const row = await findEndpoint(this.pool, owner, id);
    if (!row) throw new NotFoundError('Webhook endpoint', id);
    return row;
  }

  /**
   * PATCH merges (absent fields keep their value); PUT replaces (name, URL and event types required; status Active
   * when absent). Deactivating stops the endpoint's scheduled retries, as deleting does.
   */
  async update(owner: WebhookOwner, id: string, input: EndpointInput, mode: 'merge' | 'replace'): Promise<EndpointRow> {
    const current = await this.get(owner, id);
    const merged: EndpointInput =
      mode === 'replace'
        ? { status: 'Active', ...input }
        : {
            name: input.name ?? current.name,
            endpointUrl: input.endpointUrl ?? current.url,
            eventTypes: input.eventTypes ?? current.event_types,
            status: input.status ?? current.status,
          };
    const name = checkName(merged.name);
    const url = merged.endpointUrl === current.url ? current.url : await this.checkUrl(merged.endpointUrl);
    const subscriptions = checkEventTypes(owner, merged.eventTypes);
    return withTransaction(this.pool, async (tx) => {
      const locked = await findEndpoint(tx, owner, id, { forUpdate: true });
      if (!locked) throw new NotFoundError('Webhook endpoint', id);
      const row = await updateEndpoint(tx, owner, id, {
        name,
        url,
        event_types: merged.eventTypes!,
        subscriptions,
        status: merged.status ?? 'Active',
        modified_at: this.clock.now(),
      });
      if (row.status === 'Inactive') await cancelDeliveries(tx, id);
      return row;
    });
  }

  async remove(owner: WebhookOwner, id: string): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      const row = await findEndpoint(tx, owner, id, { forUpdate: true });
      if (!row) throw new NotFoundError('Webhook endpoint', id);
      await deleteEndpoint(tx, owner, id, this.clock.now());
      await cancelDeliveries(tx, id);
    });
  }

  /** One synthetic `ping` message, sent now; its outcome is answered and logged (never retried). */
  async ping(owner: WebhookOwner, id: string): Promise<PingResult> {
    const endpoint = await this.get(owner, id);
    const messageId = newId();
    const { message, outcome } = await sendSigned(
      this.attemptDeps,
      { id: endpoint.id, secretSealed: endpoint.secret_sealed, kekVersion: endpoint.kek_version, url: endpoint.url },
      {
        messageId,
        eventType: 'ping',
        occurredAt: this.clock.now(),
        resourceId: endpoint.id,
        resourceType: 'webhook_endpoint',
      },
    );
    const logId = newId();
    await recordAttempts(this.pool, '', [
      {
        logId,
        deliveryId: null,
        deliveryCreatedAt: null,
        endpointId: endpoint.id,
        merchantId: endpoint.merchant_id,
        partnerId: endpoint.partner_id,
        endpointName: endpoint.name,
        endpointUrl: endpoint.url,
        messageId,
        eventType: 'ping',
        isPing: true,
        isManual: true,
        attemptNumber: 1,
        automaticAttempts: 0,
        deliveryStatus: outcome.delivered ? 'Delivered' : 'Failed',
        nextRetryAt: null,
        ...exchangeLog(message, outcome),
        createdAt: this.clock.now(),
      },
    ]);
    return {
      success: outcome.delivered,
      statusCode: outcome.statusCode,
      roundTripDurationMs: outcome.durationMs,
      durationMs: outcome.durationMs,
      errorMessage: outcome.errorMessage,
      deliveryLogId: logId,
    };
  }

  listLogs(owner: WebhookOwner, filter: LogFilter, page: PageRequest): Promise<{ rows: LogRow[]; total: number }> {
    return listLogs(this.pool, owner, filter, page);
  }

  /** The delivery attempts of these events, oldest first (a transaction's page shows its deliveries). */
  logsOfEvents(owner: WebhookOwner, eventIds: readonly string[]): Promise<LogRow[]> {
    return logsOfEvents(this.pool, owner, eventIds);
  }

  async getLog(owner: WebhookOwner, id: string): Promise<LogDetailRow> {
    const row = await findLog(this.pool, owner, id);
    if (!row) throw new NotFoundError('Delivery log', id);
    return row;
  }

  exportLogs(owner: WebhookOwner, filter: LogFilter): AsyncGenerator<LogRow> {
    return streamLogs(this.pool, owner, filter);
  }

  /**
   * One more try of a failed delivery, now, logged as its next attempt number. It schedules nothing: a success
   * delivers (and ends any remaining schedule), a failure leaves the delivery exactly as it was.
   */
  async retry(owner: WebhookOwner, logId: string): Promise<LogDetailRow> {
    const log = await this.getLog(owner, logId);
    if (log.is_ping || !log.delivery_id) {
      throw ValidationError.field('deliveryLogId', 'Ping deliveries are synthetic and not retryable.');
    }
    if (log.status === 'Success') {
      throw ValidationError.field(
        'deliveryLogId',
        `Cannot retry delivery log ${logId}: its status is Success; only Failure is retryable.`,
      );
    }
    const lockedBy = `manual:${newId()}`;
    const delivery = await leaseDelivery(this.pool, log.delivery_id, lockedBy, this.config.webhookTimeoutMs * 2 + 5000);
    if (!delivery) {
      if ((await unleasedBecause(this.pool, log.delivery_id)) === 'expired') {
        throw ValidationError.field(
          'deliveryLogId',
          `Cannot retry delivery log ${logId}: its event is past the retention of events and deliveries; the log is kept.`,
        );
      }
      throw new ConflictError('An attempt of this delivery is in progress; try again in a moment.');
    }
    const release = () => releaseLeases(this.pool, [delivery.id], lockedBy);
    if (delivery.status === 'Delivered') {
      await release();
      throw ValidationError.field('deliveryLogId', 'This delivery has since succeeded; there is nothing to retry.');
    }
    if (delivery.endpoint_deleted || delivery.endpoint_status !== 'Active') {
      await release();
      throw ValidationError.field(
        'deliveryLogId',
        `The endpoint ${delivery.endpoint_deleted ? 'was deleted' : 'is inactive'}; only active endpoints receive messages.`,
      );
    }
    let record: Awaited<ReturnType<typeof attemptDelivery>>;
    try {
      record = await attemptDelivery(this.attemptDeps, delivery, 'manual');
    } catch (error) {
      await release();
      throw error;
    }
    await recordAttempts(this.pool, lockedBy, [record]);
    return this.getLog(owner, record.logId);
  }

  private async checkUrl(raw: string | undefined): Promise<string> {
    if (raw === undefined || raw.trim() === '')
      throw ValidationError.field('endpointUrl', "'endpointUrl' is required.");
    const problem = await endpointUrlProblem(raw.trim(), this.policy);
    if (problem) throw ValidationError.field('endpointUrl', `'endpointUrl' ${problem}.`);
    return raw.trim();
  }
}

function checkName(raw: string | undefined): string {
  const name = raw?.trim();
  if (!name) throw ValidationError.field('name', "'name' is required.");
  if (name.length > MAX_NAME_LENGTH)
    throw ValidationError.field('name', `'name' must be at most ${MAX_NAME_LENGTH} characters.`);
  return name;
}

/** Validates a subscription list; returns outbox event type → the identifier subscribed with. */
function checkEventTypes(owner: WebhookOwner, eventTypes: string[] | undefined): Record<string, string> {
  if (!eventTypes || eventTypes.length === 0) {
    throw ValidationError.field('eventTypes', "'eventTypes' must list at least one event type.");
  }
  const subscriptions: Record<string, string> = dictionary();
  const problems: string[] = [];
  for (const name of eventTypes) {
    const entry = eventTypeNamed(name);
    if (!entry) {
      problems.push(`'${name}' is not an event type (see GET /v2/webhooks/event-types).`);
    } else if (entry.partnerOnly && owner.merchantId) {
      problems.push(`'${name}' is delivered to partner endpoints only.`);
    } else if (subscriptions[entry.eventType] !== undefined) {
      problems.push(`'${name}' is listed twice (also as '${subscriptions[entry.eventType]}').`);
    } else {
      subscriptions[entry.eventType] = name;
    }
  }
  if (problems.length > 0) throw new ValidationError({ eventTypes: problems });
  return subscriptions;
}
