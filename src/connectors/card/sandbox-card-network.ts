import { createHash } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import type { Clock } from '../../platform/clock/clock.js';
import { Grouped } from '../../platform/db/grouped.js';
import type { Pool } from '../../platform/db/pool.js';
import { commitWithoutFlushWait } from '../../platform/db/tx.js';
import type {
  AvsRequest,
  AvsResult,
  CallOptions,
  CardConnector,
  CardOutcome,
  CloseBatchRequest,
  FollowUpRequest,
  PaymentRequest,
  QueryResult,
} from './card-connector.js';
import { isExpired, luhnValid } from './card-numbers.js';
import type { SandboxNetworkConditions } from './sandbox-conditions.js';

/**
 * The sandbox card network: a deterministic simulator of an acquirer and the card networks behind it. Which card
 * number gives which answer is the test card table below (documented in docs/sandbox.md). It remembers every
 * operation (table sandbox_card_network) so `query` can answer for calls whose response was lost.
 */
export interface TestCard {
  pan: string;
  outcome: 'approve' | 'decline' | 'fail' | 'timeout' | 'system-error';
  responseCode: string;
  message: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { pan: '4111111111111111', outcome: 'approve', responseCode: '00', message: 'Approved' },
  { pan: '4000000030010005', outcome: 'approve', responseCode: '00', message: 'Approved (Visa Commercial, L3)' },
  { pan: '4000000010050005', outcome: 'decline', responseCode: '05', message: 'Do not honor' },
  { pan: '4000000010510008', outcome: 'decline', responseCode: '51', message: 'Insufficient funds' },
  { pan: '4000000010140004', outcome: 'decline', responseCode: '14', message: 'Invalid card number' },
  { pan: '4000000010540005', outcome: 'decline', responseCode: '54', message: 'Expired card' },
  { pan: '4000000010040006', outcome: 'decline', responseCode: '04', message: 'Pickup card (lost)' },
  { pan: '4000000010430009', outcome: 'decline', responseCode: '43', message: 'Stolen card' },
  { pan: '4000000010620005', outcome: 'decline', responseCode: '62', message: 'Card restricted' },
  { pan: '4000000010570002', outcome: 'decline', responseCode: '57', message: 'Transaction not permitted' },
  { pan: '4000000020010007', outcome: 'decline', responseCode: '01', message: 'Referral required' },
  { pan: '4000000020910008', outcome: 'timeout', responseCode: '91', message: 'Timeout' },
  { pan: '4000000020960003', outcome: 'system-error', responseCode: '96', message: 'System error' },
  { pan: '4000000020190007', outcome: 'fail', responseCode: '19', message: 'Re-enter transaction' },
  { pan: '5555555555554444', outcome: 'decline', responseCode: 'BN', message: 'DeclineBinNotFound' },
  // The vendor's table has it, although its checksum fails: recognised before the checksum (isSandboxTestCard).
  { pan: '4000000010990008', outcome: 'decline', responseCode: '05', message: 'CVV mismatch' },
];
const BY_PAN = new Map(TEST_CARDS.map((card) => [card.pan, card]));

/** A number of the sandbox's test card table: the sandbox takes it whatever its checksum says (the vendor's does). */
export function isSandboxTestCard(pan: string): boolean {
  return BY_PAN.has(pan);
}

/** Security code that declines any otherwise approving card as a CVV mismatch. */
export const CVV_MISMATCH_CODE = '000';
export const AVS_MATCH = { line1: '123 Test St', postalCode: '10001' } as const;

export function sandboxAvs(request: AvsRequest | null): AvsResult {
  const line1 = request?.line1?.trim().toLowerCase().replace(/\s+/g, ' ') ?? '';
  const postal = request?.postalCode?.trim().slice(0, 5) ?? '';
  if (!line1 && !postal) return { responseCode: 'U', description: 'Address information unavailable' };
  const lineMatches = line1 === AVS_MATCH.line1.toLowerCase();
  const postalMatches = postal === AVS_MATCH.postalCode;
  if (lineMatches && postalMatches) return { responseCode: 'Y', description: 'Address and ZIP code match' };
  if (lineMatches) return { responseCode: 'A', description: 'Address matches, ZIP code does not' };
  if (postalMatches) return { responseCode: 'Z', description: 'ZIP code matches, address does not' };
  return { responseCode: 'N', description: 'Neither address nor ZIP code match' };
}

/** The record `resolve` leaves for a reference it found nothing for: any later call with it is refused. */
const REVERSED = 'reversed';
const REVERSED_MESSAGE = 'Reversed by reference before the operation arrived; nothing was charged.';
const reversed = (): CardOutcome => ({ kind: 'failed', responseCode: '96', message: REVERSED_MESSAGE });

function authCodeFor(reference: string): string {
  return createHash('sha256').update(`auth:${reference}`).digest('hex').slice(0, 6).toUpperCase();
}

interface Remembered {
  reference: string;
  operation: string;
  originalReference: string | null;
  amountCents: number;
  outcome: CardOutcome;
}

export class SandboxCardNetwork implements CardConnector {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly latencyMs: number,
    /** The operator's latency spikes (optional: without them, the configured latency only). */
    private readonly conditions?: SandboxNetworkConditions,
  ) {}

  /**
   * The simulated network keeps its own books as a real one would, written in groups: calls arriving together are
   * remembered in one statement, and each answer waits for its record (a query must always find what was answered).
   */
  private readonly records = new Grouped<Remembered, boolean>(async (records) => {
    // Committed without waiting for the disk: nothing is answered before the payment's own synchronous commit that
    // follows, which makes this record durable too (WAL is flushed in order). A crash before it loses the record and
    // the payment's outcome together; the payment is then resolved by reference as never having reached the network.
    const { rows } = await commitWithoutFlushWait<{ reference: string }>(this.pool, {
      name: 'sandbox.remember',
      text: `INSERT INTO sandbox_card_network AS n (reference, operation, original_reference, amount_cents, outcome)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[])
             ON CONFLICT (reference) DO UPDATE SET outcome = EXCLUDED.outcome, amount_cents = EXCLUDED.amount_cents
               WHERE n.operation <> '${REVERSED}'
             RETURNING reference`,
      values: [
        records.map((r) => r.reference),
        records.map((r) => r.operation),
        records.map((r) => r.originalReference),
        records.map((r) => r.amountCents),
        records.map((r) => JSON.stringify(r.outcome)),
      ],
    });
    const written = new Set(rows.map((row) => row.reference));
    return records.map((r) => written.has(r.reference));
  });

  authorize(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.payment('authorize', request, options?.signal);
  }

  sale(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.payment('sale', request, options?.signal);
  }

  verify(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.payment('verify', { ...request, amountCents: 0 }, options?.signal);
  }

  refundWithoutReference(request: PaymentRequest, options?: CallOptions): Promise<CardOutcome> {
    // Credits to a card skip AVS and CVV; the card itself must be good.
    return this.payment(
      'refund-without-reference',
      { ...request, avs: null, card: { ...request.card, securityCode: null } },
      options?.signal,
    );
  }

  capture(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.followUp(
      'capture',
      request,
      (original) => (request.amountCents <= original.amount_cents ? null : 'Capture exceeds the authorized amount'),
      options?.signal,
    );
  }

  void(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.followUp('void', request, () => null, options?.signal);
  }

  refund(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.followUp('refund', request, () => null, options?.signal);
  }

  tipAdjust(request: FollowUpRequest, options?: CallOptions): Promise<CardOutcome> {
    return this.followUp('tip-adjust', request, () => null, options?.signal);
  }

  async closeBatch(request: CloseBatchRequest, options?: CallOptions): Promise<CardOutcome> {
    await this.leg(options?.signal);
    const outcome: CardOutcome = {
      kind: 'approved',
      responseCode: '00',
      message: 'Batch closed successfully',
      authCode: '',
      networkReference: `SBXB${authCodeFor(request.batchId)}`,
      approvedCents: request.salesCents - request.refundsCents,
      avs: null,
    };
    await this.remember(`batch:${request.batchId}`, 'close-batch', null, outcome.approvedCents, outcome);
    await this.leg(options?.signal);
    return outcome;
  }

  async resolve(reference: string): Promise<QueryResult> {
    const refusal: CardOutcome = { kind: 'failed', responseCode: '96', message: REVERSED_MESSAGE };
    const { rowCount } = await this.pool.query(
      `INSERT INTO sandbox_card_network (reference, operation, original_reference, amount_cents, outcome)
       VALUES ($1, '${REVERSED}', NULL, 0, $2) ON CONFLICT (reference) DO NOTHING`,
      [reference, JSON.stringify(refusal)],
    );
    return rowCount === 1 ? { found: false } : this.query(reference);
  }

  async query(reference: string): Promise<QueryResult> {
    const { rows } = await this.pool.query<{ outcome: CardOutcome }>(
      'SELECT outcome FROM sandbox_card_network WHERE reference = $1',
      [reference],
    );
    return rows[0] ? { found: true, outcome: rows[0].outcome } : { found: false };
  }

  private async payment(operation: string, request: PaymentRequest, signal?: AbortSignal): Promise<CardOutcome> {
    await this.leg(signal);
    const { card } = request;
    const avs = request.avs ? sandboxAvs(request.avs) : null;
    const decline = (responseCode: string, message: string): CardOutcome => ({
      kind: 'declined',
      responseCode,
      message,
      avs,
    });
    let outcome: CardOutcome;
    const scenario = BY_PAN.get(card.pan);
    if (!scenario && !luhnValid(card.pan)) outcome = decline('14', 'Invalid card number');
    else if (scenario?.outcome === 'system-error') {
      // The request never reached the issuer: nothing is remembered, so a query finds nothing.
      return { kind: 'unknown', responseCode: scenario.responseCode, message: scenario.message };
    } else if (scenario?.outcome === 'fail') {
      outcome = { kind: 'failed', responseCode: scenario.responseCode, message: scenario.message };
    } else if (scenario?.outcome === 'decline') outcome = decline(scenario.responseCode, scenario.message);
    else if (isExpired(card.expirationMonth, card.expirationYear, this.clock.now())) {
      outcome = decline('54', 'Expired card');
    } else if (card.securityCode === CVV_MISMATCH_CODE) outcome = decline('05', 'CVV mismatch');
    else {
      outcome = {
        kind: 'approved',
        responseCode: '00',
        message: operation === 'verify' ? 'Card verified' : 'Approved',
        authCode: authCodeFor(request.reference),
        networkReference: `SBX${authCodeFor(`net:${request.reference}`)}`,
        approvedCents: request.amountCents,
        avs,
      };
    }
    const recorded = await this.remember(request.reference, operation, null, request.amountCents, outcome);
    await this.leg(signal);
    if (!recorded) return reversed();
    if (scenario?.outcome === 'timeout') {
      // The issuer approved, but the answer is lost on the way back: only a query tells.
      return { kind: 'unknown', responseCode: scenario.responseCode, message: scenario.message };
    }
    return outcome;
  }

  private async followUp(
    operation: string,
    request: FollowUpRequest,
    check: (original: { amount_cents: number }) => string | null,
    signal?: AbortSignal,
  ): Promise<CardOutcome> {
    await this.leg(signal);
    const { rows } = await this.pool.query<{ amount_cents: number; outcome: CardOutcome }>(
      'SELECT amount_cents, outcome FROM sandbox_card_network WHERE reference = $1',
      [request.originalReference],
    );
    const original = rows[0];
    let outcome: CardOutcome;
    if (original?.outcome.kind !== 'approved') {
      outcome = { kind: 'failed', responseCode: '12', message: 'Invalid transaction: original not found' };
    } else {
      const problem = check(original);
      outcome = problem
        ? { kind: 'declined', responseCode: '13', message: problem, avs: null }
        : {
            kind: 'approved',
            responseCode: '00',
            message: 'Approved',
            authCode: authCodeFor(request.reference),
            networkReference: `SBX${authCodeFor(`net:${request.reference}:${operation}`)}`,
            approvedCents: request.amountCents,
            avs: null,
          };
    }
    const recorded = await this.remember(
      request.reference,
      operation,
      request.originalReference,
      request.amountCents,
      outcome,
    );
    await this.leg(signal);
    return recorded ? outcome : reversed();
  }

  private async remember(
    reference: string,
    operation: string,
    originalReference: string | null,
    amountCents: number,
    outcome: CardOutcome,
  ): Promise<boolean> {
    return this.records.submit({ reference, operation, originalReference, amountCents, outcome });
  }

  /**
   * Half the configured latency: a call spends one half on the way to the network and the other on the way back,
   * with the network's record written in between. A caller that dies in the second half leaves an operation the
   * network did (its answer lost), as a real one would.
   */
  private async leg(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const latencyMs = this.latencyMs + (this.conditions?.extraLatencyMs() ?? 0);
    if (latencyMs > 0) await setTimeout(latencyMs / 2, undefined, { signal });
  }
}
