/**
 * What Tessera asks of a card processor. A real processor's connector (Adyen, card/adyen/) and the sandbox card
 * network implement the same interface; the domain never knows which one it talks to, only what it can do
 * (connectors/catalog.ts). Every call carries our own `reference` (the transaction id, or the refund's id), which the
 * processor keeps, so that an answer lost in transit can be found again (`query`, `resolve`, a notification).
 */
export interface CardData {
  pan: string;
  expirationMonth: number;
  expirationYear: number;
  /** Only in memory, only for the call in flight: never stored, logged or queued. */
  securityCode?: string | null;
}

export interface AvsRequest {
  line1: string | null;
  postalCode: string | null;
  /** The rest of the billing address, for processors that take it whole (Adyen). */
  city?: string | null;
  state?: string | null;
  /** ISO 3166-1 alpha-2. */
  country?: string | null;
}

/** The network's answer to an address check; the merchant's AVS profile decides what it means. */
export interface AvsResult {
  /** Y full match, A address only, Z postal code only, N no match, U unavailable. */
  responseCode: 'Y' | 'A' | 'Z' | 'N' | 'U';
  description: string;
}

export interface PaymentRequest {
  reference: string;
  merchantId: string;
  processorId: string;
  amountCents: number;
  card: CardData;
  /** Card not present requests carry the billing address for AVS. */
  avs: AvsRequest | null;
  cardPresent: boolean;
  /** Level 2 / Level 3 data for the processor (commercial cards qualify for lower interchange with it). */
  enhancedData: EnhancedData | null;
}

/** One line item of Level 3 data. */
export interface EnhancedProduct {
  name: string | null;
  code: string | null;
  unitPriceCents: number | null;
  measurementUnit: string | null;
  quantity: number | null;
  taxCents: number | null;
  discountRateMpct: number | null;
  description: string | null;
}

/**
 * Level 2 (sales tax) and Level 3 (order and line items) data of a card payment. Informational for the processor:
 * it changes no amount. `autofilled` names the fields the merchant's autofill settings supplied.
 */
export interface EnhancedData {
  salesTaxRateMpct: number | null;
  invoiceNumber: string | null;
  purchaseOrder: string | null;
  shippingCents: number | null;
  dutyCents: number | null;
  products: EnhancedProduct[];
  autofilled: Array<'salesTaxRate' | 'shippingCharges' | 'dutyCharges' | 'products'>;
}

export interface ApprovedOutcome {
  kind: 'approved';
  responseCode: string;
  message: string;
  authCode: string;
  networkReference: string;
  approvedCents: number;
  avs: AvsResult | null;
}

/** The network said no; nothing was charged. */
export interface DeclinedOutcome {
  kind: 'declined';
  responseCode: string;
  message: string;
  avs: AvsResult | null;
}

/** The network answered with an error; nothing was charged. */
export interface FailedOutcome {
  kind: 'failed';
  responseCode: string;
  message: string;
}

/** No usable answer (timeout, system error): the operation may or may not have happened. Ask with `query`. */
export interface UnknownOutcome {
  kind: 'unknown';
  responseCode: string;
  message: string;
}

/**
 * The processor took the request and will say what became of it in a notification (Adyen's modifications answer
 * "received"): nothing is decided yet, and nothing is shown as done until the notification comes.
 */
export interface ReceivedOutcome {
  kind: 'received';
  responseCode: string;
  message: string;
  /** The processor's reference of the request it took (Adyen's pspReference of the modification). */
  processorReference: string | null;
}

export type CardOutcome = ApprovedOutcome | DeclinedOutcome | FailedOutcome | UnknownOutcome | ReceivedOutcome;

export interface FollowUpRequest {
  /** The id of the operation itself (the transaction for capture/void/tip, the refund's own id for a refund). */
  reference: string;
  /** The authorization or sale it acts on. */
  originalReference: string;
  /** The processor's own reference of that payment (what the processor answered it with), when it gave one. */
  originalNetworkReference?: string | null;
  merchantId: string;
  processorId: string;
  amountCents: number;
}

export interface CloseBatchRequest {
  merchantId: string;
  processorId: string;
  batchId: string;
  salesCents: number;
  refundsCents: number;
  transactionCount: number;
}

export type QueryResult = { found: false } | { found: true; outcome: CardOutcome };

/**
 * What `resolve` may need to know of the operation beyond its reference: what it was, and for a capture, void,
 * refund or tip change the request itself (a processor without a status query settles those by sending the very
 * same request again under the same idempotency key).
 */
export interface ResolveContext {
  operation:
    | 'sale'
    | 'authorize'
    | 'verify'
    | 'refund'
    | 'refund-without-reference'
    | 'capture'
    | 'void'
    | 'tip-adjust';
  processorId: string;
  merchantId: string;
  followUp?: FollowUpRequest;
  /** When the operation was first sent (a processor's idempotency window is counted from it). */
  startedAt: string;
}

/**
 * What a processor's notification says, whatever the processor (Adyen's notification items, mapped by its connector):
 * which request of ours it is about, what happened, and the processor's references.
 */
export interface ProcessorNotification {
  kind:
    | 'authorisation'
    | 'authorisation-adjustment'
    | 'capture'
    | 'capture-failed'
    | 'cancellation'
    | 'cancel-or-refund'
    | 'refund'
    | 'refund-failed'
    | 'technical-cancel'
    | 'chargeback'
    | 'other';
  /** The processor's own name of the event (AUTHORISATION, CAPTURE, ...). */
  eventCode: string;
  success: boolean;
  /** Our reference of the request it is about (the `reference` we sent). */
  reference: string;
  /** The processor's reference of this event's request (a modification's own pspReference). */
  processorReference: string;
  /** The processor's reference of the payment it acts on (null for the payment's own event). */
  originalProcessorReference: string | null;
  amountCents: number;
  currency: string;
  reason: string | null;
  eventDate: string;
  /** For an authorisation: the approval's details, as a payment call's answer would carry them. */
  authCode?: string | null;
  avs?: AvsResult | null;
}

/** Per call: `signal` aborts the call at its deadline (a connector stops waiting and drops the request). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface CardConnector {
  authorize(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome>;
  sale(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome>;
  /** Zero-amount card authentication: card valid, CVV and AVS checked, nothing held. */
  verify(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome>;
  capture(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome>;
  void(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome>;
  refund(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome>;
  refundWithoutReference(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome>;
  /** Changes the tip on an authorized or captured, unsettled transaction; `amountCents` is the new total. */
  tipAdjust(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome>;
  closeBatch(request: CloseBatchRequest, options?: CallOptions): Promise<CardOutcome>;
  /** What the processor recorded of an operation, if anything (a plain lookup). */
  query(reference: string, options?: CallOptions): Promise<QueryResult>;
  /**
   * What became of an operation whose answer we never got, as a final answer: when the processor has no record of
   * it, the processor also refuses that reference from then on (a reversal by reference), so a call still on its way
   * cannot succeed after we were told "not found". Reconciliation uses this one. A processor that decides by
   * notification answers `received` (a technical cancel sent, or the modification sent again): its notification
   * settles the operation.
   */
  resolve(reference: string, options?: CallOptions, context?: ResolveContext): Promise<QueryResult>;
}
