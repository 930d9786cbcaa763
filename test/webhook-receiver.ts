// A webhook receiver on loopback for tests: records every request; `state.answer` decides each response's status.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on loopback; `answer` decides each response's status. */
export async function startReceiver() {
  const hits: Hit[] = [];
  const state = { answer: (_hit: Hit): number => 200, delayMs: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const hit = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      hits.push(hit);
      setTimeout(() => {
        response.statusCode = state.answer(hit);
        response.setHeader('content-type', 'text/plain');
        response.end(response.statusCode < 300 ? 'ok' : 'nope');
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hits,
    state,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
