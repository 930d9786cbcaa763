// Webhook receiver for the delivery benchmark, in its own process so neither the sender nor the load generator
// shares its event loop. Answers 200 at once; reports arrival times (wall clock, ms) over IPC when asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let arrivals: Array<[string, number]> = [];
let count = 0;
// Distinct messages since the last drain, and how many the benchmark waits for ('await'): it learns of the last
// arrival from here instead of polling the database, whose polls would cost PostgreSQL CPU inside the measurement.
const seen = new Set<string>();
let awaited: number | undefined;
const tellIfReached = () => {
  if (awaited !== undefined && seen.size >= awaited) {
    awaited = undefined;
    process.send?.({ type: 'reached' });
  }
};
const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    count++;
    const id = request.headers['webhook-id'];
    if (typeof id === 'string') {
      arrivals.push([id, at]);
      seen.add(id);
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    tellIfReached();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message: { type: string; count?: number }) => {
  if (message.type === 'drain') {
    process.send?.({ type: 'drained', count, arrivals });
    arrivals = [];
    seen.clear();
  } else if (message.type === 'await') {
    awaited = message.count;
    tellIfReached();
  }
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
