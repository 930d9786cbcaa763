import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { Compile } from 'typebox/compile';
import { registerBackupCommands } from './cli/backup-commands.js';
import { registerDashboardCommands } from './cli/dashboard-commands.js';
import { registerDeveloperCommands } from './cli/developer-commands.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { OPERATIONS, SEALED_COLUMNS } from './modules/index.js';
import { verifyLedger } from './modules/ledger/verify.js';
import type { OperatorOperation } from './modules/manifest.js';
import { bootstrapSandbox, credentialsFile, type SandboxCredentials } from './modules/sandbox/bootstrap.js';
import { TerminalSimulator } from './modules/terminals/simulator/terminal-simulator.js';
import { createNode, type Node } from './node.js';
import { loadKeyEncryptionKey } from './platform/crypto/kek.js';
import { rotateKeys } from './platform/crypto/key-rotation.js';
import { migrate } from './platform/db/migrator.js';
import { createPool } from './platform/db/pool.js';
import { AppError } from './platform/http/errors.js';
import { fieldErrorsFrom } from './platform/http/validation.js';
import { createLogger, type Logger, stderrDestination } from './platform/observability/logger.js';
import { type Database, openDatabase } from './runtime/database.js';

/** `tessera serve | worker | migrate | admin ...` */
const program = new Command('tessera').description('Tessera payments platform').showHelpAfterError();

program
  .command('serve')
  .description('Run the HTTP API (and background workers unless WORKERS=0)')
  .action(() => run('serve'));

program
  .command('worker')
  .description('Run background jobs only')
  .action(() => run('worker'));

program
  .command('migrate')
  .description('Apply pending database migrations and exit')
  .action(async () => {
    const config = configOrExit();
    const logger = createLogger(config.logLevel);
    const db = await openDatabase(config, logger);
    try {
      const report = await migrate(db.directUrl);
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } finally {
      await db.stop();
    }
  });

program
  .command('keys')
  .description('Key management')
  .command('rotate')
  .description(
    'Re-wrap every data key and secret under ENCRYPTION_KEY (older keys in ENCRYPTION_KEY_PREVIOUS), then retire the old versions. Safe beside running servers.',
  )
  .action(async () => {
    const config = configOrExit();
    const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', stderrDestination());
    const db = await openDatabase(config, logger);
    const pool = createPool(db.url, 2, 'tessera-keys-rotate', {
      preparedStatements: config.databasePreparedStatements,
    });
    try {
      await migrate(db.directUrl);
      const kek = await loadKeyEncryptionKey(config, pool);
      const report = await rotateKeys(pool, kek, SEALED_COLUMNS, (message) =>
        process.stderr.write(`keys rotate: ${message}\n`),
      );
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } finally {
      await pool.end();
      await db.stop();
    }
  });

program
  .command('ledger')
  .description('Ledger tools')
  .command('verify')
  .description('Check that the books balance and agree with transactions and settlement batches (exit 1 if not)')
  .action(async () => {
    const config = configOrExit();
    const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', stderrDestination());
    const db = await openDatabase(config, logger);
    const pool = createPool(db.url, 2, 'tessera-ledger-verify', {
      preparedStatements: config.databasePreparedStatements,
    });
    try {
      await migrate(db.directUrl);
      const report = await verifyLedger(pool);
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      if (!report.ok) process.exitCode = 1;
    } finally {
      await pool.end();
      await db.stop();
    }
  });

program
  .command('terminal-sim')
  .description(
    'Sandbox: a terminal simulator, a real client of the terminal channel that follows the operator controls',
  )
  .requiredOption('--serial <serialNumber>', "the terminal's serial number")
  .requiredOption('--secret <secret>', "the terminal's secret (shown when the operator registered it)")
  .option('--base-url <url>', 'the server', `http://127.0.0.1:${process.env.PORT ?? '8080'}`)
  .action((options: { serial: string; secret: string; baseUrl: string }) => {
    const simulator = new TerminalSimulator({
      baseUrl: options.baseUrl,
      serialNumber: options.serial,
      secret: options.secret,
      log: (line) => process.stdout.write(`terminal-sim ${line}\n`),
    });
    simulator.start();
    const stop = () => {
      simulator.stop();
      process.exit(0);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });

registerDeveloperCommands(program);
registerDashboardCommands(program, configOrExit);
registerBackupCommands(program, configOrExit);

const admin = program
  .command('admin')
  .description('Operator commands (the same operations as /admin/v1, run directly against the database; JSON output)');
const groups = new Map<string, Command>();
for (const operation of OPERATIONS) {
  let group = groups.get(operation.group);
  if (!group) {
    group = admin.command(operation.group).description(`${operation.group} operations`);
    groups.set(operation.group, group);
  }
  defineAdminCommand(group, operation);
}

function defineAdminCommand(group: Command, operation: OperatorOperation) {
  const pathParams = [...operation.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const command = group.command(operation.verb).description(operation.summary);
  for (const name of pathParams) command.argument(`<${name}>`);
  if (operation.group === 'clock' && operation.verb === 'advance') command.argument('<seconds>', 'seconds to advance');
  if (operation.body)
    command.addOption(
      new Option(
        '--json <body>',
        'request body as JSON (same shape as the HTTP API); `-` reads it from standard input (keeps credentials out of the shell history)',
      ),
    );
  const queryNames = Object.keys((operation.querystring as { properties?: object } | undefined)?.properties ?? {});
  for (const name of queryNames) command.option(`--${kebab(name)} <value>`, `the ${name} filter`);
  if (operation.group === 'partners' && operation.verb === 'create') command.option('--name <name>', 'partner name');
  if (operation.group === 'merchants' && operation.verb === 'create') {
    command.option('--company-name <name>', 'company name').option('--partner-id <id>', 'owning partner');
  }
  if (operation.group === 'api-keys' && operation.verb === 'create') {
    command.option('--merchant-id <id>').option('--partner-id <id>').option('--name <name>');
  }
  if (operation.group === 'identity-token' && operation.verb === 'mint') {
    command
      .option('--principal <id>', 'the registered principal to mint for')
      .option('--audience <url>', 'default PARTNER_BASE_URL')
      .option('--ttl-seconds <n>', 'at most and by default 3600');
  }
  command.action(async (...args: unknown[]) => {
    const options = args.at(-2) as Record<string, string | undefined>;
    const positional = args.slice(0, -2) as string[];
    const params = Object.fromEntries(pathParams.map((name, i) => [name, positional[i]]));
    let body: Record<string, unknown> | undefined;
    if (operation.body) {
      const json = options.json === '-' ? await readStandardInput() : options.json;
      body = json ? (JSON.parse(json) as Record<string, unknown>) : {};
      if (options.name) body.name = options.name;
      if (options.companyName) body.companyName = options.companyName;
      if (options.partnerId) body.partnerId = options.partnerId;
      if (options.merchantId) body.merchantId = options.merchantId;
      if (operation.group === 'clock') body.seconds = Number(positional[0]);
      if (options.principal) body.principalId = options.principal;
      if (options.audience) body.audience = options.audience;
      if (options.ttlSeconds) body.ttlSeconds = Number(options.ttlSeconds);
    }
    const query = Object.fromEntries(
      queryNames
        .filter((name) => options[name] !== undefined)
        .map((name) => [name, /^page/.test(name) ? Number(options[name]) : options[name]]),
    );
    await runAdmin(operation, params, body, query);
  });
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

async function runAdmin(
  operation: OperatorOperation,
  params: Record<string, unknown>,
  body: unknown,
  query: Record<string, unknown> = {},
) {
  const config = configOrExit();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', stderrDestination());
  for (const [schema, value, context] of [
    [operation.params, params, 'params'],
    [operation.querystring, query, 'querystring'],
    [operation.body, body, 'body'],
  ] as const) {
    if (!schema) continue;
    const check = Compile(schema);
    if (!check.Check(value)) {
      // biome-ignore lint/suspicious/noExplicitAny: TypeBox errors carry the fields fieldErrorsFrom reads
      fail({ errors: fieldErrorsFrom([...check.Errors(value)] as any, context), details: 'Validation failed' });
    }
  }
  if (operation.sandboxOnly && config.env !== 'sandbox')
    fail({ details: `${operation.path} is available in sandbox only` });
  const db = await openDatabase(config, logger);
  let node: Node | undefined;
  try {
    await migrate(db.directUrl);
    node = await createNode(
      { ...config, workers: 0 },
      { logger, databaseUrl: db.url, directDatabaseUrl: db.directUrl },
    );
    const result = await operation.run(node.ctx, { params, body, query });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    if (error instanceof AppError) {
      process.exitCode = 1;
      process.stdout.write(
        `${JSON.stringify({ statusCode: error.statusCode, errorCode: error.errorCode, details: error.message, errors: error.errors ?? {} }, null, 2)}\n`,
      );
    } else throw error;
  } finally {
    await node?.stop();
    await db.stop();
  }
}

function fail(body: Record<string, unknown>): never {
  process.stdout.write(`${JSON.stringify({ statusCode: 400, ...body }, null, 2)}\n`);
  process.exit(1);
}

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`tessera: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

async function run(mode: 'serve' | 'worker') {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  let db: Database | undefined;
  let node: Node | undefined;
  let shuttingDown = false;

  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: exiting immediately');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000);
    force.unref();
    try {
      await node?.stop();
      await db?.stop();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    db = await openDatabase(config, logger);
    const report = await migrate(db.directUrl);
    if (report.applied.length > 0) logger.info({ applied: report.applied }, 'migrations applied');
    if (report.ahead) {
      logger.warn(
        { ahead: report.ahead },
        'the database is migrated for a newer release; running beside it (rolling upgrade)',
      );
    }
    node = await createNode(mode === 'worker' ? { ...config, workers: Math.max(config.workers, 1) } : config, {
      logger,
      databaseUrl: db.url,
      directDatabaseUrl: db.directUrl,
      processMetrics: true,
    });
    if (mode === 'serve') {
      const created = await bootstrapSandbox(node.ctx, node.generatedAdminToken);
      if (created) printSandboxBanner(created, credentialsFile(node.ctx), config);
    }
    if (shuttingDown) return;
    await node.startWorkers();
    if (mode === 'serve') {
      const address = await node.listen();
      logger.info(
        { address, env: config.env, workers: config.workers, embeddedDatabase: db.embedded, node: node.nodeId() },
        'tessera listening',
      );
    } else {
      logger.info(
        { env: config.env, workers: Math.max(config.workers, 1), node: node.nodeId() },
        'tessera worker running',
      );
    }
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    await node?.stop().catch(() => {});
    await db?.stop().catch(() => {});
    process.exit(1);
  }
}

/** The one place a secret is printed on purpose: the demo merchant's key, once, on the first start of a sandbox. */
function printSandboxBanner(created: SandboxCredentials, file: string, config: Config) {
  const merchant = created.merchant!;
  const dashboard = created.dashboard;
  process.stdout.write(
    [
      '',
      '  Tessera sandbox: demo data created (shown once)',
      `    merchant id     ${merchant.id}`,
      `    client id       ${merchant.clientId}`,
      `    client secret   ${merchant.clientSecret}`,
      `    token URL       ${config.authBaseUrl}/oauth2/token`,
      ...(dashboard
        ? [
            `  Dashboard: ${dashboard.url}`,
            `    email           ${dashboard.email}`,
            `    password        ${dashboard.password}`,
            `    TOTP secret     ${dashboard.totpSecret}  (add it to an authenticator app for the one-time code)`,
          ]
        : []),
      `  All credentials, including the partner key, the operator's dashboard and the admin token: ${file}`,
      '',
      '',
    ].join('\n'),
  );
}

/** Runs one `tessera` command. `bin/tessera.js` calls it; the bundle itself runs nothing when imported. */
export async function main(argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (error: unknown) {
    const logger: Logger = createLogger('error');
    logger.fatal({ err: error }, 'tessera failed');
    process.exit(1);
  }
}

// Run directly (`node --import tsx src/main.ts ...`, as the end-to-end tests do), this module is its own entry.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main(process.argv);
}
