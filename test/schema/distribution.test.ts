// Ready for a distributed PostgreSQL (Citus and the like, `merchant_id` as the distribution column): every table is
// classified, every tenant table carries `merchant_id`, and every statement over a tenant table names it (so it can be
// routed to one shard) or says why it reads across merchants. docs/performance.md, "Beyond one PostgreSQL".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../src/platform/db/pool.js';
import { createTestDatabase, type TestDatabase } from '../harness.js';
import { sourceFiles, stringLiterals } from '../source-literals.js';

/** Rows of one merchant: distributed by `merchant_id`, which is NOT NULL. */
const TENANT = [
  'ach_entries',
  'ach_file_parts',
  'ach_files',
  'customers',
  'data_keys',
  'devices',
  'invoice_categories',
  'invoice_counts',
  'invoice_line_items',
  'invoice_number_counters',
  'invoice_settings',
  'invoices',
  'ledger_accounts',
  'ledger_balances',
  'ledger_entries',
  'merchant_addresses',
  'merchant_compliance_snapshots',
  'merchant_portfolios',
  'messages',
  'payment_link_payments',
  'payment_links',
  'payment_methods',
  'payment_processors',
  'payment_sessions',
  'pos_transactions',
  'settlement_batches',
  'subscription_attempts',
  'subscription_installments',
  'subscriptions',
  'terminals',
  'transactions',
];
/** Owned by a merchant or by a partner: `merchant_id` when the merchant's, `partner_id` when the partner's. */
const MERCHANT_OR_PARTNER = ['api_keys', 'events', 'webhook_deliveries', 'webhook_delivery_logs', 'webhook_endpoints'];
/**
 * The tenant table itself (its `id` is the merchant id), and what is keyed by a caller's credential rather than by a
 * merchant (a merchant's or a partner's client id): looked up by that key alone, before the merchant is known.
 */
const ROOT_AND_CREDENTIALS = ['merchants', 'idempotency_keys', 'refresh_tokens', 'token_families'];
/** Partners and what hangs off them: few rows, read with every merchant of the partner (reference tables). */
const PARTNER = ['merchant_portfolio_counts', 'partner_principals', 'partners'];
/** The deployment's own state: one copy, on the coordinator. */
const PLATFORM = [
  'clock_state',
  'deployment',
  'jobs',
  'key_encryption_keys',
  'operator_token',
  'rate_limit_counters',
  'schedules',
  'schema_migrations',
  'signing_keys',
  'vault_secrets',
];
/** The sandbox's stand-ins for the outside world (card network, bank, terminal devices): no such table in a real one. */
const SIMULATOR = [
  'sandbox_ach_bank_files',
  'sandbox_card_network',
  'sandbox_card_network_conditions',
  'sandbox_terminals',
];

/** A statement that reads or writes across merchants on purpose says so, with the reason, in its text. */
const ACROSS_MERCHANTS = /\/\* across merchants: [^*]+\*\//;
const routed = (statement: string) => /\bmerchant_id\b/i.test(statement) || ACROSS_MERCHANTS.test(statement);

/**
 * Statements over tenant tables that do not name `merchant_id` yet, per file: they still work on a distributed
 * PostgreSQL (as multi-shard statements), but are not routed to one shard. The count may only go down: a new
 * statement names `merchant_id` or says why it reads across merchants.
 */
const NOT_YET_ROUTED: Record<string, number> = {
  'src/modules/api-keys/api-keys.repo.ts': 1,
  'src/modules/customers/customers.repo.ts': 4,
  'src/modules/invoices/categories.repo.ts': 2,
  'src/modules/invoices/invoices.repo.ts': 4,
  'src/modules/invoices/line-items.repo.ts': 2,
  'src/modules/links/links.repo.ts': 7,
  'src/modules/merchants/merchants.repo.ts': 1,
  'src/modules/merchants/portfolio/portfolio.repo.ts': 4,
  'src/modules/messages/messages.repo.ts': 6,
  'src/modules/payments/ach/ach-cutoff.ts': 3,
  'src/modules/payments/ach/clear.ts': 1,
  'src/modules/payments/ach/cutoff.ts': 3,
  'src/modules/payments/ach/files.ts': 1,
  'src/modules/payments/ach/returns.ts': 6,
  'src/modules/payments/ach/submit.ts': 3,
  'src/modules/payments/transactions-list.repo.ts': 2,
  'src/modules/payments/transactions.repo.ts': 7,
  'src/modules/pos/pos.repo.ts': 3,
  'src/modules/sessions/sessions.repo.ts': 4,
  'src/modules/settlements/settlements.repo.ts': 6,
  'src/modules/settlements/settlements.service.ts': 1,
  'src/modules/subscriptions/installments.repo.ts': 11,
  'src/modules/subscriptions/subscriptions.repo.ts': 6,
  'src/modules/terminals/terminals.repo.ts': 6,
  'src/modules/vault/vault.repo.ts': 1,
  'src/modules/webhooks/webhooks.repo.ts': 15,
  'src/modules/webhooks/webhooks.service.ts': 1,
};

function tenantStatements(tables: ReadonlySet<string>) {
  const found: Array<{ file: string; text: string; routed: boolean }> = [];
  for (const file of sourceFiles('src', '.ts')) {
    for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
      if (!/\b(SELECT|UPDATE|INSERT\s+INTO|DELETE\s+FROM|DECLARE)\b/i.test(literal)) continue;
      const touched = [...literal.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi)].filter((m) =>
        tables.has(m[1]!.toLowerCase()),
      );
      if (touched.length === 0) continue;
      found.push({ file, text: literal, routed: routed(literal) });
    }
  }
  return found;
}

describe('ready for a distributed PostgreSQL', () => {
  let db: TestDatabase;
  let columns: Map<string, Map<string, boolean>>;
  before(async () => {
    db = await createTestDatabase();
    const client = createClient(db.url);
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string; column_name: string; nullable: boolean }>(
        `SELECT c.table_name, c.column_name, c.is_nullable = 'YES' AS nullable
         FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`,
      );
      columns = new Map();
      for (const r of rows) {
        const table = columns.get(r.table_name) ?? new Map<string, boolean>();
        table.set(r.column_name, r.nullable);
        columns.set(r.table_name, table);
      }
    } finally {
      await client.end();
    }
  });
  after(() => db?.drop());

  it('classifies every table of the schema, and only those', () => {
    const classified = [
      ...TENANT,
      ...MERCHANT_OR_PARTNER,
      ...ROOT_AND_CREDENTIALS,
      ...PARTNER,
      ...PLATFORM,
      ...SIMULATOR,
    ];
    assert.equal(new Set(classified).size, classified.length, 'a table is in two classes');
    assert.deepEqual([...columns.keys()].sort(), [...classified].sort());
  });

  it('gives every tenant table a merchant_id that is never null', () => {
    const offenders = TENANT.filter((t) => columns.get(t)?.get('merchant_id') !== false);
    assert.deepEqual(offenders, []);
  });

  it('gives every table owned by a merchant or a partner both columns', () => {
    const offenders = MERCHANT_OR_PARTNER.filter(
      (t) => !columns.get(t)?.has('merchant_id') || (t !== 'webhook_deliveries' && !columns.get(t)?.has('partner_id')),
    );
    assert.deepEqual(offenders, []);
  });

  it('names merchant_id in every statement over a tenant table, or says why it reads across merchants', () => {
    const unrouted = new Map<string, number>();
    for (const s of tenantStatements(new Set([...TENANT, ...MERCHANT_OR_PARTNER]))) {
      if (!s.routed) unrouted.set(s.file, (unrouted.get(s.file) ?? 0) + 1);
    }
    const grew = [...unrouted].filter(([file, n]) => n > (NOT_YET_ROUTED[file] ?? 0));
    assert.deepEqual(
      grew.map(([file, n]) => `${file}: ${n} statements without merchant_id (${NOT_YET_ROUTED[file] ?? 0} allowed)`),
      [],
    );
    // A file that routes more than the list says lowers the list, so the count stays a ratchet.
    const shrank = Object.entries(NOT_YET_ROUTED).filter(([file, n]) => (unrouted.get(file) ?? 0) < n);
    assert.deepEqual(
      shrank.map(([file, n]) => `${file}: ${unrouted.get(file) ?? 0} left, the list says ${n}`),
      [],
    );
  });

  it('catches a statement that does not name merchant_id (the check itself works)', () => {
    const source = [
      'const a = `SELECT * FROM transactions WHERE id = $1`;',
      'const b = `SELECT * FROM transactions WHERE merchant_id = $1 AND id = $2`;',
      'const c = `SELECT /* across merchants: the audit */ count(*) FROM transactions`;',
      "const d = 'SELECT 1 FROM jobs';",
    ].join('\n');
    const verdicts = stringLiterals(source)
      .filter((text) => /\btransactions\b/.test(text))
      .map(routed);
    assert.deepEqual(verdicts, [false, true, true]);
  });
});
