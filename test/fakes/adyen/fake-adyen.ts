// A stateful fake of Adyen's Checkout API (version 71) on loopback, for tests only. It keeps payments by pspReference
// and by reference, applies captures, cancels, reversals, refunds and amount updates to them, replays an answer by
// its idempotency key, and notifies Tessera of each outcome as Adyen does. Every request it takes and every answer and
// notification it gives is checked against the facts of Adyen's published documents (adyen-contract.ts): a field
// Tessera invents, a wrong type or a missing required field is a violation, and so is an answer of the fake's that
// drifts from Adyen. Faults on demand: an answer dropped after the request was recorded, a 5xx, an answer past the
// deadline, a notification before the answer, duplicated and reordered notifications.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drawRandom } from '../../../src/platform/crypto/random-pool.js';
import { requestErrors, responseErrors } from './adyen-contract.js';
import { FakeNotifier, type NotificationItem } from './fake-adyen-notifier.js';

export interface FakeAdyenAccount {
  apiKey: string;
  merchantAccount: string;
  hmacKey: string;
  notificationUsername: string;
  notificationPassword: string;
}

export type Fault =
  /** The request is processed (and its notification sent), but the connection drops before the answer. */
  | { kind: 'drop-after-record' }
  /** A 500 before anything is processed. */
  | { kind: 'status-500' }
  /** The answer comes `ms` later (past Tessera's deadline when longer than it). */
  | { kind: 'delay'; ms: number }
  /** The notification is delivered (and accepted) before the answer is given. */
  | { kind: 'notify-before-answer' };

interface FakePayment {
  psp: string;
  reference: string;
  authorisedCents: number;
  capturedCents: number;
  refundedCents: number;
  state: 'authorised' | 'refused' | 'cancelled';
  autoCapture: boolean;
}

/** Test cards of the fake (docs/connectors.md): the rest of the numbers that pass the checksum are authorised. */
export const ADYEN_TEST_REFUSALS: Readonly<Record<string, { code: string; reason: string }>> = {
  '4000000000000002': { code: '2', reason: 'Refused' },
  '4000000000000069': { code: '6', reason: 'Expired Card' },
  '4000000000000127': { code: '24', reason: 'CVC Declined' },
  '4000000000009995': { code: '12', reason: 'Not enough balance' },
};

const MODIFICATION = /^\/v71\/payments\/([^/]+)\/(captures|cancels|refunds|reversals|amountUpdates)$/;

export class FakeAdyen {
  readonly notifier: FakeNotifier;
  readonly violations: string[] = [];
  readonly payments = new Map<string, FakePayment>();
  /** Every request as it arrived (path and body), for assertions (unless `keepHistory` is off). */
  readonly requests: Array<{ path: string; body: Record<string, unknown>; idempotencyKey: string | undefined }> = [];
  /**
   * Whether `requests` and the notifier's `sent` keep everything (tests assert on them). The benchmark turns this off:
   * nothing asserts on them there, and a run of tens of thousands of requests would keep every body for nothing.
   */
  keepHistory = true;
  private readonly byReference = new Map<string, string>();
  private readonly cancelledReferences = new Set<string>();
  private readonly replies = new Map<string, { hash: string; status: number; body: unknown }>();
  private readonly faults: Array<{ path: RegExp; fault: Fault }> = [];
  private server: Server | undefined;
  url = '';
  /** How many requests met a fault, by kind. */
  readonly faultsMet: Record<string, number> = {};
  /** Faults at random (the cluster test): with probability `rate`, a request meets one of `kinds`. */
  randomFaults: { rate: number; random: () => number; kinds: Fault[] } | undefined;

  constructor(readonly account: FakeAdyenAccount) {
    this.notifier = new FakeNotifier({
      hmacKey: account.hmacKey,
      username: account.notificationUsername,
      password: account.notificationPassword,
    });
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        this.violations.push(`fake crashed: ${error.message}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await this.notifier.settled().catch(() => {});
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next request whose path matches meets `fault`. */
  inject(path: RegExp, fault: Fault): void {
    this.faults.push({ path, fault });
  }

  paymentByReference(reference: string): FakePayment | undefined {
    const psp = this.byReference.get(reference);
    return psp ? this.payments.get(psp) : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '';
    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      this.violations.push(`${path}: a body that is not JSON`);
      return this.answer(res, 'POST /payments', 400, error(400, '702', 'Unable to parse the request', 'validation'));
    }
    const idempotencyKey = header(req, 'idempotency-key');
    if (this.keepHistory) this.requests.push({ path, body, idempotencyKey });
    const operation = operationOf(path);
    if (req.method !== 'POST' || !operation) {
      this.violations.push(`${req.method} ${path}: not an operation of the contract`);
      res.writeHead(404).end();
      return;
    }
    for (const problem of requestErrors(operation, body)) this.violations.push(`${operation}: ${problem}`);
    if (!idempotencyKey || idempotencyKey.length > 64) {
      this.violations.push(`${operation}: no Idempotency-Key of at most 64 characters`);
    }
    if (header(req, 'x-api-key') !== this.account.apiKey) {
      return this.answer(res, operation, 401, error(401, '000', 'HTTP Status Response - Unauthorized', 'security'));
    }
    if (body.merchantAccount !== this.account.merchantAccount) {
      return this.answer(res, operation, 403, error(403, '901', 'Invalid Merchant Account', 'security'));
    }
    const faultAt = this.faults.findIndex((f) => f.path.test(path));
    let fault = faultAt >= 0 ? this.faults.splice(faultAt, 1)[0]!.fault : undefined;
    const chance = this.randomFaults;
    if (!fault && chance && chance.random() < chance.rate) {
      fault = chance.kinds[Math.floor(chance.random() * chance.kinds.length)];
    }
    if (fault) this.faultsMet[fault.kind] = (this.faultsMet[fault.kind] ?? 0) + 1;
    if (fault?.kind === 'status-500') {
      return this.answer(res, operation, 500, error(500, '905', 'Payment details are not supported', 'internal'));
    }

    const hash = createHash('sha256').update(raw).digest('hex');
    const earlier = idempotencyKey ? this.replies.get(idempotencyKey) : undefined;
    let reply: { status: number; body: unknown };
    const notifications: Array<Omit<NotificationItem, 'additionalData'> & { additionalData?: Record<string, string> }> =
      [];
    if (earlier) {
      // Adyen answers a retry with the first answer; the same key with another request is refused.
      reply =
        earlier.hash === hash
          ? earlier
          : { status: 422, body: error(422, '704', 'Idempotency key reused', 'validation') };
    } else {
      reply = this.process(operation, path, body, notifications);
      if (idempotencyKey && reply.status < 500) this.replies.set(idempotencyKey, { hash, ...reply });
    }
    const sending = notifications.map((n) => this.notifier.notify(n));
    if (fault?.kind === 'notify-before-answer') await Promise.all(sending);
    else for (const s of sending) s.catch((e: Error) => this.violations.push(`notification: ${e.message}`));
    if (fault?.kind === 'drop-after-record') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    return this.answer(res, operation, reply.status, reply.body);
  }

  private process(
    operation: string,
    path: string,
    body: Record<string, unknown>,
    notifications: Array<Omit<NotificationItem, 'additionalData'> & { additionalData?: Record<string, string> }>,
  ): { status: number; body: unknown } {
    if (operation === 'POST /payments') return this.pay(body, notifications);
    if (operation === 'POST /cancels') return this.technicalCancel(body, notifications);
    const [, psp, what] = MODIFICATION.exec(path)!;
    const payment = this.payments.get(decodeURIComponent(psp!));
    if (!payment) {
      return {
        status: 422,
        body: error(422, '167', 'Original pspReference required for this operation', 'validation'),
      };
    }
    return this.modify(what!, payment, body, notifications);
  }

  private pay(
    body: Record<string, unknown>,
    notifications: Array<Omit<NotificationItem, 'additionalData'>>,
  ): { status: number; body: unknown } {
    const reference = String(body.reference);
    const amount = body.amount as { currency: string; value: number };
    const method = body.paymentMethod as { number: string; cvc?: string };
    const billing = body.billingAddress as { postalCode?: string } | undefined;
    const psp = pspReference();
    const refusal = ADYEN_TEST_REFUSALS[method.number];
    const cancelledBefore = this.cancelledReferences.has(reference);
    const resultCode = cancelledBefore ? 'Cancelled' : refusal ? 'Refused' : 'Authorised';
    const additionalData: Record<string, string> = {
      avsResult: !billing
        ? '5 No AVS data provided'
        : billing.postalCode === '99999'
          ? '2 Neither postal code nor address match'
          : '7 Both postal code and address match',
    };
    if (resultCode === 'Authorised') additionalData.authCode = String(100000 + (this.payments.size % 899999));
    const autoCapture = body.captureDelayHours === 0;
    this.payments.set(psp, {
      psp,
      reference,
      authorisedCents: resultCode === 'Authorised' ? amount.value : 0,
      capturedCents: resultCode === 'Authorised' && autoCapture ? amount.value : 0,
      refundedCents: 0,
      state: resultCode === 'Authorised' ? 'authorised' : resultCode === 'Refused' ? 'refused' : 'cancelled',
      autoCapture,
    });
    this.byReference.set(reference, psp);
    if (!cancelledBefore) {
      notifications.push({
        amount,
        eventCode: 'AUTHORISATION',
        eventDate: new Date().toISOString(),
        merchantAccountCode: this.account.merchantAccount,
        merchantReference: reference,
        paymentMethod: 'visa',
        pspReference: psp,
        reason: refusal ? refusal.reason : `${additionalData.authCode}:1111:12/2031`,
        success: resultCode === 'Authorised' ? 'true' : 'false',
        ...(additionalData.authCode ? { additionalData: { authCode: additionalData.authCode } } : {}),
      } as Omit<NotificationItem, 'additionalData'>);
    }
    return {
      status: 200,
      body: {
        pspReference: psp,
        resultCode,
        merchantReference: reference,
        amount,
        additionalData,
        ...(refusal && !cancelledBefore ? { refusalReason: refusal.reason, refusalReasonCode: refusal.code } : {}),
      },
    };
  }

  /** A cancel by our reference: cancels what is not captured; a payment not seen yet is refused when it comes. */
  private technicalCancel(
    body: Record<string, unknown>,
    notifications: Array<Omit<NotificationItem, 'additionalData'>>,
  ): { status: number; body: unknown } {
    const paymentReference = String(body.paymentReference);
    const payment = this.paymentByReference(paymentReference);
    const psp = pspReference();
    let success = true;
    if (!payment) this.cancelledReferences.add(paymentReference);
    else if (payment.state === 'authorised' && payment.capturedCents === 0) payment.state = 'cancelled';
    else if (payment.state === 'authorised') success = false;
    notifications.push({
      amount: { currency: 'USD', value: payment?.authorisedCents ?? 0 },
      eventCode: 'TECHNICAL_CANCEL',
      eventDate: new Date().toISOString(),
      merchantAccountCode: this.account.merchantAccount,
      merchantReference: paymentReference,
      ...(payment ? { originalReference: payment.psp } : {}),
      paymentMethod: 'visa',
      pspReference: psp,
      reason: success ? '' : 'Transaction already captured',
      success: success ? 'true' : 'false',
    } as Omit<NotificationItem, 'additionalData'>);
    return {
      status: 201,
      body: {
        merchantAccount: this.account.merchantAccount,
        paymentReference,
        pspReference: psp,
        ...(body.reference ? { reference: body.reference } : {}),
        status: 'received',
      },
    };
  }

  private modify(
    what: string,
    payment: FakePayment,
    body: Record<string, unknown>,
    notifications: Array<Omit<NotificationItem, 'additionalData'>>,
  ): { status: number; body: unknown } {
    const psp = pspReference();
    const amount = (body.amount as { currency: string; value: number } | undefined) ?? {
      currency: 'USD',
      value: payment.authorisedCents,
    };
    const reference = body.reference ? String(body.reference) : undefined;
    const open = payment.state === 'authorised';
    let eventCode: string;
    let success: boolean;
    let reason = '';
    switch (what) {
      case 'captures':
        eventCode = 'CAPTURE';
        success = open && !payment.autoCapture && amount.value <= payment.authorisedCents - payment.capturedCents;
        if (success) payment.capturedCents += amount.value;
        else reason = 'Insufficient balance on payment';
        break;
      case 'cancels':
        eventCode = 'CANCELLATION';
        success = open && payment.capturedCents === 0;
        if (success) payment.state = 'cancelled';
        else reason = 'Transaction already captured';
        break;
      case 'reversals':
        eventCode = 'CANCEL_OR_REFUND';
        success = open;
        if (success && payment.capturedCents > 0) payment.refundedCents = payment.capturedCents;
        if (success) payment.state = 'cancelled';
        break;
      case 'refunds':
        eventCode = 'REFUND';
        success = amount.value <= payment.capturedCents - payment.refundedCents;
        if (success) payment.refundedCents += amount.value;
        else reason = 'Insufficient balance on payment';
        break;
      default:
        eventCode = 'AUTHORISATION_ADJUSTMENT';
        success = open && payment.capturedCents === 0;
        if (success) payment.authorisedCents = amount.value;
        else reason = 'Amount update not allowed after capture';
    }
    notifications.push({
      amount,
      eventCode,
      eventDate: new Date().toISOString(),
      merchantAccountCode: this.account.merchantAccount,
      merchantReference: reference ?? payment.reference,
      originalReference: payment.psp,
      paymentMethod: 'visa',
      pspReference: psp,
      reason,
      success: success ? 'true' : 'false',
    } as Omit<NotificationItem, 'additionalData'>);
    return {
      status: 201,
      body: {
        merchantAccount: this.account.merchantAccount,
        paymentPspReference: payment.psp,
        pspReference: psp,
        ...(reference ? { reference } : {}),
        ...(what === 'reversals' || what === 'cancels' ? {} : { amount }),
        status: 'received',
      },
    };
  }

  private answer(res: ServerResponse, operation: string, status: number, body: unknown): void {
    // The text sent is what is checked, parsed back as Tessera will parse it (checking a built object can also be
    // slow: see FakeNotifier.deliver).
    const text = body === undefined ? undefined : JSON.stringify(body);
    for (const problem of responseErrors(operation, status, text === undefined ? undefined : JSON.parse(text))) {
      this.violations.push(`answer ${operation} ${status}: ${problem}`);
    }
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  }
}

function operationOf(path: string): string | undefined {
  if (path === '/v71/payments') return 'POST /payments';
  if (path === '/v71/cancels') return 'POST /cancels';
  const m = MODIFICATION.exec(path);
  return m ? `POST /payments/{paymentPspReference}/${m[2]}` : undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function error(status: number, errorCode: string, message: string, errorType: string) {
  return { status, errorCode, message, errorType };
}

const PSP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // 32 symbols: one per five bits of a random byte

function pspReference(): string {
  return drawRandom(16, (bytes, at) => {
    let psp = '';
    for (let i = 0; i < 16; i++) psp += PSP_ALPHABET[bytes[at + i]! & 31];
    return psp;
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
