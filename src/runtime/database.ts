import type { Config } from '../config.js';
import { startEmbeddedPostgres } from '../platform/db/embedded.js';
import { createClient } from '../platform/db/pool.js';
import type { Logger } from '../platform/observability/logger.js';

export interface Database {
  url: string;
  /** A session-capable URL to the same database: DATABASE_DIRECT_URL, else `url` (see Config.databaseDirectUrl). */
  directUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const MIN_SERVER_VERSION = 150000;

/** DATABASE_URL when set (any PostgreSQL >= 15), otherwise the embedded PostgreSQL in DATA_DIR. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.databaseUrl) {
    const directUrl = config.databaseDirectUrl ?? config.databaseUrl;
    await checkServerVersion(directUrl);
    return { url: config.databaseUrl, directUrl, embedded: false, stop: async () => {} };
  }
  const db = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    log: (message) => logger.info(message),
    ...(config.walArchiveDir
      ? { walArchive: { dir: config.walArchiveDir, timeoutSeconds: config.walArchiveTimeoutSeconds } }
      : {}),
  });
  return { url: db.url, directUrl: db.url, embedded: true, stop: () => db.stop() };
}

async function checkServerVersion(url: string): Promise<void> {
  const client = createClient(url, 'tessera-startup');
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ v: string }>('SHOW server_version_num');
    const version = Number(rows[0]!.v);
    if (version < MIN_SERVER_VERSION) {
      throw new Error(`PostgreSQL ${Math.floor(version / 10000)} is too old: Tessera needs PostgreSQL 15 or newer.`);
    }
  } finally {
    await client.end();
  }
}
