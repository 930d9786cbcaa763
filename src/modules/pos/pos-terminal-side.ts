import { AppError, ValidationError } from '../../platform/http/errors.js';
import type { PaymentResult } from '../payments/payments.service.js';
import { receipt } from '../payments/transactions.mapper.js';
import type { Transaction } from '../payments/transactions.model.js';
import type { CardMessage, ServerMessage } from '../terminals/channel/protocol.js';
import type { TerminalEvents } from '../terminals/channel/terminal-channel.js';
import type { Terminal } from '../terminals/terminals.model.js';
import {
  type CardRead,
  POS_STATUS_NAMES,
  POS_TYPE_NAMES,
  PosStatus,
  type PosTransaction,
  PosType,
  READS_CARD,
  ReadingMethod,
} from './pos.model.js';
import { findInProgressOn, findPos, movePos } from './pos.repo.js';
import type { PosDeps } from './pos-context.js';
import { CARD_DATA_SOURCE_OF, payPos } from './pos-payment.js';

const WAITING = [PosStatus.TerminalConnecting, PosStatus.TransactionProcessing];

/**
 * The terminal's side of a POS transaction: sending it to the terminal (or to the sandbox's virtual terminal), what
 * the terminal answers, the payment a card read starts, and the result sent back for the receipt.
 */
export class PosTerminalSide implements TerminalEvents {
  constructor(private readonly deps: PosDeps) {}

  /** Sends the transaction to its terminal: over the channel, or (sandbox, no socket) to the virtual terminal. */
  async start(pos: PosTransaction, terminal: Terminal, virtual: boolean): Promise<void> {
    if (!virtual) {
      await this.deps.channel.send(terminal.id, startMessage(pos));
      return;
    }
    // The virtual terminal accepts at once and reads the card presented ahead of the transaction, if any.
    void this.runVirtual(pos, terminal).catch((error: unknown) =>
      this.deps.logger.error({ err: error, posTransactionId: pos.id }, 'virtual terminal failed'),
    );
  }

  /**
   * The sandbox's control "present-card" with no simulator connected: the transaction waiting for a card reads it
   * now (also one still starting); with none, the card is kept, sealed, for the next one. Then it looks once more: a
   * transaction that started meanwhile may have looked for a card before it was kept, and would wait for ever. Both
   * sides take the kept card with one atomic statement, so whichever looks second finds it, and it is read once.
   */
  async presentToVirtual(terminal: Terminal, card: CardRead): Promise<void> {
    const pos = await findInProgressOn(this.deps.pool, terminal);
    if (pos && waitsForCard(pos)) {
      await this.read(terminal, pos.id, card);
      return;
    }
    await this.deps.terminals.keepPresentedCard(terminal.id, card);
    await this.takeUpPresentedCard(terminal);
  }

  /** The kept card, if a transaction on the terminal waits for one (see presentToVirtual). */
  private async takeUpPresentedCard(terminal: Terminal): Promise<void> {
    const pos = await findInProgressOn(this.deps.pool, terminal);
    if (!pos || !waitsForCard(pos)) return;
    const card = (await this.deps.terminals.takePresentedCard(terminal.id)) as CardRead | null;
    if (!card) return;
    await this.read(terminal, pos.id, card);
  }

  async connected(terminal: Terminal): Promise<void> {
    // What was sent while it was away (or before a node restart) is sent again; the terminal ignores repeats.
    const pos = await findInProgressOn(this.deps.pool, terminal);
    if (pos && (WAITING as number[]).includes(pos.statusId))
      await this.deps.channel.send(terminal.id, startMessage(pos));
  }

  async disconnected(): Promise<void> {
    // Nothing ends at once: a terminal that reconnects carries on; one that does not is ended by the sweep.
  }

  async accepted(terminal: Terminal, posTransactionId: string): Promise<void> {
    // The terminal's own transaction only: the condition is part of the move (no read before it).
    const moved = await movePos(
      this.deps.pool,
      posTransactionId,
      [PosStatus.TerminalConnecting],
      PosStatus.TransactionProcessing,
      this.deps.clock.now(),
      { terminalId: terminal.id, accepted: true },
    );
    // Capture and void need no card: accepted, they are paid at once.
    if (moved && !READS_CARD.has(moved.typeId)) await this.process(terminal, moved, null);
  }

  async declined(terminal: Terminal, posTransactionId: string): Promise<void> {
    await movePos(this.deps.pool, posTransactionId, WAITING, PosStatus.CancelByTerminal, this.deps.clock.now(), {
      terminalId: terminal.id,
    });
  }

  async card(terminal: Terminal, message: CardMessage): Promise<void> {
    await this.read(terminal, message.posTransactionId, message);
  }

  async completed(): Promise<void> {
    // The terminal printed the receipt: nothing changes here.
  }

  /** The card for `posTransactionId`: the payment starts, unless a cancel came first (exactly one of them wins). */
  private async read(terminal: Terminal, posTransactionId: string, card: CardRead): Promise<void> {
    // Whose it is, whether it reads a card and how, are conditions of the move itself: one statement per card read.
    // Why a move did not happen is looked up only then (to say so in the log).
    const sending = await movePos(
      this.deps.pool,
      posTransactionId,
      WAITING,
      PosStatus.TransactionSentToProcessor,
      this.deps.clock.now(),
      {
        terminalId: terminal.id,
        cardRead: { keyed: card.readingMethod === 'keyed' },
        cardDataSourceId: CARD_DATA_SOURCE_OF[card.readingMethod],
        processingNode: this.deps.nodeId(),
        accepted: true,
      },
    );
    if (sending) {
      await this.process(terminal, sending, card);
      return;
    }
    const pos = await this.mine(terminal, posTransactionId);
    if (pos?.readingMethodId === ReadingMethod.KeyedIn && card.readingMethod !== 'keyed' && waitsForCard(pos)) {
      this.deps.logger.warn({ posTransactionId }, 'POS transaction: a read card for a keyed-in transaction, ignored');
    }
  }

  /** Pays (a card read, or an accepted capture or void), then records the outcome and tells the terminal. */
  async process(terminal: Terminal | null, pos: PosTransaction, card: CardRead | null, recovering = false) {
    let result: PaymentResult | undefined;
    let failure: string | null = null;
    try {
      if (pos.statusId !== PosStatus.TransactionSentToProcessor) {
        const moved = await movePos(
          this.deps.pool,
          pos.id,
          [pos.statusId],
          PosStatus.TransactionSentToProcessor,
          this.deps.clock.now(),
          {
            processingNode: this.deps.nodeId(),
          },
        );
        if (!moved) return;
        pos = moved;
      }
      if (card && pos.typeId === PosType.Refund) await this.checkRefundCard(pos, card);
      result = await payPos(this.deps, pos, card, recovering);
    } catch (error) {
      if (!(error instanceof AppError)) {
        // Not a refusal: whether a payment was made is not known here. Left being paid, the sweep asks the payments
        // core for the payment made under this id (and ends it Inconsistency if that never comes clear).
        this.deps.logger.error({ err: error, posTransactionId: pos.id }, 'POS transaction: payment failed');
        return;
      }
      failure = firstMessage(error);
    }
    if (result?.outcome === 'pending') return; // the sweep settles it with the card network
    await this.finish(terminal, pos, result, failure);
  }

  private async finish(
    terminal: Terminal | null,
    pos: PosTransaction,
    result: PaymentResult | undefined,
    failure: string | null,
  ) {
    const to = !result
      ? PosStatus.Error
      : result.outcome === 'approved'
        ? PosStatus.Completed
        : result.outcome === 'declined'
          ? PosStatus.DeclinedByProcessor
          : PosStatus.Error;
    const done = await movePos(
      this.deps.pool,
      pos.id,
      [PosStatus.TransactionSentToProcessor],
      to,
      this.deps.clock.now(),
      {
        transactionId: result?.transaction.id ?? null,
        errorMessage:
          failure ??
          (to === PosStatus.Error
            ? (result?.transaction.responseMessage ?? result?.transaction.detailsMessage ?? 'Failed')
            : null),
      },
    );
    if (!done || !terminal) return;
    await this.deps.channel.send(terminal.id, await this.resultMessage(done, result?.transaction));
  }

  /** A refund is paid back to the card it came from: the card read must be that card. */
  private async checkRefundCard(pos: PosTransaction, card: CardRead): Promise<void> {
    const target = await this.deps.transactions.get(pos.merchantId, pos.targetTransactionId!);
    const last4 = target?.panMask?.slice(-4);
    if (last4 && card.pan.slice(-4) !== last4) {
      throw ValidationError.field('card', 'The card read is not the card of the transaction being refunded.');
    }
  }

  async resultMessage(pos: PosTransaction, transaction: Transaction | undefined): Promise<ServerMessage> {
    const merchantName = (await this.deps.merchants.getConfiguration(pos.merchantId)).companyName;
    return {
      type: 'transaction.result',
      posTransactionId: pos.id,
      status: POS_STATUS_NAMES[pos.statusId]!,
      statusId: pos.statusId,
      approved: pos.statusId === PosStatus.Completed,
      receipt: transaction ? receipt(transaction, merchantName) : null,
    };
  }

  private async runVirtual(pos: PosTransaction, terminal: Terminal): Promise<void> {
    await this.accepted(terminal, pos.id);
    if (!READS_CARD.has(pos.typeId)) return;
    // A card presented ahead of it; else it waits for the operator's "present-card".
    await this.takeUpPresentedCard(terminal);
  }

  /** The POS transaction, if it is this terminal's (a terminal cannot act on another's). */
  private async mine(terminal: Terminal, posTransactionId: string): Promise<PosTransaction | null> {
    const pos = await findPos(this.deps.pool, posTransactionId);
    return pos && pos.terminalId === terminal.id ? pos : null;
  }
}

/** A card-reading transaction still before its read (starting, or accepted). */
function waitsForCard(pos: PosTransaction): boolean {
  return (WAITING as number[]).includes(pos.statusId) && READS_CARD.has(pos.typeId);
}

export function startMessage(pos: PosTransaction): ServerMessage {
  return {
    type: 'transaction.start',
    posTransactionId: pos.id,
    transactionType: POS_TYPE_NAMES[pos.typeId]!,
    amountCents: pos.amountCents,
    tipCents: pos.tipCents,
    readCard: READS_CARD.has(pos.typeId),
    keyed: pos.readingMethodId === ReadingMethod.KeyedIn,
    requestStorageConsent: pos.requestStorageConsent,
  };
}

function firstMessage(error: AppError): string {
  return Object.values(error.errors ?? {})[0]?.[0] ?? error.message;
}
