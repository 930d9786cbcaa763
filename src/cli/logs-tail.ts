// `tessera logs tail`: the merchant's own recent API requests, then (unless told not to) each new one as it comes,
// from the public request-log endpoint.
import type { ApiClient } from './api-client.js';

export interface TailOptions {
  status?: string;
  path?: string;
  follow: boolean;
  json: boolean;
  out: (line: string) => void;
  signal?: AbortSignal;
  /** How often a follow asks for more. */
  intervalMs?: number;
}

interface Entry {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  correlationId: string;
}

export async function tailLogs(api: ApiClient, options: TailOptions): Promise<void> {
  let after: number | undefined;
  do {
    const query = new URLSearchParams({ limit: '100' });
    if (options.status) query.set('status', options.status);
    if (options.path) query.set('path', options.path);
    if (after !== undefined) query.set('after', String(after));
    const res = await api.request(`/pay-api/v1/request-logs?${query}`, { signal: options.signal });
    if (!res.ok) throw new Error(`the request log answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { items: Entry[]; next: number | null };
    for (const entry of page.items) {
      options.out(
        options.json
          ? JSON.stringify(entry)
          : `${entry.at}  ${entry.method.padEnd(6)} ${entry.status}  ${entry.path}  ${entry.durationMs} ms  ${entry.correlationId}`,
      );
    }
    after = page.next ?? 0;
    if (!options.follow || page.items.length === 100) continue;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.intervalMs ?? 1000);
      options.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } while (options.follow && !options.signal?.aborted);
}
