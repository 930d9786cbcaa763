import type pg from 'pg';
import { createClient } from './pool.js';

type Handler = (payload: string) => void;

/**
 * One LISTEN connection per process, shared by everything that wants PostgreSQL notifications (clock changes, new
 * jobs, revoked keys); it is also the process's one long-lived session (its liveness lock, see NodeLiveness).
 * Notifications are only hints: after a reconnect every subscriber's `resync` runs, because whatever was sent while
 * we were away is lost.
 */
export class Listener {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly resyncs = new Set<() => void>();
  private readonly sessionHooks: Array<(client: pg.Client) => Promise<void>> = [];
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  on(channel: string, handler: Handler, resync?: () => void): void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      this.client?.query(`LISTEN ${quoteChannel(channel)}`).catch((error) => this.onError(error));
    }
    set.add(handler);
    if (resync) this.resyncs.add(resync);
  }

  /**
   * Runs on the session after every (re)connect, before it counts as connected: for session state that must be
   * re-established, such as a session advisory lock. A hook that fails fails the connect (retried like any other).
   */
  onSession(hook: (client: pg.Client) => Promise<void>): void {
    this.sessionHooks.push(hook);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = createClient(this.databaseUrl, 'tessera-listener');
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.onError(error);
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    await client.connect();
    try {
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteChannel(channel)}`);
      for (const hook of this.sessionHooks) await hook(client);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
  }

  private scheduleReconnect(failed: pg.Client): void {
    if (this.stopped || this.client !== failed || this.reconnectTimer) return;
    this.client = undefined;
    failed.end().catch(() => {});
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = undefined;
      try {
        await this.connect();
        for (const resync of this.resyncs) resync();
      } catch (error) {
        this.onError(error as Error);
        this.client = failed;
        this.scheduleReconnect(failed);
      }
    }, 500);
  }
}

function quoteChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  return channel;
}
