import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { dictionary } from '../../platform/dictionary.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { defineQueue } from '../../platform/jobs/define.js';
import { withFields } from '../../platform/objects.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { ZeroCostProcessingOption } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { aboveMaximum, calculateAmount } from '../payments/amounts.js';
import type { RequestClaim } from '../payments/payment-request.js';
import { findActiveProcessor } from '../payments/processors.js';
import type { Transaction } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { SessionWriter } from './session-writer.js';
import {
  type PaymentSession,
  type SessionDraft,
  SessionMode,
  type SessionSettings,
  SessionStatus,
  TAX_MODE_NAMES,
  TaxMode,
} from './sessions.model.js';
import {
  cancelSession,
  expireIfDue,
  expireSession,
  findExpired,
  findSession,
  findSessionByIdempotencyId,
  freshSession,
  insertSessionQuery,
  isSessionIdempotencyIdTaken,
} from './sessions.repo.js';

/** A session's expiry at its `expiresAt` (one job per session). */
export const sessionExpireQueue = defineQueue<{ sessionId: string }>('sessions.expire');
/** Every minute: payments left in flight by a node that died, and expiries that were missed. */
export const sessionSweepQueue = defineQueue<{ slot: string }>('sessions.sweep');

export interface SessionsDeps {
  pool: Pool;
  clock: Clock;
  config: Config;
  logger: Logger;
  merchants: MerchantsService;
  customers: CustomersService;
  transactions: TransactionsService;
}

/** A session with the payments made through it (what retrieval shows). */
export interface SessionView {
  session: PaymentSession;
  /** The payment that completed it, else the latest attempt. */
  transaction: Transaction | undefined;
  attempts: Transaction[];
}

const PLACEHOLDER = '{{paymentSessionId}}';

/**
 * Payment sessions through the merchant's API: create (either surface), retrieve, cancel, and the clock's expiry.
 * Paying a session is the payer's side (session-payments.ts).
 */
export class PaymentSessionsService {
  private readonly writer: SessionWriter;

  constructor(private readonly deps: SessionsDeps) {
    this.writer = new SessionWriter(deps.pool, deps.clock, (sessions) =>
      sessionExpireQueue.enqueueManyQuery(
        deps.clock,
        sessions.map((session) => ({
          payload: { sessionId: session.id },
          options: { runAt: session.expiresAt!, singletonKey: session.id },
        })),
      ),
    );
  }

  /**
   * With an idempotency claim, the session carries it: a retry whose first attempt was cut off (`recovering`) answers
   * with the session that attempt created, if it committed, instead of creating a second one.
   */
  async create(draft: SessionDraft, claim?: RequestClaim): Promise<PaymentSession> {
    if (claim?.recovering) {
      const earlier = await findSessionByIdempotencyId(this.deps.pool, draft.merchantId, claim.id);
      if (earlier) return earlier;
    }
    const configuration = await this.deps.merchants.getConfiguration(draft.merchantId);
    const now = this.deps.clock.now();
    const resolved = this.check(draft, configuration, now);
    // A customer named by id must be this merchant's (another merchant's id answers 404, like any other id).
    if (resolved.customerId) await this.deps.customers.get(draft.merchantId, resolved.customerId);
    const id = newId();
    if (resolved.returnUrl) resolved.returnUrl = resolved.returnUrl.replaceAll(PLACEHOLDER, id);
    // A session a source opens for a page visit (a payment link) is written with COMMIT (one round trip in all),
    // without waiting for the WAL flush: lost in a crash, the payer's reload opens another (docs/links.md).
    if (resolved.paymentSource !== null && !claim) {
      return withTransaction(this.deps.pool, async (tx) => {
        tx.defer({ text: 'SET LOCAL synchronous_commit = off' });
        tx.defer(insertSessionQuery(id, resolved, now, null));
        return freshSession(id, resolved, now);
      });
    }
    return this.writer
      .create({ id, settings: resolved, now, idempotencyId: claim?.id ?? null })
      .catch(async (error: unknown) => {
        if (!claim || !isSessionIdempotencyIdTaken(error)) throw error;
        return (await findSessionByIdempotencyId(this.deps.pool, draft.merchantId, claim.id))!;
      });
  }

  /** Every rule of both create requests that needs the merchant's configuration or the clock; 400s name the field. */
  private check(draft: SessionDraft, configuration: MerchantConfiguration, now: Date): SessionSettings {
    const errors: Record<string, string[]> = dictionary();
    const add = (field: string, message: string) => {
      errors[field] ??= [];
      errors[field].push(message);
    };
    const settings = configuration.settings;
    const paying = draft.mode !== SessionMode.SaveMethod;

    if (!paying) {
      if (draft.amountCents !== 0) {
        add('amount', "'amount' must be 0 for a SaveMethod session: it vaults a payment method and charges nothing.");
      }
    } else if (draft.amountCents !== null && draft.amountCents <= 0) {
      add('amount', "'amount' must be greater than 0 (or null for an amount the payer enters).");
    }

    if (draft.tipCents !== null) {
      if (draft.tipCents <= 0) add('tipAmount', "'tipAmount' must be greater than 0 when present.");
      else if (!paying) add('tipAmount', 'A tip does not apply to a SaveMethod session.');
      else if (!settings.isTipsEnabled) add('tipAmount', 'Tips are not enabled for this merchant.');
    }

    const taxGiven = draft.taxRateMpct !== null || draft.taxCents !== null;
    if (draft.taxRateMpct !== null && draft.taxCents !== null) {
      add('taxRate', "Send either 'taxRate' or 'taxAmount', not both.");
    } else if (draft.taxMode === null && taxGiven) {
      add('taxMode', "'taxMode' is required with 'taxRate' or 'taxAmount'.");
    } else if (draft.taxMode !== null && !taxGiven) {
      add('taxMode', "'taxMode' needs exactly one of 'taxRate' or 'taxAmount' (or omit all three).");
    }
    if (taxGiven && !paying) add('taxMode', 'Tax does not apply to a SaveMethod session.');
    if (draft.taxCents !== null && draft.amountCents === null) {
      add('taxAmount', "'taxAmount' needs a fixed 'amount' (a flexible session can use 'taxRate').");
    }
    if (
      draft.taxMode === TaxMode.Inclusive &&
      draft.taxCents !== null &&
      draft.amountCents !== null &&
      draft.taxCents > draft.amountCents
    ) {
      add('taxAmount', "An inclusive 'taxAmount' cannot be more than the amount that includes it.");
    }

    if (draft.expiresAt && draft.expiresAt.getTime() <= now.getTime()) {
      add('expiresAt', "'expiresAt' must be in the future.");
    }

    let returnUrl = draft.returnUrl;
    if (returnUrl !== null) {
      returnUrl = returnUrl.trim();
      const problem = returnUrlProblem(returnUrl, this.deps.config.env);
      if (problem) add('returnUrl', problem);
    }

    const offers = (method: 'card' | 'ach') =>
      typeof findActiveProcessor(configuration, method, null, 'processorId') !== 'string';
    const card = { ...draft.card, enabled: draft.card.enabled ?? offers('card') };
    const ach = { ...draft.ach, enabled: draft.ach.enabled ?? offers('ach') };
    if (!card.enabled && !ach.enabled) {
      add('paymentMethods', 'Enable at least one payment method: paymentMethods.card or paymentMethods.ach.');
    }
    if (card.enabled) {
      const processor = findActiveProcessor(configuration, 'card', card.processorId, 'processorId');
      if (typeof processor === 'string') add('paymentMethods.card.processorId', processor);
      else card.processorId = processor.id;
    } else card.processorId = null;
    if (ach.enabled) {
      const processor = findActiveProcessor(configuration, 'ach', ach.processorId, 'processorId');
      if (typeof processor === 'string') add('paymentMethods.ach.processorId', processor);
      else ach.processorId = processor.id;
    } else {
      ach.processorId = null;
      ach.fasterProcessing = false;
    }

    const max = settings.maxTransactionAmountCents;
    if (paying && draft.amountCents !== null && draft.amountCents > 0 && max !== null && !errors.amount) {
      const total = calculateAmount({
        baseCents: draft.amountCents,
        tipCents: draft.tipCents,
        zeroCostOptionId: ZeroCostProcessingOption.None,
        tender: 'cash',
        taxMode: draft.taxMode === TaxMode.Inclusive ? 'inclusive' : 'exclusive',
        taxRateMpct: draft.taxRateMpct,
        taxCents: draft.taxCents,
      }).totalCents;
      const tooMuch = aboveMaximum(total, max);
      if (tooMuch) add('amount', tooMuch);
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    // The default lifetime counts from the creation instant itself, so createdAt + lifetime = expiresAt exactly.
    const expiresAt =
      draft.expiresAt ?? (draft.defaultLifetimeMs === null ? null : new Date(now.getTime() + draft.defaultLifetimeMs));
    return withFields(draft, { expiresAt, returnUrl, card, ach });
  }

  /** Retrieval on either surface; an expired session turns Cancelled here if the clock's job has not run yet. */
  async get(merchantId: string, id: string): Promise<SessionView> {
    const session = await this.current(merchantId, id);
    // Every attempt that reached the processor leaves its transaction id on the session, so a session without one
    // has no payments to list (the common case: spared a query).
    // A session paying for another source (an invoice): its payments carry that source; the ones since it opened.
    const source = session.paymentSource;
    const attempts = session.transactionId
      ? (await this.deps.transactions.bySource(merchantId, source?.id ?? id)).filter(
          (t) => !source || t.createdAt >= session.createdAt,
        )
      : [];
    const transaction = attempts.find((t) => t.id === session.transactionId) ?? attempts.at(-1);
    return { session, transaction, attempts };
  }

  private async current(merchantId: string, id: string): Promise<PaymentSession> {
    const session = await findSession(this.deps.pool, merchantId, id);
    if (!session) throw new NotFoundError('PaymentSession', id);
    return expireIfDue(this.deps.pool, session, this.deps.clock.now());
  }

  /** Created → Cancelled. Any other state, or a payment in flight, is a 400 (the session is left as it is). */
  async cancel(merchantId: string, id: string): Promise<void> {
    const session = await this.current(merchantId, id);
    if (session.status !== SessionStatus.Created) {
      throw new ValidationError(
        { paymentSessionId: ['Payment Session can be canceled only in Created status.'] },
        'Payment Session can be canceled only in Created status.',
        'InvalidSessionState',
      );
    }
    if (!(await cancelSession(this.deps.pool, merchantId, id, this.deps.clock.now()))) {
      const again = await this.current(merchantId, id);
      const message =
        again.status === SessionStatus.Created
          ? 'A payment on this session is being processed; it cannot be cancelled now.'
          : 'Payment Session can be canceled only in Created status.';
      throw new ValidationError({ paymentSessionId: [message] }, message, 'InvalidSessionState');
    }
  }

  /** The clock: an open session past its expiry is cancelled by itself (unless a payment is in flight). */
  async expire(id: string): Promise<PaymentSession | undefined> {
    const expired = await expireSession(this.deps.pool, id, this.deps.clock.now());
    if (expired) this.deps.logger.info({ paymentSessionId: id }, 'payment session expired');
    return expired;
  }

  /** Backstop for expiry jobs that could not run (e.g. a payment held the session at its expiry). */
  async expireOverdue(limit = 500): Promise<number> {
    let count = 0;
    for (const id of await findExpired(this.deps.pool, this.deps.clock.now(), limit)) {
      if (await this.expire(id)) count++;
    }
    return count;
  }
}

export function taxModeName(mode: number | null): 'Exclusive' | 'Inclusive' | null {
  return mode === null ? null : TAX_MODE_NAMES[mode]!;
}

/** https:// in production; sandbox also takes http:// (local development). No credentials in the URL. */
export function returnUrlProblem(value: string, env: Config['env']): string | undefined {
  let url: URL;
  try {
    url = new URL(value.replaceAll(PLACEHOLDER, '00000000-0000-0000-0000-000000000000'));
  } catch {
    return "'returnUrl' must be an absolute URL.";
  }
  const allowed = env === 'production' ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) {
    return env === 'production'
      ? "'returnUrl' must be an https:// URL."
      : "'returnUrl' must be an https:// (or, in sandbox, http://) URL.";
  }
  if (url.username || url.password) return "'returnUrl' must not carry a user name or password.";
  return undefined;
}
