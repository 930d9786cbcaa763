// The developer commands: they reach any Tessera deployment over its public API with a merchant's API key
// (docs/cli.md), unlike the operator's `tessera admin`, which works on the database.
import type { Command } from 'commander';
import { ApiClient } from './api-client.js';
import { resolveCredentials } from './credentials.js';
import { Listener } from './listen.js';
import { tailLogs } from './logs-tail.js';
import { DEFAULT_PROFILE, type Profile, profilesFile, saveProfile } from './profiles.js';
import { readSecret } from './secret-input.js';

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
        await new ApiClient(profile).check();
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

  program
    .command('listen')
    .description("Forward the merchant's events as they happen, signed like webhook deliveries, to a local URL")
    .requiredOption('--forward-to <url>', 'where to post each event (e.g. http://localhost:3000/webhooks)')
    .option('--events <types>', 'comma-separated event types (default: all)')
    .option('--profile <name>', 'the saved profile to use (tessera login; default "default")')
    .option('--base-url <url>', "the server (or TESSERA_BASE_URL; default: the profile's)")
    .option('--client-id <id>', "an API key of the merchant (or TESSERA_CLIENT_ID; default: the profile's)")
    .option('--client-secret <secret>', "the key's secret (better: TESSERA_CLIENT_SECRET or the profile)")
    .option('--secret <secret>', 'the signing secret to use (default: a new one, shown at start)')
    .option(
      '--header-prefix <prefix>',
      'the branded header prefix, as the server',
      process.env.WEBHOOK_HEADER_PREFIX ?? 'Service',
    )
    .option('--print-json', 'one JSON object per line')
    .action(async (options: ListenCommandOptions) => {
      let credentials: Profile;
      try {
        credentials = resolveCredentials(options);
      } catch (error) {
        process.stderr.write(`tessera listen: ${(error as Error).message}\n`);
        process.exit(64); // EX_USAGE
      }
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      await new Listener({
        ...credentials,
        forwardTo: options.forwardTo,
        events: options.events
          ?.split(',')
          .map((type) => type.trim())
          .filter(Boolean),
        secret: options.secret,
        headerPrefix: options.headerPrefix,
        json: options.printJson ?? false,
        out: (line) => process.stdout.write(`${line}\n`),
        signal: stop.signal,
      }).run();
    });

  program
    .command('logs')
    .description("The merchant's own API requests")
    .command('tail')
    .description('The latest requests, then each new one as it comes (method, path, status, duration, correlation id)')
    .option('--status <status>', 'a class (4xx, 5xx) or one status (404)')
    .option('--path <prefix>', 'only paths starting with this')
    .option('--no-follow', 'print the latest and stop')
    .option('--profile <name>', 'the saved profile to use (tessera login; default "default")')
    .option('--base-url <url>', "the server (default: the profile's)")
    .option('--client-id <id>', "an API key of the merchant (default: the profile's)")
    .option('--client-secret <secret>', "the key's secret (better: TESSERA_CLIENT_SECRET or the profile)")
    .option('--json', 'one JSON object per line')
    .action(async (options: LogsTailOptions) => {
      let credentials: Profile;
      try {
        credentials = resolveCredentials(options);
      } catch (error) {
        process.stderr.write(`tessera logs tail: ${(error as Error).message}\n`);
        process.exit(64); // EX_USAGE
      }
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      try {
        await tailLogs(new ApiClient(credentials), {
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
