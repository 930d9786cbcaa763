import type { Span } from '@opentelemetry/api';
import { annotate, inSpan, SpanKind } from '../platform/observability/tracing.js';
import type { AchConnector } from './ach/ach-connector.js';
import type { BankDropBox, DropBoxSession } from './ach/bank-drop-box.js';
import type { CallOptions, CardConnector, CardOutcome } from './card/card-connector.js';

/** How long Tessera waits for a processor before treating the outcome as unknown (and reconciling later). */
export const CONNECTOR_TIMEOUT_MS = 30_000;
/** How long a file exchange with a bank may take (a file of many entries over SFTP), before the job tries again. */
export const BANK_TIMEOUT_MS = 120_000;

/** Told of every card payment operation a connector carried out (metrics). */
export interface CardCallObserver {
  /**
   * `outcome`: the answer's kind (approved, declined, failed, unknown, received), `error` when the call threw, or
   * `timeout` when its deadline came first. Both of the last two leave the payment's outcome unknown.
   */
  cardCall(connector: string, operation: CardCallOperation, outcome: string, seconds: number): void;
}

export type CardCallOperation =
  | 'authorize'
  | 'sale'
  | 'verify'
  | 'capture'
  | 'void'
  | 'refund'
  | 'refund-without-reference'
  | 'tip-adjust'
  | 'close-batch';

export interface ConnectorDeadlines {
  /** A card processor's lookups (`query`, `resolve`); its payment operations run under callWithDeadline. */
  cardMs: number;
  /** Every call to a bank (submitting a file, collecting and acknowledging return files). */
  bankMs: number;
}

/**
 * Connector implementations by the name a payment processor record carries (`payment_processors.connector`).
 * Adding a real processor means registering one more implementation here; the domain code does not change. What
 * it hands out runs every call under a deadline (a hanging processor or bank holds nothing past it): the payment
 * operations through callWithDeadline in the payments driver, everything else here, where a call past its deadline
 * rejects with DeadlineError (the reconciler or the job asks again later).
 */
export class Connectors {
  private readonly cardsWithDeadlines = new Map<string, CardConnector>();
  private readonly banksWithDeadlines = new Map<string, AchConnector>();
  private readonly bankMs: number;

  constructor(
    cards: ReadonlyMap<string, CardConnector>,
    banks: ReadonlyMap<string, AchConnector> = new Map(),
    deadlines: ConnectorDeadlines = { cardMs: CONNECTOR_TIMEOUT_MS, bankMs: BANK_TIMEOUT_MS },
    private readonly dropBoxes: ReadonlyMap<string, BankDropBox> = new Map(),
    observer?: CardCallObserver,
  ) {
    for (const [name, card] of cards) {
      const observed = observer ? observedCard(name, card, observer) : card;
      this.cardsWithDeadlines.set(name, cardWithDeadlines(observed, deadlines.cardMs));
    }
    for (const [name, bank] of banks) this.banksWithDeadlines.set(name, bankWithDeadlines(bank, deadlines.bankMs));
    this.bankMs = deadlines.bankMs;
  }

  ach(name: string): AchConnector {
    const connector = this.banksWithDeadlines.get(name);
    if (!connector) throw new Error(`No ACH connector named "${name}" is installed`);
    return connector;
  }

  /**
   * A session with a processor's bank drop box (nacha-sftp) for `work`, under the bank deadline like every bank call:
   * at the deadline the session closes (what is in flight fails) and this rejects with DeadlineError; the session
   * closes when `work` ends either way.
   */
  async withDropBox<T>(name: string, processorId: string, work: (session: DropBoxSession) => Promise<T>): Promise<T> {
    const dropBox = this.dropBoxes.get(name);
    if (!dropBox) throw new Error(`No bank drop box named "${name}" is installed`);
    return withDeadline(async (signal) => {
      const session = await dropBox.open(processorId, { signal });
      signal.addEventListener('abort', () => session.close(), { once: true });
      try {
        return await work(session);
      } finally {
        session.close();
      }
    }, this.bankMs);
  }

  card(name: string): CardConnector {
    const connector = this.cardsWithDeadlines.get(name);
    if (!connector) throw new Error(`No card connector named "${name}" is installed`);
    return connector;
  }
}

/** The caller's signal (if any) and the deadline's, as one: either aborts the call. */
function both(deadline: AbortSignal, caller: AbortSignal | undefined): AbortSignal {
  return caller ? AbortSignal.any([deadline, caller]) : deadline;
}

function cardWithDeadlines(card: CardConnector, ms: number): CardConnector {
  return {
    authorize: (request, options) => card.authorize(request, options),
    sale: (request, options) => card.sale(request, options),
    verify: (request, options) => card.verify(request, options),
    capture: (request, options) => card.capture(request, options),
    void: (request, options) => card.void(request, options),
    refund: (request, options) => card.refund(request, options),
    refundWithoutReference: (request, options) => card.refundWithoutReference(request, options),
    tipAdjust: (request, options) => card.tipAdjust(request, options),
    closeBatch: (request, options) => card.closeBatch(request, options),
    query: (reference, options) =>
      withDeadline((signal) => card.query(reference, { signal: both(signal, options?.signal) }), ms),
    resolve: (reference, options, context) =>
      withDeadline((signal) => card.resolve(reference, { signal: both(signal, options?.signal) }, context), ms),
  };
}

/**
 * Each operation calls the connector's method when it runs (not a reference taken now), as the plain wrapper does.
 * Times each payment operation from the call until its answer, or until its signal aborts (the deadline): a connector
 * that ignores the signal is still counted once, as a timeout.
 */
function observedCard(name: string, card: CardConnector, observer: CardCallObserver): CardConnector {
  const timed =
    <R extends { kind: string }, Q>(
      operation: CardCallOperation,
      call: (request: Q, options?: CallOptions) => Promise<R>,
    ): ((request: Q, options?: CallOptions) => Promise<R>) =>
    (request, options) =>
      inSpan(
        `card ${operation}`,
        { 'tessera.connector': name, 'tessera.operation': operation },
        (span) => observe(operation, call, request, options, span),
        SpanKind.CLIENT,
      );
  const observe = <R extends { kind: string }, Q>(
    operation: CardCallOperation,
    call: (request: Q, options?: CallOptions) => Promise<R>,
    request: Q,
    options: CallOptions | undefined,
    span: Span | undefined,
  ): Promise<R> => {
    const started = performance.now();
    let told = false;
    const tell = (outcome: string) => {
      if (told) return;
      told = true;
      annotate(span, { 'tessera.outcome': outcome });
      observer.cardCall(name, operation, outcome, (performance.now() - started) / 1000);
    };
    const signal = options?.signal;
    const onAbort = () => tell('timeout');
    signal?.addEventListener('abort', onAbort, { once: true });
    return call(request, options).then(
      (outcome) => {
        signal?.removeEventListener('abort', onAbort);
        tell(outcome.kind);
        return outcome;
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        tell('error');
        throw error;
      },
    );
  };
  return {
    authorize: timed('authorize', (r, o) => card.authorize(r, o)),
    sale: timed('sale', (r, o) => card.sale(r, o)),
    verify: timed('verify', (r, o) => card.verify(r, o)),
    capture: timed('capture', (r, o) => card.capture(r, o)),
    void: timed('void', (r, o) => card.void(r, o)),
    refund: timed('refund', (r, o) => card.refund(r, o)),
    refundWithoutReference: timed('refund-without-reference', (r, o) => card.refundWithoutReference(r, o)),
    tipAdjust: timed('tip-adjust', (r, o) => card.tipAdjust(r, o)),
    closeBatch: timed('close-batch', (r, o) => card.closeBatch(r, o)),
    query: (reference, options) => card.query(reference, options),
    resolve: (reference, options, context) => card.resolve(reference, options, context),
  };
}

function bankWithDeadlines(bank: AchConnector, ms: number): AchConnector {
  return {
    // Past the deadline the job sends it again: a bank takes a file id once, so an arrived file is not sent twice.
    submit: (file, options) =>
      withDeadline((signal) => bank.submit(file, { signal: both(signal, options?.signal) }), ms),
    returnFiles: (processorId, options) =>
      withDeadline((signal) => bank.returnFiles(processorId, { signal: both(signal, options?.signal) }), ms),
    // Importing a return file again changes nothing, so a lost acknowledgment only offers the files once more.
    acknowledge: (processorId, fileIds, options) =>
      withDeadline((signal) => bank.acknowledge(processorId, fileIds, { signal: both(signal, options?.signal) }), ms),
  };
}

/**
 * Runs any connector call with a deadline: at the deadline its signal aborts (the connector drops the request) and
 * this rejects with DeadlineError, whether or not the connector heeds the signal. Every call to a processor or a bank
 * goes through here or callWithDeadline: a connector that hangs holds no request, job or sweep for longer.
 */
export async function withDeadline<T>(call: (signal: AbortSignal) => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineError(timeoutMs);
      deadline.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(deadline.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a payment operation with a deadline. At the deadline the call's signal aborts (the connector drops the
 * request) and the outcome is unknown; a call that fails is unknown too. Either way the reconciler asks the processor
 * later (with `resolve`, under a deadline of its own).
 */
export async function callWithDeadline(
  call: (signal: AbortSignal) => Promise<CardOutcome>,
  timeoutMs = CONNECTOR_TIMEOUT_MS,
): Promise<CardOutcome> {
  try {
    return await withDeadline(call, timeoutMs);
  } catch (error) {
    const late = error instanceof DeadlineError;
    return {
      kind: 'unknown',
      responseCode: late ? '91' : '96',
      message: late ? 'No answer from the processor in time' : `Processor unreachable: ${(error as Error).message}`,
    };
  }
}

export class DeadlineError extends Error {
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'DeadlineError';
  }
}
