import Type from 'typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, Paged } from '../../platform/http/paging.js';
import type { OperatorOperation } from '../manifest.js';
import type { Message } from './messages.model.js';

const OutboxQuery = Type.Object({
  merchantId: Type.Optional(Type.String({ format: 'uuid', description: "Only this merchant's messages." })),
  channel: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('sms')], { description: 'email or sms.' })),
  relatedId: Type.Optional(Type.String({ format: 'uuid', description: 'Only messages about this record.' })),
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Zero-based page index.' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Default ${DEFAULT_PAGE_SIZE}.` }),
  ),
});

const OutboxMessage = Type.Object({
  id: Type.String({ format: 'uuid' }),
  merchantId: Type.String({ format: 'uuid' }),
  channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
  to: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  attachments: Type.Array(
    Type.Object({
      filename: Type.String(),
      contentType: Type.String(),
      size: Type.Union([Type.Integer(), Type.Null()], {
        description:
          'Bytes of the file as the message carried it, from its first sending attempt on (sent, failed, retrying ' +
          'or unconfirmed); null only while the message waits for that attempt (nothing is rendered before).',
      }),
    }),
  ),
  relatedType: Type.Union([Type.String(), Type.Null()]),
  relatedId: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ description: 'queued, sending, sent, failed or unconfirmed (docs/messages.md).' }),
  transport: Type.Union([Type.String(), Type.Null()], { description: 'outbox, smtp or twilio.' }),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const EXAMPLE = {
  id: '0b9f1c2e-5d4a-4e8f-9a6b-1c2d3e4f5a6b',
  merchantId: '5d1e8b1c-3f4a-4b5c-8d9e-0f1a2b3c4d5e',
  channel: 'email',
  to: 'ada@example.com',
  subject: 'Invoice INV-1001 from Acme',
  text: 'Hello Ada, ...',
  attachments: [{ filename: 'Invoice-INV-1001.pdf', contentType: 'application/pdf', size: 3172 }],
  relatedType: 'invoice',
  relatedId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  status: 'sent',
  transport: 'outbox',
  attempts: 1,
  lastError: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  sentAt: '2026-11-24T10:00:00.120Z',
};

export function outboxView(m: Message) {
  return {
    id: m.id,
    merchantId: m.merchantId,
    channel: m.channel,
    to: m.to,
    subject: m.subject,
    text: m.text,
    attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.size })),
    relatedType: m.relatedType,
    relatedId: m.relatedId,
    status: m.status,
    transport: m.transport,
    attempts: m.attempts,
    lastError: m.lastError,
    createdAt: m.createdAt.toISOString(),
    sentAt: m.sentAt?.toISOString() ?? null,
  };
}

/** The sandbox outbox: every email and SMS this deployment sent or is sending, newest first. */
export const MESSAGE_OPERATIONS: OperatorOperation[] = [
  {
    group: 'outbox',
    verb: 'list',
    method: 'GET',
    path: '/admin/v1/sandbox/outbox',
    summary: 'Sandbox: the messages (email, SMS) sent or being sent, newest first, with their delivery status',
    querystring: OutboxQuery,
    response: Paged(OutboxMessage, { items: [EXAMPLE], total: 1 }),
    sandboxOnly: true,
    async run(ctx, { query }) {
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      const { items, total } = await ctx.services.messages.list(
        { merchantId: query.merchantId, channel: query.channel, relatedId: query.relatedId },
        { limit: pageSize, offset: (query.page ?? 0) * pageSize },
      );
      return { items: items.map(outboxView), total };
    },
  },
];
