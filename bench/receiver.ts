// Webhook receiver for the delivery benchmark, in its own process so neither the sender nor the load generator
// shares its event loop. Answers 200 at once; reports arrival times (wall clock, ms) over IPC when asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let arrivals: Array<[string, number]> = [];
let count = 0;
const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    count++;
    const id = request.headers['webhook-id'];
    if (typeof id === 'string') arrivals.push([id, at]);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'drain') {
    process.send?.({ count, arrivals });
    arrivals = [];
  }
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
