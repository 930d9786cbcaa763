/**
 * Who may do what in the dashboard: one table, read by every page and action on the server (a hidden button is a
 * convenience; the server refuses a forged request all the same). A new action cannot ship without its roles: the
 * route declares its action, and the action must be in this table (a test reads both).
 */
export const ROLES = ['owner', 'admin', 'developer', 'analyst', 'staff'] as const;
export type Role = (typeof ROLES)[number];

const EVERYONE = ROLES;
const MANAGERS = ['owner', 'admin'] as const;
const BUILDERS = ['owner', 'admin', 'developer'] as const;
const READERS = ['owner', 'admin', 'developer', 'analyst'] as const;

export const ACTIONS = {
  /** Home: the volume, approvals and declines, recent activity. */
  'home.view': EVERYONE,
  /** The transaction list and a transaction's page (staff: the ones it made). */
  'transactions.view': EVERYONE,
  'transactions.export': READERS,
  /** Capture, void, refund, tip adjustment. */
  'transactions.manage': MANAGERS,
  /** A transaction's receipt by e-mail or SMS (staff: for the payments it took). */
  'transactions.receipt': ['owner', 'admin', 'staff'],
  /** The virtual terminal: keyed card sales and authorizations, vaulted methods, ACH debits. */
  'terminal.charge': ['owner', 'admin', 'staff'],
  'customers.view': READERS,
  'customers.manage': MANAGERS,
  'settlements.view': READERS,
  /** Subscriptions, invoices and payment links: seen by readers, changed by managers. */
  'billing.view': READERS,
  'billing.manage': MANAGERS,
  'webhooks.view': BUILDERS,
  'webhooks.manage': BUILDERS,
  'keys.manage': BUILDERS,
  'logs.view': BUILDERS,
  /** Devices and terminals: their status; Tap to Pay requested by managers. */
  'devices.view': READERS,
  'devices.manage': MANAGERS,
  /** The payment configuration and invoice defaults: seen by readers, changed by managers. */
  'settings.view': READERS,
  'settings.manage': MANAGERS,
  'team.manage': MANAGERS,
  'audit.view': MANAGERS,
  /** The operator's console (operator users only): the deployment's files exchanged with banks. */
  'operator.view': READERS,
  /** The operator's actions: Tap to Pay decisions, and in the sandbox the clock, the card network, terminals. */
  'operator.manage': MANAGERS,
  /** Its own account: password, second factor, sign out everywhere. */
  'account.manage': EVERYONE,
} as const satisfies Record<string, readonly Role[]>;
export type Action = keyof typeof ACTIONS;

export function can(role: Role, action: Action): boolean {
  return (ACTIONS[action] as readonly Role[]).includes(role);
}
