// `npm run client:generate`: the typed client's generated files (packages/client/src/generated/) from this
// server's OpenAPI document; with `--check`, nothing is written and it fails when the committed files are stale.
// The document comes from a node built in-process (no listening, no workers) on a throwaway embedded PostgreSQL,
// or on DATABASE_URL's server when set (its role creates and drops a database of its own).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatedFiles } from '../packages/client/generate/from-document.js';
import { loadConfig } from '../src/config.js';
import { createNode } from '../src/node.js';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.js';
import { migrate } from '../src/platform/db/migrator.js';
import { createClient } from '../src/platform/db/pool.js';
import { createLogger } from '../src/platform/observability/logger.js';
import { projectRoot } from '../src/platform/paths.js';

const GENERATED_DIR = path.join(projectRoot(), 'packages', 'client', 'src', 'generated');

const check = process.argv.includes('--check');
const temp = mkdtempSync(path.join(os.tmpdir(), 'tessera-client-gen-'));
const database = `tessera_client_gen_${randomBytes(4).toString('hex')}`;
let stopEmbedded: (() => Promise<void>) | undefined;
let adminUrl = process.env.DATABASE_URL;
try {
  if (!adminUrl) {
    const db = await startEmbeddedPostgres({ dataDir: temp, database: 'postgres', settings: { fsync: 'off' } });
    adminUrl = db.url;
    stopEmbedded = () => db.stop();
  }
  await admin(adminUrl, `CREATE DATABASE ${database}`);
  const url = withDatabase(adminUrl, database);
  await migrate(url);
  const config = loadConfig(
    {
      TESSERA_ENV: 'sandbox',
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: path.join(temp, 'data'),
      PORT: '0',
      WORKERS: '0',
      LOG_LEVEL: 'warn',
    },
    projectRoot(),
  );
  const node = await createNode(config, { logger: createLogger('warn'), databaseUrl: url });
  let doc: object;
  try {
    doc = (await node.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  } finally {
    await node.stop();
  }
  const stale: string[] = [];
  for (const [name, content] of Object.entries(await generatedFiles(doc))) {
    const file = path.join(GENERATED_DIR, name);
    const current = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    })();
    if (current === content) continue;
    stale.push(name);
    if (!check) writeFileSync(file, content);
  }
  await admin(adminUrl, `DROP DATABASE ${database} WITH (FORCE)`);
  if (check && stale.length > 0) {
    console.error(`client: stale generated files: ${stale.join(', ')}; run npm run client:generate`);
    process.exitCode = 1;
  } else {
    console.log(check ? 'client: generated files are current' : `client: ${stale.length} generated file(s) written`);
  }
} finally {
  await stopEmbedded?.();
  rmSync(temp, { recursive: true, force: true });
}

async function admin(url: string, sql: string): Promise<void> {
  const client = createClient(url, 'tessera-client-gen');
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
