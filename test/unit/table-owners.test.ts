// Each table has one owning module: the one whose migration creates it. Only that module's files write it (INSERT,
// UPDATE, DELETE); every other module calls the owner's service. This reads every migration for its CREATE TABLEs and
// every source file's string literals for the tables they write.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sourceFiles as files, stringLiterals } from '../source-literals.js';

/**
 * The folder that owns a migration's tables: the one holding its `migrations/` folder; the platform's migrations
 * (src/platform/db/migrations) belong to the platform as a whole.
 */
function ownerOf(migration: string): string {
  const folder = path.dirname(path.dirname(migration));
  return folder === path.join('src', 'platform', 'db') ? path.join('src', 'platform') : folder;
}

/** Tables created by a migration of another folder than their owner's, with the owner. */
const OWNER_OVERRIDES: Record<string, string> = {
  // Created with the platform's first migration; the operator module is its only reader and writer.
  operator_token: path.join('src', 'modules', 'operator'),
  // The outbox of domain events: recorded through the events module (recordEvent), read by its streams.
  events: path.join('src', 'modules', 'events'),
};
/**
 * Writes that cross a module boundary on purpose, with the reason. Key rotation re-wraps sealed values wherever they
 * are stored, in one pass, as an operator command.
 */
const ALLOWED: Record<string, string[]> = {
  'src/modules/vault/key-rotation.ts': [
    'key_encryption_keys',
    'idempotency_keys',
    'webhook_endpoints',
    'oauth_signing_keys',
  ],
};

describe('table ownership', () => {
  const owners = new Map<string, string>();
  for (const migration of files('src', '.sql')) {
    for (const match of readFileSync(migration, 'utf8').matchAll(
      /CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?(\w+)/gi,
    )) {
      owners.set(match[1]!.toLowerCase(), ownerOf(migration));
    }
  }
  for (const [table, owner] of Object.entries(OWNER_OVERRIDES)) owners.set(table, owner);

  it('knows the owner of every table', () => {
    assert.ok(owners.get('transactions')?.endsWith(path.join('modules', 'payments')));
    assert.ok(owners.size > 20);
  });

  it('writes each table only from its owning module', () => {
    const offenders: string[] = [];
    for (const file of files('src', '.ts')) {
      for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
        for (const match of literal.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/gi)) {
          const table = match[1]!.toLowerCase();
          const owner = owners.get(table);
          if (!owner || file.startsWith(`${owner}${path.sep}`)) continue;
          if (ALLOWED[file]?.includes(table)) continue;
          offenders.push(`${file} writes ${table} (owned by ${owner})`);
        }
      }
    }
    assert.deepEqual([...new Set(offenders)].sort(), []);
  });
});
