import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Listener } from '../../../platform/db/listener.js';
import type { Pool } from '../../../platform/db/pool.js';
import type { App } from '../../../platform/http/server.js';
import type { Logger } from '../../../platform/observability/logger.js';
import { HEARTBEAT_MS, type Terminal } from '../terminals.model.js';
import type { TerminalsService } from '../terminals.service.js';
import {
  type CardMessage,
  CHANNEL_PATH,
  PROTOCOL_VERSION,
  parseHello,
  parseMessage,
  type ServerMessage,
} from './protocol.js';

/** What the terminals say, for whoever runs the transactions (the POS module). */
export interface TerminalEvents {
  connected(terminal: Terminal): Promise<void>;
  disconnected(terminalId: string): Promise<void>;
  accepted(terminal: Terminal, posTransactionId: string): Promise<void>;
  declined(terminal: Terminal, posTransactionId: string): Promise<void>;
  card(terminal: Terminal, card: CardMessage): Promise<void>;
  completed(terminal: Terminal, posTransactionId: string): Promise<void>;
}

export interface TerminalChannelDeps {
  pool: Pool;
  logger: Logger;
  listener: Listener;
  terminals: TerminalsService;
  nodeId: () => number;
}

/** Commands travel through PostgreSQL, so whichever node holds a terminal's socket delivers them. */
const COMMAND_CHANNEL = 'terminal_command';
const HELLO_TIMEOUT_MS = 10_000;
const PING_MS = 15_000;

interface Command {
  terminalId: string;
  message?: ServerMessage;
  close?: boolean;
  /** With `close`: the connection to keep (the newer login that asked for the older ones to go). */
  keep?: string;
}

/**
 * The terminal channel: terminals hold a WebSocket to any node and speak the protocol of `protocol.ts`. This node
 * keeps only its own sockets; what it must send to a terminal goes out as a NOTIFY that the holding node delivers.
 */
export class TerminalChannel {
  private readonly sockets = new Map<string, { socket: WebSocket; terminal: Terminal; connection: string }>();
  private events: TerminalEvents | undefined;

  constructor(private readonly deps: TerminalChannelDeps) {
    deps.listener.on(COMMAND_CHANNEL, (payload) => this.deliver(payload));
  }

  /** The POS module handles what terminals say. */
  handle(events: TerminalEvents): void {
    this.events = events;
  }

  /** Sends to a terminal wherever its socket is (a no-op when no node holds one: the caller checked presence). */
  async send(terminalId: string, message: ServerMessage): Promise<void> {
    // The socket is on this node: delivered as a command heard on the channel would be, without the round trip
    // through PostgreSQL and back (every POS sale sends its terminal several messages).
    if (this.sockets.has(terminalId)) return this.carryOut({ terminalId, message });
    await this.notify({ terminalId, message });
  }

  /** Closes the terminal's socket on whichever node holds it (deactivation, the sandbox's connection control). */
  async disconnect(terminalId: string): Promise<void> {
    await this.notify({ terminalId, close: true });
  }

  /** How many terminal sockets this node holds. */
  get size(): number {
    return this.sockets.size;
  }

  register(app: App): void {
    app.get(
      CHANNEL_PATH,
      { websocket: true, config: { auth: 'public' }, schema: { hide: true } },
      (socket: WebSocket, _request: FastifyRequest) => this.accept(socket),
    );
  }

  /** Closes every socket this node holds (shutdown): the terminals reconnect to another node. */
  closeAll(): void {
    for (const { socket } of this.sockets.values()) socket.close(1012, 'server restarting');
  }

  private async notify(command: Command): Promise<void> {
    await this.deps.pool.query('SELECT pg_notify($1, $2)', [COMMAND_CHANNEL, JSON.stringify(command)]);
  }

  private deliver(payload: string): void {
    let command: Command;
    try {
      command = JSON.parse(payload) as Command;
    } catch {
      return;
    }
    this.carryOut(command);
  }

  /** A command for a terminal whose socket this node may hold (otherwise it is another node's). */
  private carryOut(command: Command): void {
    const held = this.sockets.get(command.terminalId);
    if (!held) return;
    if (command.close) {
      if (held.connection !== command.keep) held.socket.close(4000, 'closed by the server');
    } else if (command.message) held.socket.send(JSON.stringify(command.message));
  }

  private accept(socket: WebSocket): void {
    let terminal: Terminal | undefined;
    let alive = true;
    const helloTimer = setTimeout(() => socket.close(4401, 'hello expected'), HELLO_TIMEOUT_MS);
    const ping = setInterval(() => {
      if (!alive) return void socket.terminate();
      alive = false;
      socket.ping();
    }, PING_MS);
    socket.on('pong', () => {
      alive = true;
    });
    const fail = (error: unknown) => this.deps.logger.warn({ err: error }, 'terminal channel: message failed');
    // Frames are handled one at a time, in order: a card read must not overtake the acceptance before it.
    let queue = Promise.resolve();
    socket.on('message', (data) => {
      const text = data.toString();
      queue = queue
        .then(async () => {
          if (!terminal) {
            terminal = await this.login(socket, text);
            if (terminal) clearTimeout(helloTimer);
            return;
          }
          await this.received(socket, terminal, text);
        })
        .catch(fail);
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      clearInterval(ping);
      const t = terminal;
      if (!t || this.sockets.get(t.id)?.socket !== socket) return;
      this.sockets.delete(t.id);
      queue = queue
        .then(async () => {
          await this.deps.terminals.disconnected(t, this.deps.nodeId());
          await this.events?.disconnected(t.id);
        })
        .catch(fail);
    });
  }

  private async login(socket: WebSocket, text: string): Promise<Terminal | undefined> {
    const hello = parseHello(text);
    if (!hello) {
      socket.close(4400, 'the first message must be hello (protocol 1)');
      return undefined;
    }
    const terminal = await this.deps.terminals.login(hello.serialNumber, hello.secret);
    if (!terminal) {
      socket.close(4401, 'unknown terminal or wrong secret');
      return undefined;
    }
    if (await this.deps.terminals.switchedOff(terminal.id)) {
      socket.close(4403, 'the connection is switched off (sandbox control)');
      return undefined;
    }
    // A terminal has one socket: a new login replaces an older one, here or on another node.
    this.sockets.get(terminal.id)?.socket.close(4409, 'replaced by a newer connection');
    const connection = randomUUID();
    this.sockets.set(terminal.id, { socket, terminal, connection });
    await this.notify({ terminalId: terminal.id, close: true, keep: connection });
    await this.deps.terminals.connected(terminal, this.deps.nodeId());
    socket.send(
      JSON.stringify({
        type: 'welcome',
        protocol: PROTOCOL_VERSION,
        terminalId: terminal.id,
        heartbeatMs: HEARTBEAT_MS,
      }),
    );
    await this.events?.connected(terminal);
    return terminal;
  }

  private async received(socket: WebSocket, terminal: Terminal, text: string): Promise<void> {
    const message = parseMessage(text);
    if (!message) {
      socket.send(JSON.stringify({ type: 'error', message: 'not a protocol 1 message' }));
      return;
    }
    const events = this.events;
    switch (message.type) {
      case 'status':
        await this.deps.terminals.report(terminal, {
          batteryLevel: message.batteryLevel,
          paperOut: message.paperOut,
          printerStatus: message.printerStatus ?? (message.paperOut ? 'NotNormal' : 'Normal'),
          connectionType: message.connectionType,
          wifiConnectionStrength: message.wifiConnectionStrength ?? null,
          mobileConnectionStrength: message.mobileConnectionStrength ?? null,
          softwareVersion: message.softwareVersion ?? null,
        });
        return;
      case 'accepted':
        return events?.accepted(terminal, message.posTransactionId);
      case 'declined':
        return events?.declined(terminal, message.posTransactionId);
      case 'card':
        return events?.card(terminal, message);
      case 'completed':
        return events?.completed(terminal, message.posTransactionId);
      case 'printed':
        return;
    }
  }
}
