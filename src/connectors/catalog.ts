import Type, { type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { dictionary } from '../platform/dictionary.js';
import {
  NACHA_SFTP_CREDENTIALS,
  NACHA_SFTP_SETTINGS,
  nachaSftpCredentialProblems,
  nachaSftpSettingsProblems,
} from './ach/sftp/nacha-sftp-settings.js';
import { ADYEN_CREDENTIALS, ADYEN_SETTINGS, adyenSettingsProblems } from './card/adyen/adyen-settings.js';

/** A card operation a processor may or may not do (the transaction types it takes). */
export type CardOperation =
  | 'sale'
  | 'authorize'
  | 'verify'
  | 'capture'
  | 'void'
  | 'refund'
  | 'refund-without-reference'
  | 'tip-adjust';

export interface CardCapabilities {
  operations: readonly CardOperation[];
  /** Reads cards on a terminal (POS transactions). */
  cardPresent: boolean;
  /** A tip changes until the batch settles, or only while the payment is authorized and not yet captured. */
  tipAdjustment: 'until-settled' | 'before-capture' | 'none';
  /**
   * Capture, void, refund and tip changes are decided by the processor's notification, not by the call's answer: the
   * call is only "received", and the transaction shows the operation pending until the notification comes.
   */
  asynchronousModifications: boolean;
}

/**
 * What a connector is, before any instance of it exists: its method, the wire type of its processors, whether it is
 * a simulator (the sandbox's only), what it can do, and the settings and credentials a processor of it needs. The
 * operator API validates a processor against this; payments consult the capabilities before calling.
 */
export interface ConnectorDescriptor {
  name: string;
  method: 'card' | 'ach';
  /** The processor's `typeId` on the wire: 1 card, 2 ACH. */
  typeId: 1 | 2;
  /** The processor's `type` on the wire. */
  typeName: string;
  /** A simulator: production refuses it (docs/connectors.md). */
  simulator: boolean;
  card?: CardCapabilities;
  /** The settings a processor of it takes (validated; defaults filled in). */
  settings: TSchema;
  /** Checks beyond the schema (e.g. `https://` in production), as messages by field under `settings`. */
  settingsProblems?: (settings: Record<string, unknown>, env: 'sandbox' | 'production') => Record<string, string>;
  /** The credentials it needs (sealed; never shown). Null: it takes none. */
  credentials: TSchema | null;
  /** Checks of the credentials beyond the schema, as messages by field under `credentials`. */
  credentialsProblems?: (credentials: Record<string, unknown>) => Record<string, string>;
  /**
   * An ACH connector that exchanges files with the bank through a drop box (SFTP): Tessera delivers and collects the
   * files itself (payments/ach/exchange), one file per cutoff window and bank connection. Otherwise the connector is
   * an AchConnector that takes each file as a call.
   */
  fileExchange?: boolean;
  /** Where a processor of it sends its notifications, on the deployment's public address (none: it sends none). */
  notificationPath?: (processorId: string) => string;
}

const NO_SETTINGS = Type.Object({}, { additionalProperties: false });

const SANDBOX_CARD: ConnectorDescriptor = {
  name: 'sandbox-card',
  method: 'card',
  typeId: 1,
  typeName: 'SandboxCard',
  simulator: true,
  card: {
    operations: ['sale', 'authorize', 'verify', 'capture', 'void', 'refund', 'refund-without-reference', 'tip-adjust'],
    cardPresent: true,
    tipAdjustment: 'until-settled',
    asynchronousModifications: false,
  },
  settings: NO_SETTINGS,
  credentials: null,
};

const SANDBOX_ACH: ConnectorDescriptor = {
  name: 'sandbox-ach',
  method: 'ach',
  typeId: 2,
  typeName: 'SandboxAch',
  simulator: true,
  settings: NO_SETTINGS,
  credentials: null,
};

const ADYEN: ConnectorDescriptor = {
  name: 'adyen',
  method: 'card',
  typeId: 1,
  typeName: 'Adyen',
  simulator: false,
  card: {
    // Adyen refunds only a payment it holds (no refund without reference) and changes an amount only before
    // capture; card-present payments need its Terminal API, which Tessera does not drive yet.
    operations: ['sale', 'authorize', 'verify', 'capture', 'void', 'refund', 'tip-adjust'],
    cardPresent: false,
    tipAdjustment: 'before-capture',
    asynchronousModifications: true,
  },
  settings: ADYEN_SETTINGS,
  settingsProblems: adyenSettingsProblems,
  credentials: ADYEN_CREDENTIALS,
  notificationPath: (processorId) => `/connectors/adyen/${processorId}/notifications`,
};

const NACHA_SFTP: ConnectorDescriptor = {
  name: 'nacha-sftp',
  method: 'ach',
  typeId: 2,
  typeName: 'NachaSftp',
  simulator: false,
  settings: NACHA_SFTP_SETTINGS,
  settingsProblems: nachaSftpSettingsProblems,
  credentials: NACHA_SFTP_CREDENTIALS,
  credentialsProblems: nachaSftpCredentialProblems,
  fileExchange: true,
};

/** Every connector Tessera has, by name (`payment_processors.connector`). */
export const CONNECTOR_CATALOG: ReadonlyMap<string, ConnectorDescriptor> = new Map(
  [SANDBOX_CARD, SANDBOX_ACH, ADYEN, NACHA_SFTP].map((d) => [d.name, d]),
);

/** Whether a processor of this connector exchanges files with its bank itself (nacha-sftp). */
export function exchangesFiles(connector: string): boolean {
  return CONNECTOR_CATALOG.get(connector)?.fileExchange === true;
}

export function connectorDescriptor(name: string): ConnectorDescriptor | undefined {
  return CONNECTOR_CATALOG.get(name);
}

/** What a card processor of `connector` can do (a connector the catalog does not know can do nothing). */
export function cardCapabilities(connector: string): CardCapabilities {
  return (
    CONNECTOR_CATALOG.get(connector)?.card ?? {
      operations: [],
      cardPresent: false,
      tipAdjustment: 'none',
      asynchronousModifications: false,
    }
  );
}

/** The transaction type names (the API's `type`) of the card operations. */
export const CARD_OPERATION_TYPES: Readonly<Record<CardOperation, string>> = {
  authorize: 'Authorization',
  sale: 'Sale',
  verify: 'CardAuthentication',
  capture: 'Capture',
  void: 'Void',
  refund: 'Refund',
  'refund-without-reference': 'RefundWORef',
  'tip-adjust': 'TipAdjustment',
};

/** What a card processor of `connector` supports, as the API shows it (null: not a card connector). */
export function supportOf(connector: string) {
  const card = CONNECTOR_CATALOG.get(connector)?.card;
  if (!card) return null;
  return {
    transactionTypes: card.operations.map((op) => CARD_OPERATION_TYPES[op]),
    cardPresent: card.cardPresent,
    tipAdjustment: card.tipAdjustment,
    asynchronousModifications: card.asynchronousModifications,
  };
}

/** `value` checked against `schema` with its defaults filled in, or the problems by field path. */
export function checkAgainst<T extends TSchema>(
  schema: T,
  value: unknown,
  prefix: string,
): { ok: Static<T> } | { problems: Record<string, string> } {
  const filled = Value.Default(schema, structuredClone(value ?? {}));
  if (Value.Check(schema, filled)) return { ok: filled as Static<T> };
  const problems: Record<string, string> = dictionary();
  for (const error of Value.Errors(schema, filled)) {
    // An unknown field is reported once, by its parent's additionalProperties error.
    if (error.keyword === 'boolean') continue;
    const field = `${prefix}${error.instancePath.replaceAll('/', '.')}`;
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties;
    const unknown = (error.params as { additionalProperties?: string[] }).additionalProperties;
    if (missing) for (const name of missing) problems[`${field}.${name}`] ??= `'${name}' is required.`;
    else if (unknown) for (const name of unknown) problems[`${field}.${name}`] ??= `'${name}' is not a known field.`;
    else problems[field] ??= error.message;
  }
  return { problems };
}
