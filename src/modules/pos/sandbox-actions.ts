import Type, { type Static } from 'typebox';
import { ValidationError } from '../../platform/http/errors.js';
import type { CardRead } from './pos.model.js';
import { PosStatus } from './pos.model.js';
import { findInProgressOn, movePos } from './pos.repo.js';
import type { PosDeps } from './pos-context.js';
import type { PosTerminalSide } from './pos-terminal-side.js';

export const SandboxActionBody = Type.Object(
  {
    action: Type.Union([
      Type.Literal('present-card'),
      Type.Literal('decline'),
      Type.Literal('paper'),
      Type.Literal('connection'),
      Type.Literal('battery'),
    ]),
    pan: Type.Optional(Type.String({ minLength: 12, maxLength: 19, pattern: '^[0-9]+$' })),
    expirationMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    expirationYear: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2099 })),
    readingMethod: Type.Optional(
      Type.Union([Type.Literal('chip'), Type.Literal('tap'), Type.Literal('swipe'), Type.Literal('keyed')]),
    ),
    storageConsent: Type.Optional(Type.Boolean()),
    paperOut: Type.Optional(Type.Boolean()),
    online: Type.Optional(Type.Boolean()),
    level: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        action: 'present-card',
        pan: '4111111111111111',
        expirationMonth: 12,
        expirationYear: 2031,
        readingMethod: 'chip',
      },
    ],
  },
);
export type SandboxAction = Static<typeof SandboxActionBody>;

/**
 * The operator's hand on a sandbox terminal. With a simulator process connected, the action goes to it over the
 * terminal channel and it behaves as a terminal would; without one, the virtual terminal does the same in-process.
 * The connection, battery and paper are also kept as the terminal's sandbox state (a switched-off terminal's
 * simulator is refused until switched on again).
 */
export async function runSandboxAction(
  deps: PosDeps,
  side: PosTerminalSide,
  terminalId: string,
  action: SandboxAction,
): Promise<void> {
  const terminal = await deps.terminals.get(undefined, terminalId);
  const presence = await deps.terminals.presence(terminal);
  const simulator = presence.online && !presence.virtual;
  const forward = () => deps.channel.send(terminal.id, { type: 'sandbox.action', action: { ...action } });
  const required = <K extends keyof SandboxAction>(key: K): NonNullable<SandboxAction[K]> => {
    const value = action[key];
    if (value === undefined || value === null)
      throw ValidationError.field(key, `'${key}' is required for '${action.action}'.`);
    return value as NonNullable<SandboxAction[K]>;
  };
  switch (action.action) {
    case 'present-card': {
      const card: CardRead = {
        pan: required('pan'),
        expirationMonth: required('expirationMonth'),
        expirationYear: required('expirationYear'),
        readingMethod: action.readingMethod ?? 'chip',
        ...(action.storageConsent !== undefined ? { storageConsent: action.storageConsent } : {}),
      };
      if (simulator) return forward();
      return side.presentToVirtual(terminal, card);
    }
    case 'decline': {
      if (simulator) return forward();
      const pos = await findInProgressOn(deps.pool, terminal);
      if (pos) await side.declined(terminal, pos.id);
      return;
    }
    case 'paper':
      await deps.terminals.changeSandbox(terminal, { paperOut: required('paperOut') }, !simulator);
      if (simulator) await forward();
      return;
    case 'battery':
      await deps.terminals.changeSandbox(terminal, { batteryLevel: required('level') }, !simulator);
      if (simulator) await forward();
      return;
    case 'connection': {
      const online = required('online');
      await deps.terminals.changeSandbox(terminal, { online });
      if (online) return; // a simulator reconnects by itself; the virtual terminal is simply on again
      if (simulator) await deps.channel.disconnect(terminal.id);
      // Switched off before it read a card: the transaction cannot go on.
      const pos = await findInProgressOn(deps.pool, terminal);
      if (pos) {
        await movePos(
          deps.pool,
          pos.id,
          [PosStatus.TerminalConnecting, PosStatus.TransactionProcessing],
          PosStatus.TerminalOffline,
          deps.clock.now(),
        );
      }
      return;
    }
  }
}
