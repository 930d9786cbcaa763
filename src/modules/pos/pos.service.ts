import { isNodeAlive } from '../../platform/cluster/node-liveness.js';
import { newId } from '../../platform/crypto/ids.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import type { QueueDefinition } from '../../platform/jobs/runner.js';
import { fromCents } from '../../platform/money.js';
import type { RequestClaim } from '../payments/payment-request.js';
import { cardProcessor, unsupported } from '../payments/processors.js';
import {
  CARD_NOT_PRESENT_SOURCES,
  CreateMethod,
  type Transaction,
  TransactionStatus,
} from '../payments/transactions.model.js';
import { TerminalMode } from '../terminals/terminals.model.js';
import { posQueues } from './pos.jobs.js';
import { FOLLOW_UPS, isFinal, type PosListFilter, PosStatus, type PosTransaction, PosType } from './pos.model.js';
import {
  findInProgressOn,
  findPos,
  findPosByRequestClaim,
  insertPos,
  listPos,
  movePos,
  type NewPos,
} from './pos.repo.js';
import type { PosDeps } from './pos-context.js';
import type { PosTerminalSide } from './pos-terminal-side.js';
import { runSandboxAction, type SandboxAction } from './sandbox-actions.js';

/** What a create asks for: a new POS transaction's fields but its id and creation time. */
export type PosDraft = Omit<NewPos, 'id' | 'createdAt'>;

/** How long a create with `waitForAcceptanceByTerminal` waits for the terminal to accept or decline. */
export const ACCEPTANCE_WAIT_MS = 30_000;

export class PosService {
  constructor(
    private readonly deps: PosDeps,
    private readonly side: PosTerminalSide,
    /** How long `GET ...?waitForTransactionProcessing=true` holds a request at most. */
    readonly longPollMs: number,
  ) {}

  /**
   * A POS transaction on a SemiIntegrated, online terminal of the merchant; one at a time per terminal (a second,
   * even at the same instant, is refused). Sent to the terminal; with `waitForAcceptance`, answered once the terminal
   * accepts or declines (or after ACCEPTANCE_WAIT_MS).
   */
  async create(draft: PosDraft, waitForAcceptance: boolean, claim?: RequestClaim): Promise<PosTransaction> {
    if (claim?.recovering) {
      // The retry of a create that was cut off: the transaction it made, not "already in progress" (its own).
      const made = await findPosByRequestClaim(this.deps.pool, draft.merchantId, claim.id);
      if (made) return this.read(draft.merchantId, made.id, false);
    }
    const terminal = await this.deps.terminals.get(draft.merchantId, draft.terminalId);
    if (terminal.deactivatedAt) throw ValidationError.field('terminalId', 'The terminal is deactivated.');
    if (terminal.modeId !== TerminalMode.SemiIntegrated) {
      throw ValidationError.field(
        'terminalId',
        'The terminal is Standalone: only a SemiIntegrated terminal takes POS transactions.',
      );
    }
    await this.check(draft);
    const presence = await this.deps.terminals.presence(terminal);
    if (!presence.online) throw ValidationError.field('terminalId', 'The terminal is offline.');
    const id = newId();
    const createdAt = this.deps.clock.now();
    const inserted = await insertPos(this.deps.pool, { id, ...draft, createdAt }, claim?.id ?? null);
    if (!inserted) {
      throw ValidationError.field('terminalId', 'A POS transaction is already in progress on this terminal.');
    }
    // The row as inserted (not read back: the terminal hears of it only from the start below).
    const pos: PosTransaction = {
      id,
      ...draft,
      statusId: PosStatus.TerminalConnecting,
      transactionId: null,
      cardDataSourceId: null,
      errorMessage: null,
      processingNode: null,
      createdAt,
      modifiedAt: createdAt,
      acceptedAt: null,
      completedAt: null,
    };
    await this.side.start(pos, terminal, presence.virtual);
    if (!waitForAcceptance) return pos;
    return this.deps.waiters.until(
      id,
      async () => (await findPos(this.deps.pool, id))!,
      (row) => row.statusId !== PosStatus.TerminalConnecting,
      ACCEPTANCE_WAIT_MS,
    );
  }

  async get(merchantId: string, id: string): Promise<PosTransaction> {
    const pos = await findPos(this.deps.pool, id, merchantId);
    if (!pos) throw new NotFoundError('POS transaction', id);
    return pos;
  }

  /**
   * The transaction; with `wait`, once it is final or the long-poll bound passed (`waitForTransactionProcessing`). A
   * payment whose node died is settled first (the sweep would, within 15 s): the answer comes within seconds.
   */
  async read(merchantId: string, id: string, wait: boolean): Promise<PosTransaction> {
    if (!wait) {
      const pos = await this.get(merchantId, id);
      return (await this.settledIfOrphaned(pos)) ? this.get(merchantId, id) : pos;
    }
    // The long-poll's first look is the orphan check's read too (one read, not two, per request).
    let first = true;
    return this.deps.waiters.until(
      id,
      async () => {
        const pos = await this.get(merchantId, id);
        if (!first) return pos;
        first = false;
        return (await this.settledIfOrphaned(pos)) ? this.get(merchantId, id) : pos;
      },
      (row) => isFinal(row.statusId),
      this.longPollMs,
    );
  }

  /** Settles a payment whose node died (true), so that the answer comes within seconds, not at the sweep. */
  private async settledIfOrphaned(pos: PosTransaction): Promise<boolean> {
    if (
      pos.statusId !== PosStatus.TransactionSentToProcessor ||
      pos.processingNode === null ||
      (await isNodeAlive(this.deps.pool, pos.processingNode))
    ) {
      return false;
    }
    await this.side.process(null, pos, null, true).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, posTransactionId: pos.id }, 'POS: could not settle an orphaned payment');
    });
    return true;
  }

  list(filter: PosListFilter, page: PageRequest) {
    return listPos(this.deps.pool, filter, page);
  }

  /** Only before the card is read (exactly one of a cancel and a read wins); final or being paid → 400. */
  async cancel(merchantId: string, id: string): Promise<PosTransaction> {
    const moved = await movePos(
      this.deps.pool,
      id,
      [PosStatus.TerminalConnecting, PosStatus.TransactionProcessing],
      PosStatus.CancelByPos,
      this.deps.clock.now(),
      { merchantId },
    );
    if (!moved) {
      const now = await this.get(merchantId, id);
      throw ValidationError.field(
        'posTransactionId',
        isFinal(now.statusId)
          ? 'The POS transaction is final.'
          : 'The card has been read: the payment is being processed and can no longer be cancelled.',
      );
    }
    await this.deps.channel.send(moved.terminalId, { type: 'transaction.cancel', posTransactionId: id });
    return moved;
  }

  /** A completed transaction's receipt, printed again on its terminal. Out of paper: 400 and terminal.out_of_paper. */
  async print(merchantId: string, id: string, terminalId?: string): Promise<void> {
    const pos = await this.get(merchantId, id);
    if (terminalId !== undefined && terminalId !== pos.terminalId) {
      throw ValidationError.field('terminalId', 'The POS transaction was made on another terminal.');
    }
    if (pos.statusId !== PosStatus.Completed || !pos.transactionId) {
      throw ValidationError.field('posTransactionId', 'Only a Completed POS transaction has a receipt to print.');
    }
    const terminal = await this.deps.terminals.get(merchantId, pos.terminalId);
    const presence = await this.deps.terminals.presence(terminal);
    if (!presence.online) throw ValidationError.field('terminalId', 'The terminal is offline.');
    if (presence.report?.paperOut) {
      await this.deps.terminals.outOfPaper(terminal);
      throw ValidationError.field('terminalId', 'The terminal is out of paper.');
    }
    const transaction = await this.deps.transactions.get(merchantId, pos.transactionId);
    const message = await this.side.resultMessage(pos, transaction);
    if (message.type === 'transaction.result' && message.receipt) {
      await this.deps.channel.send(pos.terminalId, {
        type: 'receipt.print',
        posTransactionId: id,
        receipt: message.receipt,
      });
    }
  }

  /** How many requests this node holds waiting for a POS transaction (long-polls and accepting creates). */
  get waiting(): number {
    return this.deps.waiters.size;
  }

  /** Whether a POS transaction is in progress on the terminal (its status reads Busy). */
  async busy(terminal: { merchantId: string; id: string }): Promise<boolean> {
    return (await findInProgressOn(this.deps.pool, terminal)) !== null;
  }

  /** The POS job queues (the sweep of transactions left waiting). */
  queues(): QueueDefinition[] {
    return posQueues(this.deps, this.side);
  }

  /** The sandbox operator's control of a terminal (sandbox-actions.ts). */
  sandboxAction(terminalId: string, action: SandboxAction): Promise<void> {
    return runSandboxAction(this.deps, this.side, terminalId, action);
  }

  private async check(draft: PosDraft): Promise<void> {
    if (FOLLOW_UPS.has(draft.typeId)) {
      if (!draft.targetTransactionId) {
        throw ValidationError.field(
          'targetTransactionId',
          "'targetTransactionId' is required for Capture, Void and Refund.",
        );
      }
      const target = await this.deps.transactions.get(draft.merchantId, draft.targetTransactionId);
      if (!target || !cardPresent(target)) {
        throw ValidationError.field(
          'targetTransactionId',
          "'targetTransactionId' is not a card-present transaction of this merchant.",
        );
      }
      if (draft.typeId === PosType.Refund) refundableOrRefused(target, draft.amountCents);
    } else if (draft.amountCents === null || draft.amountCents <= 0) {
      throw ValidationError.field('amount', "'amount' is required and must be greater than 0.");
    } else {
      // Refused before the cardholder is asked for a card: a processor that cannot take card-present payments
      // (Adyen until its Terminal API is driven; docs/connectors.md) or this kind of payment.
      const configuration = await this.deps.merchants.getConfiguration(draft.merchantId);
      const processor = cardProcessor(configuration, draft.processorId);
      const operation = draft.typeId === PosType.Authorization ? 'authorize' : 'sale';
      const refused = unsupported(processor, operation, { cardPresent: true });
      if (refused) throw ValidationError.field('paymentProcessorId', refused);
    }
    if (draft.typeId === PosType.Void && draft.amountCents !== null) {
      throw ValidationError.field('amount', 'A void takes no amount: it voids the whole transaction.');
    }
    if (
      (draft.tipCents || draft.tipRateMpct) &&
      !(await this.deps.merchants.getConfiguration(draft.merchantId)).settings.isTipsEnabled
    ) {
      throw ValidationError.field('tipAmount', 'Tips are not enabled for this merchant.');
    }
    if (draft.requestStorageConsent && !draft.customerId) {
      throw ValidationError.field(
        'customerId',
        "'customerId' is required to save the card ('requestPaymentMethodStorageConsent').",
      );
    }
    if (draft.customerId) await this.deps.customers.get(draft.merchantId, draft.customerId);
  }
}

/**
 * A refund is refused at create when the payments core would refuse it after the tap (as `/transactions/return`
 * refuses it at once): the cardholder is not asked to present a card for a refund that cannot be made.
 */
function refundableOrRefused(target: Transaction, amountCents: number | null): void {
  if (target.statusId !== TransactionStatus.Captured && target.statusId !== TransactionStatus.Settled) {
    throw ValidationError.field('targetTransactionId', 'Only a captured or settled sale can be refunded.');
  }
  const available = target.capturedCents - target.refundedCents;
  if (available <= 0) throw ValidationError.field('amount', 'Nothing is left to refund.');
  if (amountCents !== null && amountCents > available) {
    throw ValidationError.field(
      'amount',
      `The refund exceeds the refundable amount ${fromCents(available).toFixed(2)}.`,
    );
  }
}

/** A transaction made on a terminal (or with a card read in person). */
function cardPresent(t: Transaction): boolean {
  return (
    t.method === 'card' &&
    (t.createMethodId === CreateMethod.Terminal ||
      (t.cardDataSourceId !== null && !CARD_NOT_PRESENT_SOURCES.has(t.cardDataSourceId)))
  );
}
