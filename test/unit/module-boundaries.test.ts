// Each table has one owning module, named in its manifest (src/modules/<m>/module.ts; the platform's in
// src/platform/db/platform-tables.ts). Only the owner's files read or write it and only its migrations change it;
// another module reads it through the owner's services or a view or read file the owner publishes. Checked over the
// source text of every file under src/ (test/module-boundaries.ts), and over fixtures that show each rule failing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MODULES } from '../../src/modules/index.js';
import { PLATFORM_TABLES } from '../../src/platform/db/platform-tables.js';
import { IDEMPOTENCY_SEALED } from '../../src/platform/http/idempotency.js';
import {
  type Allowances,
  type BoundaryModule,
  boundaryOffenses,
  importCycles,
  type SourceFile,
} from '../module-boundaries.js';
import { sourceFiles } from '../source-literals.js';

const PROJECT_MODULES: BoundaryModule[] = [
  { folder: 'platform', tables: PLATFORM_TABLES },
  ...MODULES.map((m) => ({ folder: m.folder, tables: m.tables, publishes: m.publishes, reads: m.reads })),
];

const ALLOWANCES: Allowances = {
  dynamic: {
    'src/platform/crypto/key-rotation.ts':
      "re-wraps the sealed columns each module declares in its manifest (`sealed`), which must be the module's own " +
      '(checked below), and the platform its own',
    'src/platform/db/time-partitions.ts':
      'creates and drops the month and day partitions of the tables modules hand it (their purges, the request log), ' +
      "each the module's own",
  },
  history: {
    'src/modules/webhooks/migrations/0014_webhooks.sql':
      "its fan-out read merchants for a merchant's partner; 0061 replaced it with one that reads merchant_accounts",
    'src/modules/webhooks/migrations/0049_webhook_deliveries_merchant_id.sql':
      'its backfill read events once; its fan-out read merchants, replaced by 0061 (merchant_accounts)',
  },
};

const projectFiles = (): SourceFile[] =>
  [...sourceFiles('src', '.ts'), ...sourceFiles('src', '.sql')].map((file) => ({
    path: file.split(path.sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));

/** Two modules, a and b, each with one table; b publishes a view of its table. */
const FIXTURE_MODULES: BoundaryModule[] = [
  { folder: 'modules/a', tables: ['a_items'], reads: [] },
  { folder: 'modules/b', tables: ['b_items'], publishes: ['b_names'] },
];
const FIXTURE_FILES: SourceFile[] = [
  { path: 'src/modules/a/migrations/0001_a.sql', text: 'CREATE TABLE a_items (id uuid PRIMARY KEY);' },
  {
    path: 'src/modules/b/migrations/0002_b.sql',
    text: 'CREATE TABLE b_items (id uuid PRIMARY KEY, name text);\nCREATE VIEW b_names AS SELECT id, name FROM b_items;',
  },
  { path: 'src/modules/a/a.repo.ts', text: "export const q = 'SELECT id FROM a_items WHERE id = $1';" },
  { path: 'src/modules/b/b.repo.ts', text: "export const q = 'UPDATE b_items SET name = $2 WHERE id = $1';" },
];
const offensesWith = (files: SourceFile[], modules = FIXTURE_MODULES, allowances: Allowances = {}) =>
  boundaryOffenses(modules, [...FIXTURE_FILES, ...files], allowances);

describe('module boundaries', () => {
  it('holds in the project: every table read, written and changed only by its owner', () => {
    assert.deepEqual(boundaryOffenses(PROJECT_MODULES, projectFiles(), ALLOWANCES), []);
  });

  it('has no files that import each other at run time', () => {
    assert.deepEqual(importCycles(projectFiles()), []);
    // The check itself: a cycle of two files is found, a type-only import is not one.
    const a = { path: 'src/a.ts', text: "import { b } from './b.js';\nexport const a = 1;" };
    assert.deepEqual(
      importCycles([a, { path: 'src/b.ts', text: "import { a } from './a.js';\nexport const b = a;" }]),
      [['src/a.ts', 'src/b.ts']],
    );
    assert.deepEqual(
      importCycles([a, { path: 'src/b.ts', text: "import type { a } from './a.js';\nexport const b = 2;" }]),
      [],
    );
  });

  it('declares each sealed column in the manifest of the module that owns its table', () => {
    for (const module of MODULES) {
      for (const column of module.sealed ?? []) {
        assert.ok(module.tables.includes(column.table), `${module.folder} declares ${column.table}.${column.column}`);
      }
    }
    assert.ok((PLATFORM_TABLES as readonly string[]).includes(IDEMPOTENCY_SEALED.table));
  });

  it('passes the fixture as it is', () => {
    assert.deepEqual(offensesWith([]), []);
  });

  it("fails on a read of another module's table, and on its repository imported", () => {
    assert.deepEqual(
      offensesWith([
        {
          path: 'src/modules/a/report.ts',
          text: "export const q = 'SELECT a.id FROM a_items a JOIN b_items b ON true';",
        },
        { path: 'src/modules/a/use.ts', text: "import { q } from '../b/b.repo.js';\nexport const r = q;" },
      ]),
      [
        'src/modules/a/report.ts reads b_items, owned by modules/b',
        'src/modules/a/use.ts imports src/modules/b/b.repo.ts, a repository of modules/b',
      ],
    );
  });

  it('fails on a write of another module’s table, and on a table named at run time', () => {
    assert.deepEqual(
      offensesWith([
        { path: 'src/modules/a/w.ts', text: "export const q = 'DELETE FROM b_items WHERE id = $1';" },
        { path: 'src/modules/a/d.ts', text: 'export const q = (t: string) => `UPDATE ${t} SET x = 1`;' },
      ]),
      [
        'src/modules/a/d.ts names a table at run time (a statement with a hole)',
        'src/modules/a/w.ts writes b_items, owned by modules/b',
      ],
    );
  });

  it("fails on a migration that alters another module's table, indexes it or puts a trigger on it", () => {
    assert.deepEqual(
      offensesWith([
        { path: 'src/modules/a/migrations/0003_x.sql', text: 'ALTER TABLE b_items ADD COLUMN x int;' },
        { path: 'src/modules/a/migrations/0004_y.sql', text: 'CREATE INDEX b_items_x ON b_items (x);' },
        {
          path: 'src/modules/a/migrations/0005_z.sql',
          text: 'CREATE TRIGGER t AFTER INSERT ON b_items FOR EACH ROW EXECUTE FUNCTION f();',
        },
      ]),
      [
        'src/modules/a/migrations/0003_x.sql changes b_items, owned by modules/b',
        'src/modules/a/migrations/0004_y.sql changes b_items, owned by modules/b',
        'src/modules/a/migrations/0005_z.sql changes b_items, owned by modules/b',
      ],
    );
  });

  it('fails on a manifest that omits a table its SQL uses', () => {
    const omitting = [{ ...FIXTURE_MODULES[0]!, tables: [] }, FIXTURE_MODULES[1]!];
    assert.deepEqual(offensesWith([], omitting), [
      'src/modules/a/a.repo.ts uses a_items, which the manifest of modules/a does not list',
      'src/modules/a/migrations/0001_a.sql creates a_items, which the manifest of modules/a does not list',
    ]);
  });

  it('reads a published view only when the reader declares it, and never writes it', () => {
    const reader = { path: 'src/modules/a/names.ts', text: "export const q = 'SELECT name FROM b_names';" };
    assert.deepEqual(offensesWith([reader]), [
      'src/modules/a/names.ts reads b_names (published by modules/b) without declaring it in reads',
    ]);
    const declared = [{ ...FIXTURE_MODULES[0]!, reads: ['b_names'] }, FIXTURE_MODULES[1]!];
    assert.deepEqual(offensesWith([reader], declared), []);
    assert.deepEqual(
      offensesWith(
        [{ path: 'src/modules/a/w.ts', text: "export const q = 'UPDATE b_names SET name = $1';" }],
        declared,
      ),
      ['modules/a declares reads b_names unused', 'src/modules/a/w.ts writes b_names, owned by modules/b'],
    );
  });

  it('keeps the platform from importing a module', () => {
    assert.deepEqual(
      offensesWith(
        [{ path: 'src/platform/x.ts', text: "import { q } from '../modules/a/a.repo.js';\nexport { q };" }],
        [{ folder: 'platform', tables: [] }, ...FIXTURE_MODULES],
      ),
      ['src/platform/x.ts (the platform) imports src/modules/a/a.repo.ts of modules/a'],
    );
  });
});
