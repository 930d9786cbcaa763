import { WebSocket } from 'ws';
import { CHANNEL_PATH, PROTOCOL_VERSION } from '../channel/protocol.js';

/**
 * The sandbox terminal simulator: a real client of the terminal channel (`tessera terminal-sim`), run as its own
 * process. It behaves as a semi-integrated terminal would (accepts what the server starts, sends the card its user
 * presents, prints, reports battery and paper) and follows the sandbox operator's controls, which reach it over the
 * channel as `sandbox.action` messages.
 */
export interface SimulatorOptions {
  baseUrl: string;
  serialNumber: string;
  secret: string;
  /** One line per thing that happened (the CLI prints them). */
  log?: (line: string) => void;
  reconnectMs?: number;
}

interface PresentedCard {
  pan: string;
  expirationMonth: number;
  expirationYear: number;
  readingMethod: 'chip' | 'tap' | 'swipe' | 'keyed';
  storageConsent?: boolean;
}

interface Active {
  posTransactionId: string;
  readCard: boolean;
}

type Incoming = { type: string; [key: string]: unknown };

export class TerminalSimulator {
  private socket: WebSocket | undefined;
  private stopped = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private battery = 100;
  private paperOut = false;
  private presented: PresentedCard | undefined;
  private active: Active | undefined;
  terminalId: string | undefined;

  constructor(private readonly options: SimulatorOptions) {}

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    this.socket?.close(1000, 'simulator stopped');
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private connect(): void {
    const url = `${this.options.baseUrl.replace(/^http/, 'ws')}${CHANNEL_PATH}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.on('open', () => {
      this.send({
        type: 'hello',
        protocol: PROTOCOL_VERSION,
        serialNumber: this.options.serialNumber,
        secret: this.options.secret,
        softwareVersion: 'sim-1',
      });
    });
    socket.on('message', (data) => {
      let message: Incoming;
      try {
        message = JSON.parse(data.toString()) as Incoming;
      } catch {
        return;
      }
      this.received(message);
    });
    socket.on('close', (code, reason) => {
      clearInterval(this.heartbeat);
      if (this.socket !== socket) return;
      this.log(`disconnected ${code} ${reason.toString()}`);
      if (!this.stopped) this.retry = setTimeout(() => this.connect(), this.options.reconnectMs ?? 500);
    });
    socket.on('error', (error) => this.log(`socket error ${error.message}`));
  }

  private send(message: Record<string, unknown>): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private status(): void {
    this.send({
      type: 'status',
      batteryLevel: this.battery,
      paperOut: this.paperOut,
      connectionType: 'WiFi',
      wifiConnectionStrength: 80,
      softwareVersion: 'sim-1',
    });
  }

  private received(message: Incoming): void {
    switch (message.type) {
      case 'welcome':
        this.terminalId = message.terminalId as string;
        this.log(`connected ${this.terminalId}`);
        this.status();
        this.heartbeat = setInterval(() => this.status(), Number(message.heartbeatMs) || 30_000);
        return;
      case 'transaction.start': {
        const id = message.posTransactionId as string;
        this.active = { posTransactionId: id, readCard: message.readCard === true };
        this.log(`start ${id} ${String(message.transactionType)}`);
        this.send({ type: 'accepted', posTransactionId: id });
        if (this.active.readCard && this.presented) this.read(this.presented);
        return;
      }
      case 'transaction.cancel':
        if (this.active?.posTransactionId === message.posTransactionId) this.active = undefined;
        this.log(`cancelled ${String(message.posTransactionId)}`);
        return;
      case 'transaction.result':
        this.log(`result ${String(message.posTransactionId)} ${String(message.status)}`);
        if (this.active?.posTransactionId === message.posTransactionId) this.active = undefined;
        this.send({ type: 'completed', posTransactionId: message.posTransactionId });
        return;
      case 'receipt.print':
        this.log(`print ${String(message.posTransactionId)} ${this.paperOut ? 'out of paper' : 'ok'}`);
        this.send({
          type: 'printed',
          posTransactionId: message.posTransactionId,
          ok: !this.paperOut,
          ...(this.paperOut ? { reason: 'out of paper' } : {}),
        });
        return;
      case 'sandbox.action':
        this.act(message.action as Record<string, unknown>);
        return;
      case 'error':
        this.log(`server error ${String(message.message)}`);
        return;
    }
  }

  /** The operator's control, done as the terminal's user would. */
  private act(action: Record<string, unknown>): void {
    this.log(`action ${String(action.action)}`);
    switch (action.action) {
      case 'present-card': {
        const card: PresentedCard = {
          pan: action.pan as string,
          expirationMonth: action.expirationMonth as number,
          expirationYear: action.expirationYear as number,
          readingMethod: (action.readingMethod as PresentedCard['readingMethod']) ?? 'chip',
          ...(typeof action.storageConsent === 'boolean' ? { storageConsent: action.storageConsent } : {}),
        };
        if (this.active?.readCard) this.read(card);
        else this.presented = card; // waits for the next transaction
        return;
      }
      case 'decline':
        if (this.active) this.send({ type: 'declined', posTransactionId: this.active.posTransactionId });
        this.active = undefined;
        return;
      case 'paper':
        this.paperOut = action.paperOut === true;
        this.status();
        return;
      case 'battery':
        this.battery = Number(action.level);
        this.status();
        return;
      case 'connection':
        // Switched off: the server closes the socket and refuses logins until switched on; the retries carry on.
        return;
    }
  }

  private read(card: PresentedCard): void {
    const active = this.active!;
    this.presented = undefined;
    this.active = { ...active, readCard: false };
    this.log(`card ${active.posTransactionId} ${card.readingMethod}`);
    this.send({ type: 'card', posTransactionId: active.posTransactionId, ...card });
  }
}
