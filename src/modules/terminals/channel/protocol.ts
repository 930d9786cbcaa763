import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The terminal channel protocol, version 1 (docs/terminals.md): JSON text frames over one WebSocket per terminal.
 * The terminal opens with `hello`; everything after it is typed by `type`.
 */
export const PROTOCOL_VERSION = 1;
export const CHANNEL_PATH = '/terminal-channel/v1';

const PosId = Type.String({ format: 'uuid' });

const Hello = Type.Object({
  type: Type.Literal('hello'),
  protocol: Type.Literal(PROTOCOL_VERSION),
  serialNumber: Type.String({ minLength: 1, maxLength: 64 }),
  secret: Type.String({ minLength: 1, maxLength: 200 }),
  softwareVersion: Type.Optional(Type.String({ maxLength: 50 })),
});

const Status = Type.Object({
  type: Type.Literal('status'),
  batteryLevel: Type.Integer({ minimum: 0, maximum: 100 }),
  paperOut: Type.Boolean(),
  printerStatus: Type.Optional(
    Type.Union([Type.Literal('Normal'), Type.Literal('NotNormal'), Type.Literal('NotSupported')]),
  ),
  connectionType: Type.Union([Type.Literal('WiFi'), Type.Literal('Mobile'), Type.Literal('Ethernet')]),
  wifiConnectionStrength: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  mobileConnectionStrength: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  softwareVersion: Type.Optional(Type.String({ maxLength: 50 })),
});

const Accepted = Type.Object({ type: Type.Literal('accepted'), posTransactionId: PosId });
const Declined = Type.Object({ type: Type.Literal('declined'), posTransactionId: PosId });
const Completed = Type.Object({ type: Type.Literal('completed'), posTransactionId: PosId });
const Card = Type.Object({
  type: Type.Literal('card'),
  posTransactionId: PosId,
  readingMethod: Type.Union([Type.Literal('chip'), Type.Literal('tap'), Type.Literal('swipe'), Type.Literal('keyed')]),
  pan: Type.String({ minLength: 12, maxLength: 19, pattern: '^[0-9]+$' }),
  expirationMonth: Type.Integer({ minimum: 1, maximum: 12 }),
  expirationYear: Type.Integer({ minimum: 2000, maximum: 2099 }),
  storageConsent: Type.Optional(Type.Boolean()),
});
const Printed = Type.Object({
  type: Type.Literal('printed'),
  posTransactionId: PosId,
  ok: Type.Boolean(),
  reason: Type.Optional(Type.String({ maxLength: 100 })),
});

export const TerminalMessage = Type.Union([Status, Accepted, Declined, Completed, Card, Printed]);
export type TerminalMessage = Static<typeof TerminalMessage>;
export type HelloMessage = Static<typeof Hello>;
export type StatusMessage = Static<typeof Status>;
export type CardMessage = Static<typeof Card>;

const helloCheck = Compile(Hello);
const messageCheck = Compile(TerminalMessage);

/** The terminal's first frame, or null when it is not a valid `hello`. */
export function parseHello(text: string): HelloMessage | null {
  const value = parseJson(text);
  return helloCheck.Check(value) ? value : null;
}

/** A later frame, or null when it is not one of the protocol's messages. */
export function parseMessage(text: string): TerminalMessage | null {
  const value = parseJson(text);
  return messageCheck.Check(value) ? value : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the server sends a terminal. */
export type ServerMessage =
  | { type: 'welcome'; protocol: number; terminalId: string; heartbeatMs: number }
  | {
      type: 'transaction.start';
      posTransactionId: string;
      transactionType: string;
      amountCents: number | null;
      tipCents: number | null;
      /** Capture and void need no card: the terminal only prints the result. */
      readCard: boolean;
      /** Keyed in: the terminal asks for the card details instead of a read. */
      keyed: boolean;
      requestStorageConsent: boolean;
    }
  | { type: 'transaction.cancel'; posTransactionId: string }
  | {
      type: 'transaction.result';
      posTransactionId: string;
      status: string;
      statusId: number;
      approved: boolean;
      receipt: Record<string, unknown> | null;
    }
  | { type: 'receipt.print'; posTransactionId: string; receipt: Record<string, unknown> }
  | { type: 'sandbox.action'; action: Record<string, unknown> }
  | { type: 'error'; message: string };
