export type Channel = 'email' | 'sms';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'unconfirmed';

/** A file sent with an email, rendered when it is sent by the renderer registered for its kind. */
export interface AttachmentRef {
  kind: string;
  filename: string;
  contentType: string;
  /** Bytes, once rendered. */
  size: number | null;
}

/** What a module asks to send: written in its transaction, sent by a job after it commits. */
export interface MessageDraft {
  merchantId: string;
  channel: Channel;
  to: string;
  subject: string | null;
  text: string;
  attachments: Array<Omit<AttachmentRef, 'size'>>;
  relatedType: string | null;
  relatedId: string | null;
}

export interface Message extends Omit<MessageDraft, 'attachments'> {
  id: string;
  attachments: AttachmentRef[];
  status: MessageStatus;
  transport: string | null;
  providerMessageId: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}
