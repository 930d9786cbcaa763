import { createHash } from 'node:crypto';
import type { AvsResult, CardOutcome, FollowUpRequest, PaymentRequest } from '../card-connector.js';
import type { AdyenSettings } from './adyen-settings.js';

// Adyen's Checkout API (version 71) as the connector speaks it: the requests it builds and how it reads the answers.
// Field names, types and enums are Adyen's (CheckoutService-v71.json); the fake of Adyen checks every request and
// answer against the facts extracted from that document (test/fakes/adyen). The mapping tables are in
// docs/connectors.md.

export interface AdyenAmount {
  currency: string;
  value: number;
}

export interface AdyenPaymentRequest {
  amount: AdyenAmount;
  merchantAccount: string;
  reference: string;
  paymentMethod: {
    type: 'scheme';
    number: string;
    expiryMonth: string;
    expiryYear: string;
    cvc?: string;
  };
  returnUrl: string;
  shopperInteraction: 'Ecommerce';
  billingAddress?: {
    street: string;
    houseNumberOrName: string;
    postalCode: string;
    city: string;
    country: string;
    stateOrProvince?: string;
  };
  captureDelayHours?: number;
  additionalData?: Record<string, string>;
}

export interface AdyenPaymentResponse {
  pspReference?: string;
  resultCode?: string;
  refusalReason?: string;
  refusalReasonCode?: string;
  amount?: AdyenAmount;
  merchantReference?: string;
  additionalData?: Record<string, string>;
}

/** A capture, cancel, refund, reversal or amount update: Adyen answers each with `status: received`. */
export interface AdyenModificationResponse {
  pspReference: string;
  status: 'received';
  merchantAccount: string;
}

export interface AdyenServiceError {
  status?: number;
  errorCode?: string;
  message?: string;
  errorType?: string;
  pspReference?: string;
}

const CURRENCY = 'USD';

/**
 * Our references as Adyen keeps them: Adyen takes at most 80 characters, and a modification's reference
 * (`<transaction id>:<operation>:<claim id>`) can be longer, so each UUID goes without its dashes. Reversible:
 * a notification's merchantReference comes back to the reference Tessera recorded.
 */
export function toAdyenReference(reference: string): string {
  return reference.replace(
    /\b([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\b/gi,
    '$1$2$3$4$5',
  );
}

export function fromAdyenReference(reference: string): string {
  return reference.replace(
    /\b([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})\b/gi,
    '$1-$2-$3-$4-$5',
  );
}

/** Adyen's Idempotency-Key (at most 64 characters): a digest of our reference, the same for every retry of it. */
export function idempotencyKey(reference: string): string {
  return createHash('sha256').update(`tessera:${reference}`).digest('hex');
}

function amount(cents: number): AdyenAmount {
  return { currency: CURRENCY, value: cents };
}

/** `/payments` for a sale, an authorization or a zero-amount verification. */
export function paymentRequest(
  kind: 'sale' | 'authorize' | 'verify',
  request: PaymentRequest,
  settings: AdyenSettings,
  returnUrl: string,
): AdyenPaymentRequest {
  const card = request.card;
  const body: AdyenPaymentRequest = {
    amount: amount(kind === 'verify' ? 0 : request.amountCents),
    merchantAccount: settings.merchantAccount,
    reference: toAdyenReference(request.reference),
    paymentMethod: {
      type: 'scheme',
      number: card.pan,
      expiryMonth: String(card.expirationMonth).padStart(2, '0'),
      expiryYear: String(card.expirationYear),
      ...(card.securityCode ? { cvc: card.securityCode } : {}),
    },
    returnUrl,
    shopperInteraction: 'Ecommerce',
  };
  const avs = request.avs;
  if (avs && (avs.line1 || avs.postalCode)) {
    body.billingAddress = {
      street: avs.line1 ?? '',
      houseNumberOrName: '',
      postalCode: avs.postalCode ?? '',
      city: avs.city ?? '',
      country: avs.country ?? 'US',
      ...(avs.state ? { stateOrProvince: avs.state } : {}),
    };
  }
  if (kind === 'sale') {
    body.captureDelayHours = settings.captureMode === 'delayed' ? (settings.captureDelayHours ?? 0) : 0;
  } else {
    // An authorization waits for Tessera's capture; a verification is never captured.
    body.additionalData = { manualCapture: 'true' };
  }
  return body;
}

export function captureRequest(request: FollowUpRequest, settings: AdyenSettings) {
  return {
    merchantAccount: settings.merchantAccount,
    amount: amount(request.amountCents),
    reference: toAdyenReference(request.reference),
  };
}

export function refundRequest(request: FollowUpRequest, settings: AdyenSettings) {
  return captureRequest(request, settings);
}

/** An amount update: the new total of an authorized payment (a tip added before capture). */
export function amountUpdateRequest(request: FollowUpRequest, settings: AdyenSettings) {
  return captureRequest(request, settings);
}

export function reversalRequest(request: FollowUpRequest, settings: AdyenSettings) {
  return { merchantAccount: settings.merchantAccount, reference: toAdyenReference(request.reference) };
}

/** `/cancels` by our reference of the payment (no pspReference needed): a technical cancel. */
export function technicalCancelRequest(paymentReference: string, ownReference: string, settings: AdyenSettings) {
  return {
    merchantAccount: settings.merchantAccount,
    paymentReference: toAdyenReference(paymentReference),
    reference: toAdyenReference(ownReference),
  };
}

/** Adyen's refusal reason codes as the response codes Tessera shows (ISO 8583 where one fits; else `A<code>`). */
const REFUSAL_CODES: Readonly<Record<string, string>> = {
  '2': '05',
  '3': '01',
  '4': '06',
  '5': '62',
  '6': '54',
  '7': '13',
  '8': '14',
  '9': '91',
  '10': '57',
  '12': '51',
  '14': '59',
  '20': '59',
  '22': '59',
  '23': '57',
  '24': 'N7',
  '25': '62',
  '26': 'R1',
  '27': '05',
  '28': '61',
  '29': '65',
  '31': '59',
};

export function responseCodeOfRefusal(code: string | undefined): string {
  if (!code) return '05';
  return REFUSAL_CODES[code] ?? `A${code}`;
}

/** Adyen's AVS result codes (the number before the text of `additionalData.avsResult`) as Tessera's Y/A/Z/N/U. */
const AVS_CODES: Readonly<Record<string, AvsResult['responseCode']>> = {
  '0': 'U',
  '1': 'A',
  '2': 'N',
  '3': 'U',
  '4': 'U',
  '5': 'U',
  '6': 'Z',
  '7': 'Y',
  '8': 'U',
  '9': 'A',
  '10': 'N',
  '11': 'U',
  '12': 'A',
  '13': 'N',
  '14': 'Z',
  '15': 'N',
  '16': 'Z',
  '17': 'N',
  '18': 'U',
  '19': 'Z',
  '20': 'Y',
  '21': 'A',
  '22': 'N',
  '23': 'Z',
  '24': 'Y',
  '25': 'A',
  '26': 'N',
};

export function avsOf(avsResult: string | undefined): AvsResult | null {
  if (!avsResult) return null;
  const code = /^\s*(\d+)/.exec(avsResult)?.[1];
  const responseCode = (code && AVS_CODES[code]) || 'U';
  return { responseCode, description: avsResult.replace(/^\s*\d+\s*/, '') || avsResult };
}

/** What a `/payments` answer (HTTP 200) means for the payment. */
export function paymentOutcome(answer: AdyenPaymentResponse, requestedCents: number): CardOutcome {
  const extra = answer.additionalData ?? {};
  const avs = avsOf(extra.avsResult);
  switch (answer.resultCode) {
    case 'Authorised':
      return {
        kind: 'approved',
        responseCode: '00',
        message: 'Authorised',
        authCode: extra.authCode ?? '',
        networkReference: answer.pspReference ?? '',
        approvedCents: answer.amount?.value ?? requestedCents,
        avs,
      };
    case 'Refused':
      return {
        kind: 'declined',
        responseCode: responseCodeOfRefusal(answer.refusalReasonCode),
        message: answer.refusalReason ?? 'Refused',
        avs,
      };
    case 'Error':
    case 'Cancelled':
      return { kind: 'failed', responseCode: '96', message: answer.refusalReason ?? answer.resultCode };
    case 'Received':
    case 'Pending':
      return {
        kind: 'received',
        responseCode: '00',
        message: `${answer.resultCode}: the processor decides in its notification`,
        processorReference: answer.pspReference ?? null,
      };
    case 'RedirectShopper':
    case 'IdentifyShopper':
    case 'ChallengeShopper':
    case 'PresentToShopper':
      // Never authorised without the shopper's action, which Tessera does not take: nothing is charged.
      return {
        kind: 'failed',
        responseCode: '96',
        message: `The processor asks for a shopper action (${answer.resultCode}, e.g. 3-D Secure), which Tessera does not take.`,
      };
    default:
      // Anything else (a partial authorisation Tessera never asks for included) is settled like a lost answer.
      return {
        kind: 'unknown',
        responseCode: '96',
        message: `Unexpected answer from the processor: ${answer.resultCode ?? 'none'}`,
      };
  }
}

/** A refusal of the request itself (HTTP 4xx): nothing was done. */
export function refusedRequest(status: number, error: AdyenServiceError | undefined): CardOutcome {
  const what =
    status === 401 || status === 403 ? 'The processor refused the credentials' : 'The processor refused the request';
  return {
    kind: 'failed',
    responseCode: '96',
    message: `${what} (${status}${error?.errorCode ? ` ${error.errorCode}` : ''}${error?.message ? `: ${error.message}` : ''}).`,
  };
}
