import type { PaymentResult } from '../payments/payments.service.js';
import { CardDataSource, CreateMethod } from '../payments/transactions.model.js';
import { type CardRead, type PosTransaction, PosType } from './pos.model.js';
import type { PosDeps } from './pos-context.js';

/** How the terminal read the card, as the transaction's cardDataSource (3 NFC is Tap to Pay on a phone). */
export const CARD_DATA_SOURCE_OF: Record<CardRead['readingMethod'], number> = {
  chip: CardDataSource.EMV,
  tap: CardDataSource.EMVContactless,
  swipe: CardDataSource.Swipe,
  keyed: CardDataSource.Manual,
};

/**
 * The money movement a POS transaction asks for, through the payments core, under the POS transaction's id as its
 * idempotency id: asked again (a recovery), it finds the first attempt instead of making a second.
 */
export async function payPos(
  deps: PosDeps,
  pos: PosTransaction,
  card: CardRead | null,
  recovering: boolean,
): Promise<PaymentResult> {
  const idempotency = { id: pos.id, recovering };
  switch (pos.typeId) {
    case PosType.Sale:
    case PosType.Authorization: {
      // Without the card (a recovery after its node died) only what that node recorded can be the answer; if it
      // recorded nothing, the claim is closed so that node, should it wake up, charges nothing either.
      if (!card) {
        return deps.payments.closeCardClaim({
          merchantId: pos.merchantId,
          claimId: pos.id,
          source: { typeId: CreateMethod.Terminal, id: pos.id },
          processorId: pos.processorId,
          operation: pos.typeId === PosType.Sale ? 'sale' : 'authorize',
          amountCents: (pos.amountCents ?? 0) + (pos.tipCents ?? 0),
          referenceId: pos.referenceId,
          cardDataSource: pos.cardDataSourceId ?? CardDataSource.EMV,
          reason: 'The card read was lost with its node before the payment was made; nothing was charged.',
        });
      }
      const result = await deps.payments.charge({
        merchantId: pos.merchantId,
        source: { typeId: CreateMethod.Terminal, id: pos.id },
        processorId: pos.processorId,
        referenceId: pos.referenceId,
        amount: { baseCents: pos.amountCents ?? 0, tipCents: pos.tipCents, tipRateMpct: pos.tipRateMpct },
        instrument: {
          kind: 'card',
          accountNumber: card.pan,
          expirationMonth: card.expirationMonth,
          expirationYear: card.expirationYear,
        },
        operation: pos.typeId === PosType.Sale ? 'sale' : 'authorize',
        initiator: 'customer',
        cardDataSource: CARD_DATA_SOURCE_OF[card.readingMethod],
        // Card present: the card itself is the proof; there is no address to verify.
        skipAddressVerification: true,
        idempotency,
      });
      if (result.outcome === 'approved' && pos.requestStorageConsent && card.storageConsent && pos.customerId) {
        await saveCard(deps, pos, card);
      }
      return result;
    }
    case PosType.Refund:
      return deps.payments.refund({
        merchantId: pos.merchantId,
        transactionId: pos.targetTransactionId!,
        ...(pos.amountCents !== null ? { amountCents: pos.amountCents } : {}),
        cardDataSource: card ? CARD_DATA_SOURCE_OF[card.readingMethod] : CardDataSource.EMV,
        idempotency,
      });
    case PosType.Capture:
      return deps.payments.capture(pos.merchantId, pos.targetTransactionId!, pos.amountCents ?? undefined, idempotency);
    case PosType.Void:
      return deps.payments.void(pos.merchantId, pos.targetTransactionId!, idempotency);
    default:
      throw new Error(`unknown POS transaction type ${pos.typeId}`);
  }
}

/** The cardholder agreed on the terminal: the card joins the customer's vault (a failure here leaves the payment). */
async function saveCard(deps: PosDeps, pos: PosTransaction, card: CardRead): Promise<void> {
  try {
    await deps.customers.addCard(pos.merchantId, pos.customerId!, {
      pan: card.pan,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
    });
  } catch (error) {
    deps.logger.warn({ err: error, posTransactionId: pos.id }, 'POS transaction: saving the card failed');
  }
}
