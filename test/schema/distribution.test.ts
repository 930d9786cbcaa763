// Ready for a distributed PostgreSQL (Citus and the like, `merchant_id` as the distribution column): every table is
// classified, every tenant table carries `merchant_id`, and every statement over a tenant table names it (so it can be
// routed to one shard) or says why it reads across merchants. docs/performance.md, "Beyond one PostgreSQL".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ownerCondition } from '../../src/modules/webhooks/webhooks.repo.js';
import { createClient } from '../../src/platform/db/pool.js';
import { createTestDatabase, type TestDatabase } from '../harness.js';
import { sourceFiles, sqlStatements } from '../source-literals.js';

/** Rows of one merchant: distributed by `merchant_id`, which is NOT NULL. */
const TENANT = [
  'ach_entries',
  'ach_file_parts',
  'ach_files',
  'card_avs_reversals',
  'customers',
  'dashboard_volume',
  'dashboard_volume_marks',
  'data_keys',
  'device_users',
  'devices',
  'event_stream_leases',
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
  'processor_credentials',
  'processor_notifications',
  'request_logs',
  'settlement_batches',
  'subscription_attempts',
  'subscription_installments',
  'subscriptions',
  'terminals',
  'transactions',
];
/** Owned by a merchant or by a partner: `merchant_id` when the merchant's, `partner_id` when the partner's. */
const MERCHANT_OR_PARTNER = ['events', 'webhook_deliveries', 'webhook_delivery_logs', 'webhook_endpoints'];
/**
 * The tenant table itself (its `id` is the merchant id), and what is keyed by a caller's credential rather than by a
 * merchant (a merchant's or a partner's client id): looked up by that key alone, before the merchant is known.
 */
const ROOT_AND_CREDENTIALS = [
  'merchants',
  'api_keys',
  'idempotency_keys',
  'refresh_tokens',
  'token_families',
  // The dashboard's people (of a merchant, a partner or the operator): found by e-mail, session cookie or token.
  'dashboard_users',
  'dashboard_sessions',
  'dashboard_tokens',
  'dashboard_audit',
];
/** Partners and what hangs off them: few rows, read with every merchant of the partner (reference tables). */
const PARTNER = ['merchant_portfolio_counts', 'partner_principals', 'partners'];
/** The deployment's own state: one copy, on the coordinator. */
const PLATFORM = [
  // A bank connection's files carry many merchants' entries: the deployment's, like the connection.
  'ach_bank_files',
  'ach_bank_polls',
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
/**
 * Routed to one merchant's shard: `merchant_id` compared with a parameter (`= $1`, `= ANY($1)`), or written as a
 * column of the rows inserted. A join on `merchant_id` alone keeps a join on one shard but routes nothing.
 */
const ROUTED = [
  /\bmerchant_id\s*=\s*(?:\$(?:\d| \? )|ANY\s*\(\s*\$)/i,
  /\bINSERT\s+INTO\s+\w+(?:\s+AS\s+\w+)?\s*\([^)]*\bmerchant_id\b/i,
];
const routed = (statement: string) => ROUTED.some((p) => p.test(statement)) || ACROSS_MERCHANTS.test(statement);

/**
 * Functions that write a statement's tenant condition, with what they write: a hole that calls one (or a constant
 * assigned from one) reads as that. The test below checks each writes a routed condition.
 */
const CONDITION_BUILDERS: Record<string, string> = {
  ownerCondition: ownerCondition({ merchantId: 'm' }, []),
};

/** The statements of one source file over any of `tables`, each with whether it is routed. */
function tenantStatementsIn(source: string, tables: ReadonlySet<string>) {
  const found: Array<{ text: string; routed: boolean }> = [];
  for (const literal of sqlStatements(source, CONDITION_BUILDERS)) {
    if (!/\b(SELECT|UPDATE|INSERT\s+INTO|DELETE\s+FROM|DECLARE)\b/i.test(literal)) continue;
    // A comment may stand between a verb and its table (`UPDATE /* across merchants: ... */ jobs`).
    const bare = literal.replace(/\/\*[\s\S]*?\*\//g, ' ');
    const touched = [...bare.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi)].filter((m) =>
      tables.has(m[1]!.toLowerCase()),
    );
    if (touched.length > 0) found.push({ text: literal, routed: routed(literal) });
  }
  return found;
}

function tenantStatements(tables: ReadonlySet<string>) {
  return sourceFiles('src', '.ts').flatMap((file) =>
    tenantStatementsIn(readFileSync(file, 'utf8'), tables).map((statement) => ({ file, ...statement })),
  );
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
        // A partitioned table counts once: its partitions (month by month, docs/operations.md "Retention") are its.
        `SELECT c.table_name, c.column_name, c.is_nullable = 'YES' AS nullable
         FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
         JOIN pg_class k ON k.relname = c.table_name AND k.relnamespace = 'public'::regnamespace
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND NOT k.relispartition`,
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
    const unrouted = tenantStatements(new Set([...TENANT, ...MERCHANT_OR_PARTNER]))
      .filter((statement) => !statement.routed)
      .map((statement) => `${statement.file}: ${statement.text.replace(/\s+/g, ' ').slice(0, 120)}`);
    assert.deepEqual(unrouted, []);
  });

  it('knows what each condition builder writes, and that it routes', () => {
    for (const [name, written] of Object.entries(CONDITION_BUILDERS)) assert.ok(routed(written), name);
    assert.equal(ownerCondition({ merchantId: 'm' }, [], 'e.'), 'e.merchant_id = $1');
  });

  it('catches a statement that does not name merchant_id (the check itself works)', () => {
    const source = [
      'const SELECT = `SELECT t.* FROM transactions t`;',
      'q(`SELECT * FROM transactions WHERE id = $1`);',
      'q(`SELECT * FROM transactions WHERE merchant_id = $1 AND id = $2`);',
      'q(`SELECT /* across merchants: the audit */ count(*) FROM transactions`);',
      'q(`UPDATE /* a comment */ transactions SET x = 1 WHERE id = $1`);',
      "q('SELECT 1 FROM jobs');",
      // A statement built on a constant of the file is read whole: routed by its WHERE, or not.
      'q(`${SELECT} WHERE t.merchant_id = $1`);',
      'q(`${SELECT} WHERE t.id = $1`);',
      // A join on merchant_id keeps the join on one shard but routes nothing; an inserted merchant_id routes.
      'q(`SELECT * FROM transactions t JOIN ach_entries a ON a.merchant_id = t.merchant_id WHERE t.id = $1`);',
      "q('INSERT INTO transactions (id, merchant_id) VALUES ($1, $2)');",
      // Conditions gathered in an array are read from what it starts with; a builder's hole as what it writes.
      "const where = ['t.merchant_id = $1', 't.deleted_at IS NULL'];",
      "q(`SELECT * FROM transactions t WHERE ${where.join(' AND ')}`);",
      'q(`SELECT * FROM transactions t WHERE ${ownerCondition(owner, params)}`);',
    ].join('\n');
    const verdicts = tenantStatementsIn(source, new Set(['transactions'])).map((statement) => statement.routed);
    assert.deepEqual(verdicts, [false, true, true, false, true, false, false, true, true, true]);
  });
});
