/**
 * What Tessera asks of a card processor. A real processor adapter (TSYS, ...) and the sandbox card network implement
 * the same interface; the domain never knows which one it talks to. Every call carries our own `reference` (the
 * transaction id, or the refund's id) so that an answer lost in transit can be looked up with `query`.
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

export type CardOutcome = ApprovedOutcome | DeclinedOutcome | FailedOutcome | UnknownOutcome;

export interface FollowUpRequest {
  /** The id of the operation itself (the transaction for capture/void/tip, the refund's own id for a refund). */
  reference: string;
  /** The authorization or sale it acts on. */
  originalReference: string;
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
   * cannot succeed after we were told "not found". Reconciliation uses this one.
   */
  resolve(reference: string, options?: CallOptions): Promise<QueryResult>;
}
