import { partitionSweepPurge } from '../../platform/db/time-partitions.js';
import { outboxEmail, SmtpTransport } from '../../platform/mail/email-transport.js';
import { outboxSms, TwilioSms } from '../../platform/sms/sms-transport.js';
import { defineModule } from '../manifest.js';
import { MESSAGE_OPERATIONS } from './messages.operations.js';
import { MessagesService } from './messages.service.js';
import { Receipts } from './receipts.js';

declare module '../services.js' {
  interface Services {
    /** Email and SMS to payers, through a durable outbox with retries. */
    messages: MessagesService;
    /** A transaction's receipt by SMS or e-mail, through the messages. */
    receipts: Receipts;
  }
}

export const messagesModule = defineModule({
  folder: 'modules/messages',
  summary: 'Messages: email (SMTP) and SMS (Twilio-compatible) to payers, sent from a durable outbox.',
  tables: ['messages'],
  needs: ['transactions', 'merchants'],
  provides: ['messages', 'receipts'],
  build({ pool, clock, logger, config, sandbox, onStop }, { transactions, merchants }) {
    // Without a configured transport the sandbox keeps messages in its outbox; production sends none (docs/messages.md).
    const email = config.smtpUrl ? new SmtpTransport(config.smtpUrl) : sandbox ? outboxEmail : null;
    onStop(() => email?.close());
    const sms = config.twilio ? new TwilioSms(config.twilio) : sandbox ? outboxSms : null;
    const messages = new MessagesService({ pool, clock, logger, email, sms, mailFrom: config.mailFrom });
    return { messages, receipts: new Receipts({ pool, transactions, merchants, messages }) };
  },
  queues: ({ messages }) => messages.queues(),
  // Month partitions ahead, and those past MESSAGE_RETENTION_DAYS dropped (docs/operations.md, "Retention").
  purges: (_services, { pool, config }) => [
    partitionSweepPurge('messagePartitions', pool, {
      table: 'messages',
      column: 'created_at',
      retentionDays: config.retention.messagesDays,
    }),
  ],
  operations: MESSAGE_OPERATIONS,
});
