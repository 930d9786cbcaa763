import { defineModule } from '../manifest.js';
import { TerminalChannel } from './channel/terminal-channel.js';
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
  needs: ['merchants'],
  provides: ['terminals', 'terminalChannel'],
  build({ pool, clock, logger, listener, nodeId, sandbox }, { merchants }) {
    const terminals = new TerminalsService({ pool, clock, merchants, sandbox });
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
