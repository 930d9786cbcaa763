import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import type { Tx } from '../../platform/db/tx.js';
import { ValidationError } from '../../platform/http/errors.js';
import { defineQueue } from '../../platform/jobs/define.js';
import { enqueueQuery } from '../../platform/jobs/queue.js';
import type { QueueDefinition } from '../../platform/jobs/runner.js';
import { type EmailTransport, PermanentDeliveryError } from '../../platform/mail/email-transport.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { SmsTransport } from '../../platform/sms/sms-transport.js';
import type { AttachmentRef, Channel, Message, MessageDraft } from './messages.model.js';
import {
  claimForSending,
  findMessage,
  insertMessageQuery,
  listMessages,
  type MessageFilter,
  markAttemptFailed,
  markSent,
  recordAttachments,
} from './messages.repo.js';

/** Renders one attachment of a message when it is sent (e.g. an invoice's PDF as it stands then). */
export type AttachmentRenderer = (message: Message) => Promise<Buffer>;

export interface MessagesDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** null: the channel is not configured here (production without SMTP_URL or an SMS provider). */
  email: EmailTransport | null;
  sms: SmsTransport | null;
  mailFrom: string;
}

const sendQueue = defineQueue<{ messageId: string }>('messages.send');
const MAX_ATTEMPTS = 8;

/**
 * Email and SMS: a message is a row written in the transaction of what caused it, and a job that sends it. One
 * attempt at a time holds it (`queued` → `sending`); a clear failure puts it back for the job's retry, a refusal
 * fails it, and an attempt cut off mid-send leaves it `unconfirmed`, never sent twice (docs/messages.md).
 */
export class MessagesService {
  private readonly renderers = new Map<string, AttachmentRenderer>();

  constructor(private readonly deps: MessagesDeps) {}

  registerAttachment(kind: string, renderer: AttachmentRenderer): void {
    this.renderers.set(kind, renderer);
  }

  /** Whether this deployment can send on the channel (in the sandbox always: the outbox). */
  available(channel: Channel): boolean {
    return (channel === 'email' ? this.deps.email : this.deps.sms) !== null;
  }

  /**
   * Writes the message and its sending job inside the caller's transaction (with its COMMIT when it is a Tx: no round
   * trip of their own); answers the message's id.
   */
  async queue(tx: Sql | Tx, draft: MessageDraft): Promise<string> {
    if (!this.available(draft.channel)) {
      throw ValidationError.field(
        draft.channel === 'email' ? 'email' : 'mobileNumber',
        draft.channel === 'email'
          ? 'Email is not configured on this deployment (SMTP_URL).'
          : 'SMS is not configured on this deployment (TWILIO_*).',
      );
    }
    const id = newId();
    const writes = [
      insertMessageQuery(id, draft, this.deps.clock.now()),
      enqueueQuery(this.deps.clock, {
        queue: sendQueue.name,
        payload: { messageId: id },
        singletonKey: id,
        maxAttempts: MAX_ATTEMPTS,
      }),
    ];
    if ('defer' in tx) for (const write of writes) tx.defer(write);
    else for (const write of writes) await tx.query(write);
    return id;
  }

  list(filter: MessageFilter, page: { limit: number; offset: number }) {
    return listMessages(this.deps.pool, filter, page);
  }

  get(id: string): Promise<Message | undefined> {
    return findMessage(this.deps.pool, id);
  }

  queues(): QueueDefinition[] {
    return [
      sendQueue.handler((payload, job) => this.send(payload.messageId, job.attempts >= job.maxAttempts), {
        retryDelaySeconds: (attempt) => Math.min(1800, 10 * 3 ** (attempt - 1)),
      }),
    ];
  }

  /** One sending attempt; throws to have the job retry it. */
  async send(id: string, lastAttempt: boolean): Promise<void> {
    const message = await claimForSending(this.deps.pool, id);
    if (!message) {
      const current = await findMessage(this.deps.pool, id);
      if (current?.status === 'sending') {
        // An earlier attempt stopped while talking to the provider (its node died): it may have gone out.
        await markAttemptFailed(this.deps.pool, id, {
          status: 'unconfirmed',
          error: 'The sending attempt was cut off; the message may or may not have been delivered. Not sent again.',
          transport: null,
        });
        this.deps.logger.error({ messageId: id }, 'message: attempt cut off mid-send, left unconfirmed');
      }
      return;
    }
    const transport = message.channel === 'email' ? this.deps.email : this.deps.sms;
    try {
      if (!transport) throw new PermanentDeliveryError(`No ${message.channel} transport is configured.`);
      const attachments: AttachmentRef[] = [];
      const files: Array<{ filename: string; contentType: string; content: Buffer }> = [];
      for (const ref of message.attachments) {
        const render = this.renderers.get(ref.kind);
        if (!render) throw new PermanentDeliveryError(`No renderer for attachments of kind ${ref.kind}.`);
        const content = await render(message);
        attachments.push({ ...ref, size: content.length });
        files.push({ filename: ref.filename, contentType: ref.contentType, content });
      }
      // Recorded before the provider is asked: whatever becomes of the attempt (sent, refused, retried, cut off),
      // the message shows the size of what it carried.
      if (attachments.length > 0) await recordAttachments(this.deps.pool, id, attachments);
      const delivered =
        message.channel === 'email'
          ? await (transport as EmailTransport).send({
              messageId: `<${message.id}@tessera>`,
              from: this.deps.mailFrom,
              to: message.to,
              subject: message.subject ?? '',
              text: message.text,
              attachments: files,
            })
          : await (transport as SmsTransport).send({ to: message.to, body: message.text });
      await markSent(
        this.deps.pool,
        id,
        { transport: transport.name, providerId: delivered.providerId, attachments },
        this.deps.clock.now(),
      );
    } catch (error) {
      const final = lastAttempt || error instanceof PermanentDeliveryError;
      const reason = error instanceof Error ? error.message : String(error);
      await markAttemptFailed(this.deps.pool, id, {
        status: final ? 'failed' : 'queued',
        error: reason,
        transport: transport?.name ?? null,
      });
      this.deps.logger.warn({ messageId: id, channel: message.channel, final, err: error }, 'message not sent');
      if (!final) throw error;
    }
  }
}
