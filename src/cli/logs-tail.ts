// `tessera logs tail`: the merchant's own recent API requests, then (unless told not to) each new one as it comes,
// from the public request-log endpoint.
import type { TesseraClient } from '@tessera/client';

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

export async function tailLogs(client: TesseraClient, options: TailOptions): Promise<void> {
  let after: string | undefined;
  do {
    const {
      data: page,
      error,
      response,
    } = await client.api.GET('/pay-api/v1/request-logs', {
      params: {
        query: {
          limit: 100,
          ...(options.status ? { status: options.status } : {}),
          ...(options.path ? { path: options.path } : {}),
          ...(after !== undefined ? { after } : {}),
        },
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!page) throw new Error(`the request log answered ${response.status}: ${JSON.stringify(error)}`);
    for (const entry of page.items) {
      options.out(
        options.json
          ? JSON.stringify(entry)
          : `${entry.at}  ${entry.method.padEnd(6)} ${entry.status}  ${entry.path}  ${entry.durationMs} ms  ${entry.correlationId}`,
      );
    }
    after = page.next ?? undefined;
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
