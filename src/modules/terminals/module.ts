import { defineModule } from '../manifest.js';
import { TerminalChannel } from './channel/terminal-channel.js';
import { sealedCardContext } from './presented-card.js';
import { TERMINAL_OPERATIONS } from './terminals.operations.js';
import { terminalsRoutes } from './terminals.routes.js';
import { TerminalsService } from './terminals.service.js';

declare module '../services.js' {
  interface Services {
    terminals: TerminalsService;
    /** The terminal channel: this node's terminal sockets, and commands to terminals on any node. */
    terminalChannel: TerminalChannel;
  }
}

export const terminalsModule = defineModule({
  folder: 'modules/terminals',
  summary: 'Terminals: registration, the terminal channel (WebSocket), and the sandbox virtual terminals.',
  tables: ['terminals', 'sandbox_terminals'],
  reads: ['merchant_accounts'],
  needs: ['merchants'],
  provides: ['terminals', 'terminalChannel'],
  sealed: [
    {
      name: 'cards presented to sandbox terminals',
      table: 'sandbox_terminals',
      column: 'presented_card',
      versionColumn: 'presented_card_kek',
      key: ['terminal_id'],
      aad: (row) => sealedCardContext(String(row.terminal_id)),
      where: 'presented_card IS NOT NULL',
    },
  ],
  build({ pool, clock, logger, listener, nodeId, sandbox, kek }, { merchants }) {
    const terminals = new TerminalsService({ pool, clock, merchants, sandbox, kek, nodeId });
    const terminalChannel = new TerminalChannel({ pool, logger, listener, terminals, nodeId });
    return { terminals, terminalChannel };
  },
  routes(app, { terminals, terminalChannel }, { sandbox }) {
    terminalsRoutes(app, { terminals, busy: (terminal) => terminals.busy(terminal), sandbox });
    terminalChannel.register(app);
  },
  operations: TERMINAL_OPERATIONS,
  events: ['terminal.added', 'terminal.deactivated', 'terminal.out_of_paper'],
});
