import nodemailer, { type Transporter } from 'nodemailer';

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingEmail {
  /** Stable per message: a resend after an unclear failure carries the same Message-ID, so mail systems can fold it. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: EmailAttachment[];
}

export interface Delivered {
  /** The provider's id for the message, when it gives one. */
  providerId: string | null;
}

export interface EmailTransport {
  /** Recorded on each message: `smtp`, `outbox`. */
  readonly name: string;
  send(email: OutgoingEmail): Promise<Delivered>;
  close(): void;
}

/** A refusal that a retry cannot change (a 5xx SMTP reply, an SMS provider's 4xx): the message fails at once. */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}

/**
 * Email over SMTP with nodemailer (SMTP_URL, e.g. `smtp://user:pass@mail.example.com:587` or `smtps://...`). Every
 * wait is bounded, so a stuck server fails the attempt (retried as a job) instead of holding a worker.
 */
export class SmtpTransport implements EmailTransport {
  readonly name = 'smtp';
  private readonly transporter: Transporter;

  constructor(url: string) {
    const parsed = new URL(url);
    const secure = parsed.protocol === 'smtps:';
    this.transporter = nodemailer.createTransport({
      host: parsed.hostname.replace(/^\[|\]$/g, ''),
      port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
      secure,
      ...(parsed.username
        ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } }
        : {}),
      // `?requireTLS=true` insists on STARTTLS; loopback test servers speak plain SMTP.
      requireTLS: parsed.searchParams.get('requireTLS') === 'true',
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(email: OutgoingEmail): Promise<Delivered> {
    try {
      const info = await this.transporter.sendMail({
        messageId: email.messageId,
        from: email.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        attachments: email.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
      return { providerId: info.messageId ?? null };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      if (typeof code === 'number' && code >= 500 && code < 600) {
        throw new PermanentDeliveryError(`The mail server refused the message (${code}): ${(error as Error).message}`);
      }
      throw error;
    }
  }

  close(): void {
    this.transporter.close();
  }
}

/** The sandbox's transport when no SMTP_URL is set: the message row is the outbox; nothing leaves the machine. */
export const outboxEmail: EmailTransport = {
  name: 'outbox',
  send: async () => ({ providerId: null }),
  close: () => {},
};
