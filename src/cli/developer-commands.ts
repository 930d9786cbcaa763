// The developer commands: they reach any Tessera deployment over its public API with a merchant's API key
// (docs/cli.md), unlike the operator's `tessera admin`, which works on the database.
import type { Command } from 'commander';
import { checkCredentials, connect } from './api-client.js';
import { type CredentialFlags, resolveCredentials } from './credentials.js';
import { Listener } from './listen.js';
import { tailLogs } from './logs-tail.js';
import { DEFAULT_PROFILE, type Profile, profilesFile, saveProfile } from './profiles.js';
import { readSecret } from './secret-input.js';
import { runTrigger, triggerList } from './trigger/run-trigger.js';
import type { Outcome } from './trigger/trigger-context.js';

export function registerDeveloperCommands(program: Command): void {
  program
    .command('login')
    .description('Save the server and API key the developer commands use (a profile; the secret is prompted for)')
    .requiredOption('--base-url <url>', 'the Tessera server')
    .requiredOption('--client-id <id>', 'an API key of the merchant')
    .option('--profile <name>', 'the profile to save', DEFAULT_PROFILE)
    .option('--json', 'answer in JSON')
    .action(async (options: { baseUrl: string; clientId: string; profile: string; json?: boolean }) => {
      const clientSecret = await readSecret(`Client secret for ${options.clientId}: `);
      const profile = { baseUrl: options.baseUrl.replace(/\/$/, ''), clientId: options.clientId, clientSecret };
      try {
        await checkCredentials(profile);
      } catch (error) {
        process.stderr.write(`tessera login: ${(error as Error).message}\n`);
        process.exit(1);
      }
      saveProfile(options.profile, profile);
      const saved = {
        profile: options.profile,
        baseUrl: profile.baseUrl,
        clientId: profile.clientId,
        file: profilesFile(),
      };
      process.stdout.write(
        options.json
          ? `${JSON.stringify(saved)}\n`
          : `Logged in to ${saved.baseUrl} as ${saved.clientId}; profile "${saved.profile}" saved in ${saved.file}\n`,
      );
    });

  withCredentials(program.command('listen'))
    .description("Forward the merchant's events as they happen, signed like webhook deliveries, to a local URL")
    .requiredOption('--forward-to <url>', 'where to post each event (e.g. http://localhost:3000/webhooks)')
    .option('--events <types>', 'comma-separated event types (default: all)')
    .option('--secret <secret>', 'the signing secret to use (default: a new one, shown at start)')
    .option(
      '--header-prefix <prefix>',
      'the branded header prefix, as the server',
      process.env.WEBHOOK_HEADER_PREFIX ?? 'Service',
    )
    .option('--print-json', 'one JSON object per line')
    .option('--json', 'the same as --print-json')
    .action(async (options: ListenCommandOptions) => {
      const credentials = credentialsOrExit('listen', options);
      const stop = stopOnSignals();
      await new Listener({
        ...credentials,
        forwardTo: options.forwardTo,
        events: options.events
          ?.split(',')
          .map((type) => type.trim())
          .filter(Boolean),
        secret: options.secret,
        headerPrefix: options.headerPrefix,
        json: (options.printJson || options.json) ?? false,
        out: (line) => process.stdout.write(`${line}\n`),
        signal: stop.signal,
      }).run();
    });

  withCredentials(program.command('trigger'))
    .description('Cause an event on a sandbox: real objects made through the API with a scripted outcome')
    .argument('[event]', 'the event type (either name of the catalog), e.g. transaction.card.declined')
    .option('--list', 'list the event types and how each is triggered')
    .option('--count <n>', 'how many times', (v) => Number.parseInt(v, 10), 1)
    .option('--card <number>', 'the card to pay with (a sandbox test card decides the outcome)')
    .option('--amount <dollars>', 'the amount', (v) => Number(v))
    .option('--outcome <outcome>', 'approved, declined or failed: picks the test card where the recipe pays by card')
    .option('--admin-token <token>', 'the operator token, for the sandbox clock and terminals (or TESSERA_ADMIN_TOKEN)')
    .option('--json', 'the result as one JSON object (progress still goes to stderr)')
    .action(async (event: string | undefined, options: TriggerCommandOptions) => {
      const write = (value: unknown, text: string) =>
        process.stdout.write(options.json ? `${JSON.stringify(value)}\n` : `${text}\n`);
      if (options.list || !event) {
        const list = triggerList();
        write(
          list,
          list
            .map(
              (e) =>
                `${e.triggerable ? ' ' : '-'} ${[e.event, ...e.aliases].join(', ')}${e.note ? `  (${e.note})` : ''}`,
            )
            .join('\n'),
        );
        return;
      }
      const usage = (message: string): never => {
        process.stderr.write(`tessera trigger: ${message}\n`);
        process.exit(64); // EX_USAGE
      };
      if (!Number.isInteger(options.count) || options.count < 1 || options.count > 100) usage('--count is 1 to 100');
      if (options.amount !== undefined && !(options.amount > 0)) usage('--amount is a positive number of dollars');
      if (options.outcome && !['approved', 'declined', 'failed'].includes(options.outcome)) {
        usage('--outcome is approved, declined or failed');
      }
      const credentials = credentialsOrExit('trigger', options);
      const adminToken = options.adminToken ?? (process.env.TESSERA_ADMIN_TOKEN || undefined);
      try {
        const report = await runTrigger({
          event,
          count: options.count,
          card: options.card,
          amount: options.amount,
          outcome: options.outcome as Outcome | undefined,
          client: connect(credentials),
          admin: adminToken ? { baseUrl: credentials.baseUrl, token: adminToken } : null,
          progress: (line) => process.stderr.write(`${line}\n`),
        });
        write(
          report,
          `Triggered ${report.event} ${report.count} time(s); made:\n` +
            report.made.map((m) => `  ${m.kind} ${m.id}${m.detail ? `  ${m.detail}` : ''}`).join('\n'),
        );
      } catch (error) {
        process.stderr.write(`tessera trigger: ${(error as Error).message}\n`);
        process.exit(1);
      }
    });

  withCredentials(program.command('logs').description("The merchant's own API requests").command('tail'))
    .description('The latest requests, then each new one as it comes (method, path, status, duration, correlation id)')
    .option('--status <status>', 'a class (4xx, 5xx) or one status (404)')
    .option('--path <prefix>', 'only paths starting with this')
    .option('--no-follow', 'print the latest and stop')
    .option('--json', 'one JSON object per line')
    .action(async (options: LogsTailOptions) => {
      const credentials = credentialsOrExit('logs tail', options);
      const stop = stopOnSignals();
      try {
        await tailLogs(connect(credentials), {
          status: options.status,
          path: options.path,
          follow: options.follow,
          json: options.json ?? false,
          out: (line) => process.stdout.write(`${line}\n`),
          signal: stop.signal,
        });
      } catch (error) {
        if (stop.signal.aborted) return;
        process.stderr.write(`tessera logs tail: ${(error as Error).message}\n`);
        process.exit(1);
      }
    });
}

interface ListenCommandOptions {
  forwardTo: string;
  events?: string;
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  secret?: string;
  headerPrefix: string;
  printJson?: boolean;
  json?: boolean;
}

interface TriggerCommandOptions {
  list?: boolean;
  count: number;
  card?: string;
  amount?: number;
  outcome?: string;
  adminToken?: string;
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  json?: boolean;
}

interface LogsTailOptions {
  status?: string;
  path?: string;
  follow: boolean;
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  json?: boolean;
}

/** The options every command that connects with a merchant's key takes (see `resolveCredentials` for the order). */
function withCredentials(command: Command): Command {
  return command
    .option('--profile <name>', 'the saved profile to use (tessera login; default "default")')
    .option('--base-url <url>', "the server (or TESSERA_BASE_URL; default: the profile's)")
    .option('--client-id <id>', "an API key of the merchant (or TESSERA_CLIENT_ID; default: the profile's)")
    .option('--client-secret <secret>', "the key's secret (better: TESSERA_CLIENT_SECRET or the profile)");
}

/** The server and key to use, or the reason there are none and exit 64 (EX_USAGE). */
function credentialsOrExit(command: string, flags: CredentialFlags): Profile {
  try {
    return resolveCredentials(flags);
  } catch (error) {
    process.stderr.write(`tessera ${command}: ${(error as Error).message}\n`);
    process.exit(64);
  }
}

/** Aborted by SIGTERM or SIGINT: long commands end cleanly (a stream closed, the last line printed). */
function stopOnSignals(): AbortController {
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  process.once('SIGINT', () => stop.abort());
  return stop;
}
