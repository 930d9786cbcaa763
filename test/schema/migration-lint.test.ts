// Migrations run while the previous version serves payments (rolling upgrades, docs/operations.md): squawk refuses
// any statement that rewrites a table or holds a lock that stops reads or writes on one. Migrations up to
// LAST_FROZEN predate rolling upgrades and can never change (the migrator checks their checksums); every later one is
// linted. An exception is a `-- squawk-ignore <rule>` line with the reason on the comment line right above it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { discoverMigrations, type Migration } from '../../src/platform/db/migrator.js';
import { projectRoot } from '../../src/platform/paths.js';

const LAST_FROZEN = 73;
const root = projectRoot();
const SQUAWK = path.join(root, 'node_modules', '.bin', 'squawk');
const CONFIG = path.join(root, 'lint', 'squawk.toml');

interface Finding {
  file: string;
  line: number;
  rule_name: string;
  message: string;
}

async function squawk(files: string[], inTransaction: boolean): Promise<Finding[]> {
  if (files.length === 0) return [];
  const args = ['--reporter', 'json', '-c', CONFIG, ...(inTransaction ? ['--assume-in-transaction'] : []), ...files];
  // Exit status 1 means findings; the JSON on standard output says which.
  const output = await promisify(execFile)(SQUAWK, args, { cwd: root }).catch(
    (error: { stdout?: string; code?: number }) => {
      if (error.code !== 1 || !error.stdout) throw error;
      return { stdout: error.stdout };
    },
  );
  return JSON.parse(output.stdout) as Finding[];
}

async function lint(migrations: Migration[]): Promise<Finding[]> {
  const files = (transactional: boolean) =>
    migrations
      .filter((m) => m.transactional === transactional)
      .flatMap((m) => m.parts.map((part) => path.join(root, part.file)));
  return [...(await squawk(files(true), true)), ...(await squawk(files(false), false))];
}

describe('migration linter', () => {
  it('finds no statement that rewrites or locks a busy table in a migration after the frozen ones', async () => {
    const linted = discoverMigrations().filter((m) => m.version > LAST_FROZEN);
    const findings = await lint(linted);
    assert.deepEqual(
      findings.map((f) => `${path.relative(root, f.file)}:${f.line}: ${f.rule_name}: ${f.message}`),
      [],
    );
  });

  it('gives every exception its reason', () => {
    for (const migration of discoverMigrations().filter((m) => m.version > LAST_FROZEN)) {
      for (const part of migration.parts) {
        const lines = part.sql.split('\n');
        lines.forEach((line, i) => {
          if (!/squawk-ignore/.test(line)) return;
          assert.match(lines[i - 1] ?? '', /^\s*--\s*\S/, `${part.file}:${i + 1}: say why above the squawk-ignore`);
        });
      }
    }
  });

  it('refuses what would stop payments (the check itself works)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-squawk-'));
    const file = path.join(dir, '9999_bad.sql');
    writeFileSync(
      file,
      [
        'CREATE INDEX transactions_amount_idx ON transactions (amount_cents);',
        'ALTER TABLE transactions ALTER COLUMN amount_cents TYPE numeric;',
        'ALTER TABLE transactions ADD CONSTRAINT positive CHECK (amount_cents > 0);',
        'ALTER TABLE transactions ALTER COLUMN reference_id SET NOT NULL;',
      ].join('\n'),
    );
    const rules = new Set((await squawk([file], true)).map((f) => f.rule_name));
    for (const rule of [
      'require-concurrent-index-creation',
      'changing-column-type',
      'constraint-missing-not-valid',
      'adding-not-nullable-field',
    ]) {
      assert.ok(rules.has(rule), `${rule} in ${[...rules].join(', ')}`);
    }
  });
});
