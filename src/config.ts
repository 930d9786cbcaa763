import { availableParallelism } from 'node:os';
import path from 'node:path';
import { CONNECTOR_TIMEOUT_MS } from './connectors/registry.js';

export type Environment = 'sandbox' | 'production';

export interface Config {
  readonly env: Environment;
  readonly host: string;
  readonly port: number;
  readonly publicBaseUrl: string;
  readonly authBaseUrl: string;
  readonly dataDir: string;
  /** Unset means: run the embedded PostgreSQL in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /**
   * Where the embedded PostgreSQL archives its WAL for point-in-time recovery (WAL_ARCHIVE_DIR, default
   * `<DATA_DIR>/wal-archive`); undefined when WAL_ARCHIVE_DIR=off. Not used with DATABASE_URL.
   */
  readonly walArchiveDir: string | undefined;
  /** A WAL segment is archived at least this often while anything is written: the most a crash of the disk loses. */
  readonly walArchiveTimeoutSeconds: number;
  /** Where `tessera backup` writes base backups (BACKUP_DIR, default `<DATA_DIR>/backups`). */
  readonly backupDir: string;
  /** `tessera backup` keeps this many base backups, and the archived WAL from the oldest of them on. */
  readonly backupsKept: number;
  /** How long `tessera backup` waits for the WAL that completes a backup to be archived before it gives up. */
  readonly backupArchiveWaitSeconds: number;
  /**
   * Days a month partition of a table is kept once all its rows are older (0: kept for ever). Delivery logs default to
   * kept: the specification records a delivery's last failure permanently.
   */
  readonly retention: { eventsDays: number; webhookDeliveryLogsDays: number; messagesDays: number };
  /**
   * A session-capable connection to the same database (DATABASE_DIRECT_URL) for what needs a session of its own:
   * LISTEN, the node's liveness lock, the migration lock. Default DATABASE_URL; set it when DATABASE_URL goes through
   * a pooler in transaction mode (PgBouncer).
   */
  readonly databaseDirectUrl: string | undefined;
  /** Named (server-side prepared) statements on the pool's connections; off behind a transaction-mode pooler. */
  readonly databasePreparedStatements: boolean;
  readonly dbPoolSize: number;
  readonly adminToken: string | undefined;
  /** Base64 of 32 bytes. Unset in sandbox means: generate one into `dataDir`. */
  readonly encryptionKey: string | undefined;
  /** Older key-encryption keys (base64) this node can still read, during a rotation. */
  readonly encryptionKeysPrevious: string[];
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly rateLimitPerMinute: number;
  readonly rateLimitBurstPer10s: number;
  /** Checkout pages and payments per client address per minute (the payer's side is unauthenticated). */
  readonly checkoutRateLimitPerMinute: number;
  /** Payment submissions per payment session per minute. */
  readonly checkoutSubmissionsPerSessionPerMinute: number;
  readonly idempotencyRetentionMinutes: number;
  readonly workers: number;
  /** How long a job claim holds while its node lives but does not finish (a paused process). */
  readonly jobLeaseSeconds: number;
  readonly logLevel: string;
  readonly shutdownTimeoutMs: number;
  readonly sandboxDemoData: boolean;
  /** How long a node may serve a merchant configuration from memory (changes also invalidate at once); 0 = off. */
  readonly configCacheTtlMs: number;
  /** Simulated card-network latency (benchmarks, timeouts in development). */
  readonly sandboxCardLatencyMs: number;
  /** How long a card processor may take to answer before the outcome is unknown (and reconciled later). */
  readonly connectorTimeoutMs: number;
  /** How long a POS transaction read with waitForTransactionProcessing holds the request at most. */
  readonly posLongPollMs: number;
  /** Days after its due date a Published, unpaid invoice expires. */
  readonly invoiceExpiryDays: number;
  /** NACHA files are written and stored in parts of this many records (memory per cutoff is about one part). */
  readonly achFilePartRecords: number;
  /** A dashboard session unused this long ends (minutes). */
  readonly dashboardSessionIdleMinutes: number;
  /** A dashboard session ends this long after sign-in (hours). */
  readonly dashboardSessionHours: number;
  /** Sign-in attempts to the dashboard per client address per minute (every node together). */
  readonly dashboardSignInPerMinute: number;
  /** How long an inbound file in a bank's drop box must keep its size before it is read as whole (ms). */
  readonly achInboundSettleMs: number;
  /** The same card, amount and referenceId within this window is refused as a duplicate. */
  readonly duplicateWindowMinutes: number;
  /** An authorization not captured within this many days voids itself. */
  readonly authorizationExpiryDays: number;
  /** Trust X-Forwarded-For from a load balancer when deciding the client address (rate limits, logs). */
  readonly trustProxy: boolean;
  /** Brand word in the webhook header names (`<prefix>-Webhook-ID`, ...) and the User-Agent. */
  readonly webhookHeaderPrefix: string;
  /** Sandbox only: let endpoints target loopback (127.0.0.0/8, ::1, localhost) over http, for local development. */
  readonly webhookAllowPrivateTargets: boolean;
  /** A delivery attempt that has not answered within this time failed. */
  readonly webhookTimeoutMs: number;
  /** Event streams (`tessera listen`) one merchant may have open at once, on every node together. */
  readonly eventStreamsPerMerchant: number;
  /** Delivery attempts one worker process keeps in flight, and at most this many per endpoint. */
  readonly webhookConcurrency: number;
  readonly webhookConcurrencyPerEndpoint: number;
  /** Email goes out over this SMTP server; unset: the sandbox outbox (production then sends no email). */
  readonly smtpUrl: string | undefined;
  /** Worker threads rendering invoice PDFs off the request path (0: render inline). */
  readonly pdfRenderThreads: number;
  /** The partner portfolio API's address here: the audience every identity token must carry. */
  readonly partnerBaseUrl: string;
  /** Identity-token issuers the partner API trusts, besides the built-in one. */
  readonly partnerIdentityIssuers: ReadonlyArray<{ issuer: string; jwksUri: string }>;
  /** The built-in identity provider (`/idp`): on in the sandbox, off in production unless PARTNER_BUILTIN_IDP=true. */
  readonly partnerBuiltinIdp: boolean;
  readonly partnerRateLimitPerMinute: number;
  readonly partnerRateLimitBurstPer10s: number;
  readonly partnerAiRateLimitPerMinute: number;
  /** The From of every email. */
  readonly mailFrom: string;
  /** OpenTelemetry: spans go to this OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT); unset: no tracing. */
  readonly otlpEndpoint: string | undefined;
  /** The service name spans carry (OTEL_SERVICE_NAME). */
  readonly otelServiceName: string;
  /** A Twilio-compatible SMS provider; unset: the sandbox outbox (production then sends no SMS). */
  readonly twilio: { baseUrl: string; accountSid: string; authToken: string; from: string } | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads the environment into a validated, frozen configuration. Called explicitly by the composition root, never at
 * import time, so tests can build any number of configurations side by side.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const tesseraEnv = read.oneOf('TESSERA_ENV', ['sandbox', 'production'], 'sandbox') as Environment;
  const host = read.string('HOST', '127.0.0.1');
  const port = read.integer('PORT', 8080, { min: 0, max: 65535 });
  const defaultBase = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicBaseUrl = stripTrailingSlash(read.url('PUBLIC_BASE_URL', defaultBase));
  const authBaseUrl = stripTrailingSlash(read.url('AUTH_BASE_URL', publicBaseUrl));
  const adminToken = read.optional('ADMIN_TOKEN');
  const encryptionKey = read.optional('ENCRYPTION_KEY');
  const encryptionKeysPrevious = (read.optional('ENCRYPTION_KEY_PREVIOUS') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');

  if (adminToken !== undefined && adminToken.length < 24) {
    problems.push('ADMIN_TOKEN must be at least 24 characters long');
  }
  if (encryptionKey !== undefined && !isBase64Of32Bytes(encryptionKey)) {
    problems.push('ENCRYPTION_KEY must be 32 bytes encoded as base64 (e.g. `openssl rand -base64 32`)');
  }
  if (encryptionKeysPrevious.some((k) => !isBase64Of32Bytes(k))) {
    problems.push('ENCRYPTION_KEY_PREVIOUS must be a comma-separated list of base64 32-byte keys');
  }
  if (tesseraEnv === 'production') {
    const missing: string[] = [];
    if (!adminToken) missing.push('ADMIN_TOKEN');
    if (!encryptionKey) missing.push('ENCRYPTION_KEY');
    if (!env.PUBLIC_BASE_URL) missing.push('PUBLIC_BASE_URL (an https:// URL)');
    if (missing.length > 0) {
      problems.push(
        `production requires ${missing.join(', ')}; refusing to start without ${missing.length > 1 ? 'them' : 'it'}`,
      );
    }
    if (env.PUBLIC_BASE_URL && !publicBaseUrl.startsWith('https://')) {
      problems.push('PUBLIC_BASE_URL must be an https:// URL in production');
    }
    if (env.AUTH_BASE_URL && !authBaseUrl.startsWith('https://')) {
      problems.push('AUTH_BASE_URL must be an https:// URL in production');
    }
  }

  const dataDir = path.resolve(cwd, read.string('DATA_DIR', './data'));
  const walArchive = read.string('WAL_ARCHIVE_DIR', path.join(dataDir, 'wal-archive'));

  const config: Config = {
    env: tesseraEnv,
    host,
    port,
    publicBaseUrl,
    authBaseUrl,
    dataDir,
    databaseUrl: read.optional('DATABASE_URL'),
    walArchiveDir: walArchive === 'off' ? undefined : path.resolve(cwd, walArchive),
    walArchiveTimeoutSeconds: read.integer('WAL_ARCHIVE_TIMEOUT_SECONDS', 60, { min: 1, max: 86_400 }),
    backupDir: path.resolve(cwd, read.string('BACKUP_DIR', path.join(dataDir, 'backups'))),
    backupsKept: read.integer('BACKUPS_KEPT', 7, { min: 1, max: 1000 }),
    backupArchiveWaitSeconds: read.integer('BACKUP_ARCHIVE_WAIT_SECONDS', 600, { min: 1, max: 86_400 }),
    retention: {
      eventsDays: retentionDays(read, 'EVENT_RETENTION_DAYS', 400, problems),
      webhookDeliveryLogsDays: retentionDays(read, 'WEBHOOK_DELIVERY_LOG_RETENTION_DAYS', 0, problems),
      messagesDays: retentionDays(read, 'MESSAGE_RETENTION_DAYS', 400, problems),
    },
    databaseDirectUrl: read.optional('DATABASE_DIRECT_URL'),
    databasePreparedStatements: read.boolean('DATABASE_PREPARED_STATEMENTS', true),
    dbPoolSize: read.integer('DB_POOL_SIZE', 20, { min: 2, max: 500 }),
    adminToken,
    encryptionKey,
    encryptionKeysPrevious,
    accessTokenTtlSeconds: read.integer('ACCESS_TOKEN_TTL_SECONDS', 900, { min: 30, max: 86_400 }),
    refreshTokenTtlSeconds: read.integer('REFRESH_TOKEN_TTL_SECONDS', 30 * 86_400, { min: 60, max: 365 * 86_400 }),
    rateLimitPerMinute: read.integer('RATE_LIMIT_PER_MINUTE', 1200, { min: 1, max: 100_000_000 }),
    rateLimitBurstPer10s: read.integer('RATE_LIMIT_BURST_PER_10S', 300, { min: 1, max: 100_000_000 }),
    checkoutRateLimitPerMinute: read.integer('CHECKOUT_RATE_LIMIT_PER_MINUTE', 120, { min: 1, max: 100_000_000 }),
    checkoutSubmissionsPerSessionPerMinute: read.integer('CHECKOUT_SUBMISSIONS_PER_SESSION_PER_MINUTE', 10, {
      min: 1,
      max: 100_000,
    }),
    idempotencyRetentionMinutes: read.integer('IDEMPOTENCY_RETENTION_MINUTES', 1440, { min: 1, max: 60 * 24 * 30 }),
    workers: read.integer('WORKERS', 4, { min: 0, max: 64 }),
    jobLeaseSeconds: read.integer('JOB_LEASE_SECONDS', 300, { min: 5, max: 86_400 }),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 15_000, { min: 100, max: 600_000 }),
    sandboxDemoData: read.boolean('SANDBOX_DEMO_DATA', true),
    trustProxy: read.boolean('TRUST_PROXY', false),
    configCacheTtlMs: read.integer('CONFIG_CACHE_TTL_MS', 1000, { min: 0, max: 60_000 }),
    sandboxCardLatencyMs: read.integer('SANDBOX_CARD_LATENCY_MS', 0, { min: 0, max: 60_000 }),
    connectorTimeoutMs: read.integer('CONNECTOR_TIMEOUT_MS', CONNECTOR_TIMEOUT_MS, { min: 500, max: 120_000 }),
    posLongPollMs: read.integer('POS_LONG_POLL_MS', 30_000, { min: 100, max: 300_000 }),
    invoiceExpiryDays: read.integer('INVOICE_EXPIRY_DAYS', 30, { min: 0, max: 3650 }),
    achFilePartRecords: read.integer('ACH_FILE_PART_RECORDS', 5000, { min: 1, max: 100_000 }),
    achInboundSettleMs: read.integer('ACH_INBOUND_SETTLE_MS', 2000, { min: 0, max: 600_000 }),
    dashboardSessionIdleMinutes: read.integer('DASHBOARD_SESSION_IDLE_MINUTES', 30, { min: 1, max: 1440 }),
    dashboardSessionHours: read.integer('DASHBOARD_SESSION_HOURS', 12, { min: 1, max: 720 }),
    dashboardSignInPerMinute: read.integer('DASHBOARD_SIGN_IN_PER_MINUTE', 20, { min: 1, max: 100_000 }),
    duplicateWindowMinutes: read.integer('DUPLICATE_CHECK_MINUTES', 10, { min: 0, max: 24 * 60 }),
    authorizationExpiryDays: read.integer('AUTHORIZATION_EXPIRY_DAYS', 7, { min: 1, max: 30 }),
    webhookHeaderPrefix: read.string('WEBHOOK_HEADER_PREFIX', 'Service'),
    // Ignored in production: there, every endpoint must be a public https:// address.
    webhookAllowPrivateTargets: tesseraEnv === 'sandbox' && read.boolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    webhookTimeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
    eventStreamsPerMerchant: read.integer('EVENT_STREAMS_PER_MERCHANT', 10, { min: 1, max: 1000 }),
    webhookConcurrency: read.integer('WEBHOOK_CONCURRENCY', 256, { min: 1, max: 1000 }),
    webhookConcurrencyPerEndpoint: read.integer('WEBHOOK_CONCURRENCY_PER_ENDPOINT', 64, { min: 1, max: 1000 }),
    pdfRenderThreads: read.integer('PDF_RENDER_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1)), {
      min: 0,
      max: 64,
    }),
    partnerBaseUrl: stripTrailingSlash(read.url('PARTNER_BASE_URL', publicBaseUrl)),
    partnerIdentityIssuers: identityIssuers(read.optional('PARTNER_IDENTITY_ISSUERS'), tesseraEnv, problems),
    partnerBuiltinIdp: read.boolean('PARTNER_BUILTIN_IDP', tesseraEnv === 'sandbox'),
    partnerRateLimitPerMinute: read.integer('PARTNER_RATE_LIMIT_PER_MINUTE', 1200, { min: 1, max: 100_000_000 }),
    partnerRateLimitBurstPer10s: read.integer('PARTNER_RATE_LIMIT_BURST_PER_10S', 300, { min: 1, max: 100_000_000 }),
    partnerAiRateLimitPerMinute: read.integer('PARTNER_AI_RATE_LIMIT_PER_MINUTE', 5, { min: 1, max: 100_000 }),
    smtpUrl: read.optional('SMTP_URL'),
    mailFrom: read.string('MAIL_FROM', 'Tessera <no-reply@tessera.invalid>'),
    otlpEndpoint:
      read.optional('OTEL_EXPORTER_OTLP_ENDPOINT') === undefined
        ? undefined
        : read.url('OTEL_EXPORTER_OTLP_ENDPOINT', ''),
    otelServiceName: read.string('OTEL_SERVICE_NAME', 'tessera'),
    twilio: twilioSettings(read, problems),
  };
  const smtpUrl = config.smtpUrl;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/\s]+/.test(smtpUrl)) {
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL (e.g. smtp://user:pass@mail.example.com:587)');
  }
  if (!/^[^\r\n<>]*<?[^@\s<>]+@[^@\s<>]+>?$/.test(config.mailFrom)) {
    problems.push('MAIL_FROM must be an address, optionally with a name: "Shop <billing@shop.example>"');
  }
  if (tesseraEnv === 'production' && config.twilio && !config.twilio.baseUrl.startsWith('https://')) {
    problems.push('TWILIO_BASE_URL must be an https:// URL in production');
  }
  if (!/^[A-Za-z][A-Za-z0-9]{0,31}$/.test(config.webhookHeaderPrefix)) {
    problems.push('WEBHOOK_HEADER_PREFIX must be one word of letters and digits (it becomes part of header names)');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** 0 (keep) or at least a month: a month partition is dropped whole, so a shorter retention would mean nothing. */
function retentionDays(read: EnvReader, name: string, fallback: number, problems: string[]): number {
  const days = read.integer(name, fallback, { min: 0, max: 36_500 });
  if (days > 0 && days < 31) {
    problems.push(`${name} must be 0 (keep for ever) or at least 31 days (got ${days})`);
    return fallback;
  }
  return days;
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  integer(name: string, fallback: number, range: { min: number; max: number }): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < range.min || value > range.max) {
      this.problems.push(`${name} must be an integer between ${range.min} and ${range.max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf(name: string, allowed: string[], fallback: string): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw;
  }

  url(name: string, fallback: string): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      return raw;
    } catch {
      this.problems.push(`${name} must be an absolute http(s) URL (got "${raw}")`);
      return fallback;
    }
  }
}

/**
 * PARTNER_IDENTITY_ISSUERS: a JSON array of {"issuer", "jwksUri"}. A JWKS address is https, or http on loopback in the
 * sandbox only (a local identity provider for development).
 */
function identityIssuers(
  raw: string | undefined,
  env: Environment,
  problems: string[],
): Config['partnerIdentityIssuers'] {
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push('PARTNER_IDENTITY_ISSUERS must be a JSON array of {"issuer": "...", "jwksUri": "..."}');
    return [];
  }
  const valid: Array<{ issuer: string; jwksUri: string }> = [];
  for (const entry of Array.isArray(parsed) ? parsed : [null]) {
    const { issuer, jwksUri } = (entry ?? {}) as { issuer?: unknown; jwksUri?: unknown };
    let url: URL | undefined;
    try {
      url = typeof jwksUri === 'string' ? new URL(jwksUri) : undefined;
    } catch {
      url = undefined;
    }
    const loopback = url && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
    if (typeof issuer !== 'string' || issuer === '' || !url) {
      problems.push('PARTNER_IDENTITY_ISSUERS entries need an "issuer" and an absolute "jwksUri"');
    } else if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && env === 'sandbox')) {
      problems.push(`PARTNER_IDENTITY_ISSUERS: ${jwksUri} must be https (http only on loopback in the sandbox)`);
    } else valid.push({ issuer, jwksUri: url.toString() });
  }
  return valid;
}

/** TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER together, or none of them. */
function twilioSettings(read: EnvReader, problems: string[]): Config['twilio'] {
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const;
  const [accountSid, authToken, from] = names.map((name) => read.optional(name));
  const given = [accountSid, authToken, from].filter((v) => v !== undefined).length;
  const baseUrl = stripTrailingSlash(read.url('TWILIO_BASE_URL', 'https://api.twilio.com'));
  if (given === 0) return undefined;
  if (given < 3) {
    problems.push(`${names.join(', ')} are set together or not at all`);
    return undefined;
  }
  return { baseUrl, accountSid: accountSid!, authToken: authToken!, from: from! };
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function isBase64Of32Bytes(value: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return false;
  return Buffer.from(value, 'base64').length === 32;
}
