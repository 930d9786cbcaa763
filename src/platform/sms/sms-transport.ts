import { request } from 'undici';
import { type Delivered, PermanentDeliveryError } from '../mail/email-transport.js';

export interface OutgoingSms {
  to: string;
  body: string;
}

export interface SmsTransport {
  /** Recorded on each message: `twilio`, `outbox`. */
  readonly name: string;
  send(sms: OutgoingSms): Promise<Delivered>;
}

export interface TwilioSettings {
  /** https://api.twilio.com, or any service that speaks its Messages API (TWILIO_BASE_URL). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
}

/**
 * Twilio's Messages API (and compatible providers): `POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, HTTP Basic with the account SID and auth token; 201 with the message's `sid`.
 */
export class TwilioSms implements SmsTransport {
  readonly name = 'twilio';

  constructor(private readonly settings: TwilioSettings) {}

  async send(sms: OutgoingSms): Promise<Delivered> {
    const { baseUrl, accountSid, authToken, from } = this.settings;
    const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    const response = await request(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: sms.to, From: from, Body: sms.body }).toString(),
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    const text = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const sid = safeJson(text)?.sid;
      return { providerId: typeof sid === 'string' ? sid : null };
    }
    const detail = safeJson(text)?.message ?? text.slice(0, 200);
    const message = `The SMS provider answered ${response.statusCode}: ${String(detail)}`;
    // A 4xx other than 429 is about this message (a bad number, an unverified sender): retrying cannot help.
    if (response.statusCode >= 400 && response.statusCode < 500 && response.statusCode !== 429) {
      throw new PermanentDeliveryError(message);
    }
    throw new Error(message);
  }
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The sandbox's SMS transport when no provider is configured: kept in the outbox only. */
export const outboxSms: SmsTransport = { name: 'outbox', send: async () => ({ providerId: null }) };

/**
 * A phone number as providers take it (E.164): kept when it starts with +, a 10-digit North American number gets +1,
 * 11 digits starting with 1 get +. Anything else is refused (null).
 */
export function toE164(phone: string): string | null {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[\s().-]/g, '');
  if (/^\+[1-9]\d{6,14}$/.test(digits)) return digits;
  if (/^\d{10}$/.test(digits)) return `+1${digits}`;
  if (/^1\d{10}$/.test(digits)) return `+${digits}`;
  return null;
}
