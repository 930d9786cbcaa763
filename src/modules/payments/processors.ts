import { type CardOperation, cardCapabilities } from '../../connectors/catalog.js';
import { ValidationError } from '../../platform/http/errors.js';
import { type MerchantConfiguration, type PaymentProcessor, ProcessorStatus } from '../merchants/merchants.model.js';

/** The processor a card payment names, or the merchant's default card processor. */
export function cardProcessor(
  configuration: MerchantConfiguration,
  processorId: string | null | undefined,
): PaymentProcessor {
  return activeProcessor(configuration, 'card', processorId);
}

/**
 * The processor a payment names, or the merchant's default one for the method (else its first active one). Only an
 * active processor of the method qualifies: anything else is a 400 on `paymentProcessorId`.
 */
export function activeProcessor(
  configuration: MerchantConfiguration,
  method: PaymentProcessor['method'],
  processorId: string | null | undefined,
): PaymentProcessor {
  const found = findActiveProcessor(configuration, method, processorId, 'paymentProcessorId');
  if (typeof found === 'string') throw ValidationError.field('paymentProcessorId', found);
  return found;
}

/** activeProcessor's choice, or why there is none (a message naming the request's `field`). */
export function findActiveProcessor(
  configuration: MerchantConfiguration,
  method: PaymentProcessor['method'],
  processorId: string | null | undefined,
  field: string,
): PaymentProcessor | string {
  const usable = configuration.processors.filter((p) => p.method === method && p.statusId === ProcessorStatus.Active);
  const processor = processorId
    ? usable.find((p) => p.id === processorId)
    : (usable.find((p) => p.isDefault) ?? usable[0]);
  if (processor) return processor;
  const name = method === 'card' ? 'card' : 'ACH';
  return processorId
    ? `'${field}' is not one of this merchant's active ${name} processors (see GET /pay-api/v1/configurations/payments).`
    : `The merchant has no active ${name} processor.`;
}

const OPERATION_NAMES: Record<CardOperation, string> = {
  sale: 'sales',
  authorize: 'authorizations',
  verify: 'card verifications',
  capture: 'captures',
  void: 'voids',
  refund: 'refunds',
  'refund-without-reference': 'refunds without reference',
  'tip-adjust': 'tip adjustments',
};

/**
 * Why the processor cannot do this card operation (undefined: it can), as the 400 a caller sees: which processor,
 * and what it does not do (GET /pay-api/v1/configurations/payments lists what each supports).
 */
export function unsupported(
  processor: PaymentProcessor,
  operation: CardOperation,
  options: { cardPresent?: boolean; captured?: boolean } = {},
): string | undefined {
  const can = cardCapabilities(processor.connector);
  const name = `The processor '${processor.name}' (${processor.typeName})`;
  if (!can.operations.includes(operation)) return `${name} does not support ${OPERATION_NAMES[operation]}.`;
  if (options.cardPresent && !can.cardPresent) {
    return `${name} does not take card-present payments (a terminal reading the card); docs/connectors.md.`;
  }
  if (operation === 'tip-adjust' && options.captured && can.tipAdjustment === 'before-capture') {
    return `${name} changes a tip only before the payment is captured.`;
  }
  return undefined;
}
