import type { Clock } from '../../platform/clock/clock.js';
import { isNodeAlive } from '../../platform/cluster/node-liveness.js';
import { newId } from '../../platform/crypto/ids.js';
import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import { hashSecret, randomSecret, secretMatches } from '../../platform/crypto/secrets.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import type { EventName } from '../events/event-catalog.js';
import { recordEvent } from '../events/outbox.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { sealedCardContext } from './presented-card.js';
import {
  changeSandboxTerminal,
  presentCard,
  readSandboxTerminal,
  type SandboxTerminalState,
  takePresentedCard,
} from './sandbox-terminal.repo.js';
import { DeliveryStatus, MANUFACTURER_OF_MODEL, type Terminal, type TerminalReport } from './terminals.model.js';
import {
  findBySerial,
  findTerminal,
  insertTerminal,
  listTerminals,
  recordConnected,
  recordDisconnected,
  recordReport,
  type TerminalFilter,
  type TerminalListRow,
  type TerminalRef,
  updateTerminal,
} from './terminals.repo.js';

export interface TerminalsDeps {
  pool: Pool;
  clock: Clock;
  merchants: MerchantsService;
  /** Sandbox: a terminal on no socket is the virtual one the operator's controls drive. */
  sandbox: boolean;
  /** Seals a card presented to a sandbox terminal while it waits for a transaction. */
  kek: KeyEncryptionKey;
  /** This node's liveness id: a socket this node holds needs no liveness query. */
  nodeId: () => number;
}

export interface TerminalDraft {
  serialNumber: string;
  manufacturerId: number;
  modelId: number;
  modeId: number;
  deliveryStatusId?: number;
}

/** Where a terminal is right now: on a live socket, the sandbox's virtual terminal, or unreachable. */
export interface Presence {
  online: boolean;
  /** What it reported (null when offline: what it cannot know now). */
  report: TerminalReport | null;
  lastSeenAt: Date | null;
  /** True when the sandbox's in-process terminal stands in for a device. */
  virtual: boolean;
}

export class TerminalsService {
  private readonly busyChecks: Array<(terminal: { merchantId: string; id: string }) => Promise<boolean>> = [];

  constructor(private readonly deps: TerminalsDeps) {}

  /**
   * A module that runs work on terminals (POS transactions) says whether a terminal is busy with some: the terminal
   * status shows it. Registered by that module when it is built, so this module does not depend on it.
   */
  onBusyCheck(check: (terminal: { merchantId: string; id: string }) => Promise<boolean>): void {
    this.busyChecks.push(check);
  }

  /** Whether any module has work in progress on the terminal. */
  async busy(terminal: { merchantId: string; id: string }): Promise<boolean> {
    for (const check of this.busyChecks) if (await check(terminal)) return true;
    return false;
  }

  /**
   * A card presented to a sandbox terminal with no transaction to read it: kept, sealed with the key-encryption key
   * under the terminal's id, for the next transaction (one card at a time: a second replaces the first).
   */
  async keepPresentedCard(terminalId: string, card: unknown): Promise<void> {
    const { pool, clock, kek } = this.deps;
    const sealed = kek.seal(Buffer.from(JSON.stringify(card)), sealedCardContext(terminalId));
    await presentCard(pool, terminalId, sealed, kek.version, clock.now());
  }

  /** The card kept for the terminal, taken (once: a second reader finds none), or null. */
  async takePresentedCard(terminalId: string): Promise<unknown> {
    const presented = await takePresentedCard(this.deps.pool, terminalId);
    if (!presented) return null;
    return JSON.parse(
      this.deps.kek.open(presented.sealed, sealedCardContext(terminalId), presented.kekVersion).toString(),
    );
  }

  /** Registers a terminal for a merchant; the secret (its channel login) is answered once and stored hashed. */
  async register(merchantId: string, draft: TerminalDraft): Promise<{ terminal: Terminal; secret: string }> {
    await this.deps.merchants.getMerchant(merchantId);
    if (MANUFACTURER_OF_MODEL[draft.modelId] !== draft.manufacturerId) {
      throw ValidationError.field('terminalModel', "'terminalModel' is not a model of 'terminalManufacturer'.");
    }
    const secret = randomSecret();
    const id = newId();
    return withTransaction(this.deps.pool, async (tx) => {
      const inserted = await insertTerminal(tx, {
        id,
        merchantId,
        serialNumber: draft.serialNumber,
        manufacturerId: draft.manufacturerId,
        modelId: draft.modelId,
        modeId: draft.modeId,
        deliveryStatusId: draft.deliveryStatusId ?? DeliveryStatus.PendingShipment,
        secretHash: hashSecret(secret),
        at: this.deps.clock.now(),
      });
      if (!inserted) throw ValidationError.field('serialNumber', "A terminal with this 'serialNumber' is registered.");
      await this.event(tx, 'terminal.added', merchantId, id);
      return { terminal: (await findTerminal(tx, id))!, secret };
    });
  }

  /** The operator's changes: mode and delivery status. A deactivated terminal stays so. */
  async update(id: string, changes: { modeId?: number; deliveryStatusId?: number }): Promise<Terminal> {
    return withTransaction(this.deps.pool, async (tx) => {
      const current = await findTerminal(tx, id, undefined, true);
      if (!current) throw new NotFoundError('Terminal', id);
      if (current.deactivatedAt && changes.deliveryStatusId !== undefined) {
        throw ValidationError.field('deliveryStatusId', 'The terminal is deactivated.');
      }
      return (await updateTerminal(tx, current, changes, this.deps.clock.now()))!;
    });
  }

  /**
   * Deactivated: it takes no transactions and its channel login is refused (Inactive). Repeating changes nothing.
   * The caller closes its socket (TerminalChannel.disconnect).
   */
  async deactivate(id: string): Promise<Terminal> {
    return withTransaction(this.deps.pool, async (tx) => {
      const current = await findTerminal(tx, id, undefined, true);
      if (!current) throw new NotFoundError('Terminal', id);
      if (current.deactivatedAt) return current;
      const now = this.deps.clock.now();
      const updated = await updateTerminal(
        tx,
        current,
        { deliveryStatusId: DeliveryStatus.Inactive, deactivatedAt: now },
        now,
      );
      await this.event(tx, 'terminal.deactivated', current.merchantId, id);
      return updated!;
    });
  }

  async get(merchantId: string | undefined, id: string): Promise<Terminal> {
    const terminal = await findTerminal(this.deps.pool, id, merchantId);
    if (!terminal) throw new NotFoundError('Terminal', id);
    return terminal;
  }

  list(filter: TerminalFilter, page: PageRequest): Promise<{ items: TerminalListRow[]; total: number }> {
    return listTerminals(this.deps.pool, filter, page);
  }

  /** Online when a live node holds its socket, or (sandbox, no socket) when its virtual terminal is switched on. */
  async presence(terminal: Terminal, sql: Sql = this.deps.pool): Promise<Presence> {
    const held =
      terminal.socketNode !== null &&
      (terminal.socketNode === this.deps.nodeId() || (await isNodeAlive(sql, terminal.socketNode)));
    if (held) {
      return { online: true, report: terminal.report, lastSeenAt: terminal.lastSeenAt, virtual: false };
    }
    if (this.deps.sandbox && !terminal.deactivatedAt) {
      const state = await readSandboxTerminal(sql, terminal.id);
      if (state.online) {
        return {
          online: true,
          virtual: true,
          lastSeenAt: this.deps.clock.now(),
          report: {
            batteryLevel: state.batteryLevel,
            printerStatus: state.paperOut ? 'NotNormal' : 'Normal',
            paperOut: state.paperOut,
            connectionType: 'WiFi',
            wifiConnectionStrength: 100,
            mobileConnectionStrength: null,
            softwareVersion: 'sandbox',
          },
        };
      }
    }
    return { online: false, report: null, lastSeenAt: terminal.lastSeenAt, virtual: false };
  }

  /**
   * A terminal's channel login: its serial number and secret. Null for an unknown terminal, a wrong secret or a
   * deactivated terminal (the caller cannot tell which).
   */
  async login(serialNumber: string, secret: string): Promise<Terminal | null> {
    const found = await findBySerial(this.deps.pool, serialNumber);
    if (!found || !secretMatches(secret, found.secretHash) || found.terminal.deactivatedAt) return null;
    return found.terminal;
  }

  /** Sandbox: whether the operator switched the terminal's connection off (its simulator may not log in then). */
  async switchedOff(terminalId: string): Promise<boolean> {
    return this.deps.sandbox && !(await readSandboxTerminal(this.deps.pool, terminalId)).online;
  }

  connected(terminal: TerminalRef, node: number): Promise<void> {
    return recordConnected(this.deps.pool, terminal, node, this.deps.clock.now());
  }

  disconnected(terminal: TerminalRef, node: number): Promise<void> {
    return recordDisconnected(this.deps.pool, terminal, node);
  }

  /** A heartbeat; the paper running out records `terminal.out_of_paper` (once per roll). */
  async report(terminal: Terminal, report: TerminalReport): Promise<void> {
    await withTransaction(this.deps.pool, async (tx) => {
      if (await recordReport(tx, terminal, report, this.deps.clock.now())) {
        await this.event(tx, 'terminal.out_of_paper', terminal.merchantId, terminal.id);
      }
    });
  }

  /** A print failed for want of paper: the merchant hears of it again (`terminal.out_of_paper`). */
  async outOfPaper(terminal: Terminal): Promise<void> {
    await withTransaction(this.deps.pool, (tx) =>
      this.event(tx, 'terminal.out_of_paper', terminal.merchantId, terminal.id),
    );
  }

  /** Sandbox: the operator's control of the virtual terminal; paper running out records `terminal.out_of_paper`. */
  async changeSandbox(
    terminal: Terminal,
    change: Partial<SandboxTerminalState>,
    /** False when a simulator process plays the terminal: its own report announces the paper running out. */
    announce = true,
  ): Promise<SandboxTerminalState> {
    return withTransaction(this.deps.pool, async (tx) => {
      const { before, after } = await changeSandboxTerminal(tx, terminal.id, change, this.deps.clock.now());
      if (announce && after.paperOut && !before.paperOut) {
        await this.event(tx, 'terminal.out_of_paper', terminal.merchantId, terminal.id);
      }
      return after;
    });
  }

  private async event(tx: Sql, type: Extract<EventName, `terminal.${string}`>, merchantId: string, id: string) {
    await recordEvent(tx, this.deps.clock, { type, merchantId, resourceType: 'terminal', resourceId: id });
  }
}
