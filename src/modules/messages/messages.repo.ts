import type { QueryConfig } from 'pg';
import type { Sql } from '../../platform/db/pool.js';
import type { AttachmentRef, Channel, Message, MessageDraft } from './messages.model.js';

interface MessageRow {
  id: string;
  merchant_id: string;
  channel: Channel;
  to_address: string;
  subject: string | null;
  body_text: string;
  attachments: AttachmentRef[];
  related_type: string | null;
  related_id: string | null;
  status: Message['status'];
  transport: string | null;
  provider_message_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

const toMessage = (r: MessageRow): Message => ({
  id: r.id,
  merchantId: r.merchant_id,
  channel: r.channel,
  to: r.to_address,
  subject: r.subject,
  text: r.body_text,
  attachments: r.attachments,
  relatedType: r.related_type,
  relatedId: r.related_id,
  status: r.status,
  transport: r.transport,
  providerMessageId: r.provider_message_id,
  attempts: r.attempts,
  lastError: r.last_error,
  createdAt: r.created_at,
  sentAt: r.sent_at,
});

/** The message's row, as a statement (sent with the caller's COMMIT). */
export function insertMessageQuery(id: string, draft: MessageDraft, at: Date): QueryConfig {
  return {
    name: 'messages.insert',
    text: `INSERT INTO messages (id, merchant_id, channel, to_address, subject, body_text, attachments, related_type,
       related_id, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', $10)`,
    values: [
      id,
      draft.merchantId,
      draft.channel,
      draft.to,
      draft.subject,
      draft.text,
      JSON.stringify(draft.attachments.map((a) => ({ ...a, size: null }))),
      draft.relatedType,
      draft.relatedId,
      at,
    ],
  };
}

export async function findMessage(sql: Sql, id: string): Promise<Message | undefined> {
  const { rows } = await sql.query<MessageRow>(
    'SELECT /* across merchants: the sender job and the outbox name only the message */ * FROM messages WHERE id = $1',
    [id],
  );
  return rows[0] ? toMessage(rows[0]) : undefined;
}

/** queued → sending, for one attempt (a compare-and-set: a message is in one attempt at a time). */
export async function claimForSending(sql: Sql, id: string): Promise<Message | undefined> {
  const { rows } = await sql.query<MessageRow>(
    `UPDATE /* across merchants: the sender job names only the message */
       messages SET status = 'sending', attempts = attempts + 1 WHERE id = $1 AND status = 'queued' RETURNING *`,
    [id],
  );
  return rows[0] ? toMessage(rows[0]) : undefined;
}

export async function markSent(
  sql: Sql,
  id: string,
  outcome: { transport: string; providerId: string | null; attachments: AttachmentRef[] },
  at: Date,
): Promise<void> {
  await sql.query(
    `UPDATE /* across merchants: the sender job names only the message */
       messages SET status = 'sent', transport = $2, provider_message_id = $3, attachments = $4, sent_at = $5,
       last_error = NULL
     WHERE id = $1 AND status = 'sending'`,
    [id, outcome.transport, outcome.providerId, JSON.stringify(outcome.attachments), at],
  );
}

/** The attachments as this attempt rendered them (their sizes), while it holds the message. */
export async function recordAttachments(sql: Sql, id: string, attachments: AttachmentRef[]): Promise<void> {
  await sql.query(
    `UPDATE /* across merchants: the sender job names only the message */
       messages SET attachments = $2 WHERE id = $1 AND status = 'sending'`,
    [id, JSON.stringify(attachments)],
  );
}

/** The attempt failed: `queued` again for the job's retry, or `failed` for good. */
export async function markAttemptFailed(
  sql: Sql,
  id: string,
  change: { status: 'queued' | 'failed' | 'unconfirmed'; error: string; transport: string | null },
  from: Message['status'] = 'sending',
): Promise<void> {
  await sql.query(
    `UPDATE /* across merchants: the sender job names only the message */
       messages SET status = $2, last_error = $3, transport = COALESCE($4, transport)
     WHERE id = $1 AND status = $5`,
    [id, change.status, change.error.slice(0, 2000), change.transport, from],
  );
}

export interface MessageFilter {
  merchantId?: string;
  channel?: Channel;
  relatedId?: string;
}

export async function listMessages(
  sql: Sql,
  filter: MessageFilter,
  page: { limit: number; offset: number },
): Promise<{ items: Message[]; total: number }> {
  const where: string[] = [];
  const values: unknown[] = [];
  if (filter.merchantId) where.push(`merchant_id = $${values.push(filter.merchantId)}`);
  if (filter.channel) where.push(`channel = $${values.push(filter.channel)}`);
  if (filter.relatedId) where.push(`related_id = $${values.push(filter.relatedId)}`);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [{ rows }, count] = await Promise.all([
    sql.query<MessageRow>(
      `SELECT /* across merchants: the operator's outbox */ * FROM messages ${clause} ORDER BY created_at DESC, id DESC
       LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, page.limit, page.offset],
    ),
    sql.query<{ total: number }>(
      `SELECT /* across merchants: the operator's outbox */ count(*)::int AS total FROM messages ${clause}`,
      values,
    ),
  ]);
  return { items: rows.map(toMessage), total: count.rows[0]!.total };
}
