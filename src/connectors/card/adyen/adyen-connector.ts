import type {
  CallOptions,
  CardConnector,
  CardOutcome,
  CloseBatchRequest,
  FollowUpRequest,
  PaymentRequest,
  QueryResult,
  ResolveContext,
} from '../card-connector.js';
import { AdyenHttp, AdyenUnavailable } from './adyen-http.js';
import type { AdyenCredentials, AdyenSettings } from './adyen-settings.js';
import {
  type AdyenModificationResponse,
  type AdyenPaymentResponse,
  type AdyenServiceError,
  amountUpdateRequest,
  captureRequest,
  idempotencyKey,
  paymentOutcome,
  paymentRequest,
  refundRequest,
  refusedRequest,
  reversalRequest,
  technicalCancelRequest,
} from './adyen-wire.js';

/** Where the connector finds a processor's settings and opened credentials for one call (the processors module). */
export interface ProcessorAccessSource {
  access(
    processorId: string,
  ): Promise<{ settings: Record<string, unknown>; credentials: Record<string, string> | null }>;
}

/**
 * How long Adyen keeps an idempotency key (its documentation says at least 7 days). Sending a modification again to
 * settle an unknown outcome is safe only inside it; after 6 days the connector refuses to, and the operator settles
 * the operation (docs/connectors.md, "Unknown outcomes").
 */
export const IDEMPOTENCY_WINDOW_MS = 6 * 24 * 3_600_000;

/**
 * Adyen's Checkout API behind the card connector interface (docs/connectors.md). Payments answer at once;
 * captures, cancels, refunds and amount updates answer "received" and are decided by Adyen's notification. Adyen has
 * no status query: an unknown payment is settled by a technical cancel by our reference (never a second
 * authorisation), an unknown modification by sending it again under the same idempotency key.
 */
export class AdyenConnector implements CardConnector {
  private readonly http = new AdyenHttp();

  constructor(
    private readonly processors: ProcessorAccessSource,
    /** Adyen requires a return URL on every payment (for redirects Tessera never follows). */
    private readonly returnUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  authorize(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.pay('authorize', request, options);
  }

  sale(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.pay('sale', request, options);
  }

  verify(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.pay('verify', request, options);
  }

  capture(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.modify(request, 'captures', captureRequest, options);
  }

  /** A reversal (cancel or refund, as Adyen finds the payment); by our reference when Adyen's is not known. */
  void(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    if (!request.originalNetworkReference) {
      return this.call(request.processorId, '/cancels', request.reference, options, (settings) =>
        technicalCancelRequest(request.originalReference, request.reference, settings),
      );
    }
    return this.modify(request, 'reversals', reversalRequest, options);
  }

  refund(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.modify(request, 'refunds', refundRequest, options);
  }

  async refundWithoutReference(): Promise<CardOutcome> {
    // The payments core refuses it first (the catalog says Adyen does not do it); this is the last word.
    return { kind: 'failed', responseCode: '57', message: 'Adyen does not refund without a payment to refund.' };
  }

  tipAdjust(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.modify(request, 'amountUpdates', amountUpdateRequest, options);
  }

  /** Adyen settles on its side: closing a batch records what Tessera captured in it, without a call. */
  async closeBatch(request: CloseBatchRequest): Promise<CardOutcome> {
    return {
      kind: 'approved',
      responseCode: '00',
      message: 'Recorded: Adyen settles on its side',
      authCode: '',
      networkReference: request.batchId,
      approvedCents: request.salesCents - request.refundsCents,
      avs: null,
    };
  }

  /** Adyen has no status query: nothing is ever found (a retried modification is sent again, idempotently). */
  async query(): Promise<QueryResult> {
    return { found: false };
  }

  async resolve(reference: string, options?: CallOptions, context?: ResolveContext): Promise<QueryResult> {
    if (!context) throw new Error('Adyen resolves an operation only with its context');
    if (['sale', 'authorize', 'verify', 'refund-without-reference'].includes(context.operation)) {
      const outcome = await this.call(context.processorId, '/cancels', `${reference}:technical-cancel`, options, (s) =>
        technicalCancelRequest(reference, `${reference}:technical-cancel`, s),
      );
      return this.settled(outcome, true);
    }
    if (this.now().getTime() - Date.parse(context.startedAt) > IDEMPOTENCY_WINDOW_MS) {
      throw new Error(
        `The ${context.operation} ${reference} is older than Adyen's idempotency window: sending it again could ` +
          'repeat it; the operator must settle it (docs/connectors.md)',
      );
    }
    const request = context.followUp!;
    const again =
      context.operation === 'capture'
        ? this.capture(request, options)
        : context.operation === 'void'
          ? this.void(request, options)
          : context.operation === 'refund'
            ? this.refund(request, options)
            : this.tipAdjust(request, options);
    return this.settled(await again);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /**
   * An answer to a question the reconciler asked: unknown again throws, so the reconciler asks later. A technical
   * cancel Adyen refused to take (a 4xx) says nothing of the payment either: it throws too, and is tried again (a
   * payment is never concluded uncharged without Adyen's word). A re-sent modification Adyen refuses was never taken
   * (a repeated idempotency key gets the first answer), so that refusal is its outcome.
   */
  private settled(outcome: CardOutcome, cancel = false): QueryResult {
    if (outcome.kind === 'unknown') throw new AdyenUnavailable(outcome.message);
    if (cancel && outcome.kind !== 'received')
      throw new Error(`Adyen did not take the technical cancel: ${outcome.message}`);
    return { found: true, outcome };
  }

  private async pay(
    kind: 'sale' | 'authorize' | 'verify',
    request: PaymentRequest,
    options: CallOptions | undefined,
  ): Promise<CardOutcome> {
    const { settings, credentials } = await this.open(request.processorId);
    const answer = await this.http.post<AdyenPaymentResponse>(
      `${baseOf(settings)}/payments`,
      paymentRequest(kind, request, settings, this.returnUrl),
      { apiKey: credentials.apiKey, idempotencyKey: idempotencyKey(request.reference) },
      options?.signal,
    );
    if (answer.status !== 200) return refusedRequest(answer.status, answer.body as AdyenServiceError | undefined);
    return paymentOutcome((answer.body ?? {}) as AdyenPaymentResponse, kind === 'verify' ? 0 : request.amountCents);
  }

  private modify(
    request: FollowUpRequest,
    what: 'captures' | 'reversals' | 'refunds' | 'amountUpdates',
    build: (request: FollowUpRequest, settings: AdyenSettings) => unknown,
    options: CallOptions | undefined,
  ): Promise<CardOutcome> {
    const psp = request.originalNetworkReference;
    if (!psp) {
      return Promise.resolve({
        kind: 'failed',
        responseCode: '96',
        message: 'The payment has no Adyen reference to act on.',
      });
    }
    return this.call(
      request.processorId,
      `/payments/${encodeURIComponent(psp)}/${what}`,
      request.reference,
      options,
      (settings) => build(request, settings),
    );
  }

  /** A modification: Adyen answers 201 "received" (its notification decides), or refuses the request (4xx). */
  private async call(
    processorId: string,
    path: string,
    reference: string,
    options: CallOptions | undefined,
    build: (settings: AdyenSettings) => unknown,
  ): Promise<CardOutcome> {
    const { settings, credentials } = await this.open(processorId);
    const answer = await this.http.post<AdyenModificationResponse>(
      `${baseOf(settings)}${path}`,
      build(settings),
      { apiKey: credentials.apiKey, idempotencyKey: idempotencyKey(reference) },
      options?.signal,
    );
    if (answer.status !== 201 && answer.status !== 200) {
      return refusedRequest(answer.status, answer.body as AdyenServiceError | undefined);
    }
    const body = answer.body as AdyenModificationResponse | undefined;
    return {
      kind: 'received',
      responseCode: '00',
      message: 'Received: the processor decides in its notification',
      processorReference: body?.pspReference ?? null,
    };
  }

  private async open(processorId: string): Promise<{ settings: AdyenSettings; credentials: AdyenCredentials }> {
    const { settings, credentials } = await this.processors.access(processorId);
    if (!credentials) throw new Error(`Adyen processor ${processorId} has no credentials`);
    return { settings: settings as AdyenSettings, credentials: credentials as AdyenCredentials };
  }
}

function baseOf(settings: AdyenSettings): string {
  return `${settings.baseUrl.replace(/\/+$/, '')}/v${settings.apiVersion}`;
}
