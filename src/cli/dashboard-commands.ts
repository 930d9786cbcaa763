import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import { totpUri } from '../modules/dashboard/accounts/totp.js';
import { DashboardService } from '../modules/dashboard/dashboard.service.js';
import { DataKeys } from '../modules/vault/data-keys.js';
import { systemClock } from '../platform/clock/clock.js';
import { loadKeyEncryptionKey } from '../platform/crypto/kek.js';
import { migrate } from '../platform/db/migrator.js';
import { createPool } from '../platform/db/pool.js';
import { createLogger, stderrDestination } from '../platform/observability/logger.js';
import { openDatabase } from '../runtime/database.js';

/**
 * `tessera dashboard create-operator`: the first operator user of a deployment (production has no demo users), with
 * a generated password and second-factor secret printed once on standard output.
 */
export function registerDashboardCommands(program: Command, configOrExit: () => Config): void {
  program
    .command('dashboard')
    .description('Dashboard users')
    .command('create-operator')
    .description(
      'Create an operator user of the dashboard: prints its password and TOTP secret once (add the secret to an authenticator app).',
    )
    .requiredOption('--email <email>', 'The operator’s e-mail (their sign-in name)')
    .option('--name <name>', 'Their name', 'Operator')
    .action(async (options: { email: string; name: string }) => {
      const config = configOrExit();
      const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', stderrDestination());
      const db = await openDatabase(config, logger);
      const pool = createPool(db.url, 2, 'tessera-dashboard-cli', {
        preparedStatements: config.databasePreparedStatements,
      });
      try {
        await migrate(db.directUrl);
        const dataKeys = new DataKeys(pool, await loadKeyEncryptionKey(config, pool));
        const dashboard = new DashboardService({
          pool,
          wallClock: systemClock,
          businessClock: systemClock,
          dataKeys,
          policy: { idleMinutes: config.dashboardSessionIdleMinutes, maxHours: config.dashboardSessionHours },
        });
        const password = randomBytes(15).toString('base64url');
        const { user, totpSecret } = await dashboard.accounts.create({
          email: options.email,
          name: options.name,
          ownerKind: 'operator',
          role: 'owner',
          password,
        });
        process.stdout.write(
          `${JSON.stringify(
            {
              url: `${config.publicBaseUrl}/dashboard`,
              email: user.email,
              password,
              totpSecret,
              totpUri: totpUri(totpSecret, user.email),
            },
            null,
            2,
          )}\n`,
        );
      } finally {
        await pool.end();
        await db.stop();
      }
    });
}
