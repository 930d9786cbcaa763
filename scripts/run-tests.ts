// `npm test`: every test against a real PostgreSQL. With DATABASE_URL, that server (the role needs CREATEDB);
// otherwise an embedded PostgreSQL in a temporary folder. Migrations run once into a template database; each test
// file then clones it (CREATE DATABASE ... TEMPLATE), so files are independent and run in parallel.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.js';
import { migrate } from '../src/platform/db/migrator.js';
import { createClient } from '../src/platform/db/pool.js';
import { projectRoot } from '../src/platform/paths.js';

const root = projectRoot();
const filters = process.argv.slice(2);

function findTests(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// test/recovery runs its own embedded PostgreSQL with WAL archiving: `npm run test:recovery`, and in .ci/run.
const recovery = `${path.sep}test${path.sep}recovery${path.sep}`;
const files = findTests(path.join(root, 'test'))
  .filter((file) => (filters.length === 0 ? !file.includes(recovery) : filters.some((f) => file.includes(f))))
  .sort();

// The browser tests drive Debian's chromium, the invoice tests read PDFs with pdftotext, the SFTP tests start
// OpenSSH's sshd, the monitoring test runs Prometheus's promtool: install what this machine lacks first (apt, as root).
if (
  files.some(
    (file) =>
      file.includes(`${path.sep}browser${path.sep}`) ||
      file.includes('invoice') ||
      file.includes('sftp') ||
      file.includes('monitoring'),
  )
) {
  const ensured = spawnSync(path.join(root, 'scripts', 'ensure-test-tools.sh'), { stdio: 'inherit' });
  if (ensured.status !== 0) {
    console.error('tests: chromium, pdftotext or sshd is not available; tests that need them fail');
  }
}

let tempDir: string | undefined;
let stopEmbedded: (() => Promise<void>) | undefined;
let adminUrl: string;
if (process.env.DATABASE_URL) {
  adminUrl = process.env.DATABASE_URL;
  console.log('tests: using DATABASE_URL');
} else {
  tempDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-test-pg-'));
  const started = Date.now();
  const db = await startEmbeddedPostgres({
    dataDir: tempDir,
    database: 'postgres',
    // Durability is irrelevant for a throwaway test cluster; speed is not.
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '500' },
  });
  adminUrl = db.url;
  stopEmbedded = () => db.stop();
  console.log(`tests: embedded PostgreSQL ready in ${Date.now() - started} ms`);
}

const runId = randomBytes(4).toString('hex');
const template = `tessera_tpl_${runId}`;
async function admin(sql: string) {
  const client = createClient(adminUrl, 'tessera-tests');
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let exitCode = 1;
try {
  await admin(`CREATE DATABASE ${template}`);
  const templateUrl = withDatabase(adminUrl, template);
  await migrate(templateUrl);
  const concurrency = Math.max(2, Math.min(4, os.availableParallelism()));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=180000',
      ...files,
    ],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        TESSERA_TEST_ADMIN_URL: adminUrl,
        TESSERA_TEST_TEMPLATE: template,
        TESSERA_TEST_RUN: runId,
        DATABASE_URL: '',
      },
    },
  );
  exitCode = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
} finally {
  // Leftover per-file databases (a crashed file) go with the template.
  const client = createClient(adminUrl, 'tessera-tests');
  await client.connect();
  const { rows } = await client.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2',
    [template, `tessera_t_${runId}_%`],
  );
  for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`).catch(() => {});
  await client.end();
  await stopEmbedded?.();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}
process.exit(exitCode);

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
