import type { Clock } from '../../platform/clock/clock.js';
import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/observability/logger.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { PaymentsService } from '../payments/payments.service.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import type { TerminalChannel } from '../terminals/channel/terminal-channel.js';
import type { TerminalsService } from '../terminals/terminals.service.js';
import type { PosWaiters } from './pos-waiters.js';

/** What the POS module uses. */
export interface PosDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  kek: KeyEncryptionKey;
  merchants: MerchantsService;
  customers: CustomersService;
  payments: PaymentsService;
  transactions: TransactionsService;
  terminals: TerminalsService;
  channel: TerminalChannel;
  waiters: PosWaiters;
  nodeId: () => number;
}

/** How long a terminal has to accept a transaction, and a cardholder to present the card, before it ends. */
export const ACCEPT_TIMEOUT_MS = 60_000;
export const CARD_TIMEOUT_MS = 5 * 60_000;
/** A payment whose outcome is still unknown after this long is an Inconsistency (the merchant must look). */
export const INCONSISTENT_AFTER_MS = 30 * 60_000;
/** A payment being made for longer than this (its node alive but silent) is looked at by the sweep. */
export const STUCK_AFTER_MS = 2 * 60_000;
