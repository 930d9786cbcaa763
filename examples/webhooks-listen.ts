// Webhooks on your laptop with `tessera listen` (docs/guides/webhooks-listen.md): a local handler that verifies
// each delivery's signature (verifyWebhook from the client), `tessera listen` forwarding the merchant's events to it
// signed exactly like production deliveries, and a sale whose `transaction.card.captured` event arrives.
// TESSERA_CLI overrides how `tessera` is run (default `npx --no-install tessera`).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent } from '@tessera/client';
import { baseUrl, ok, tessera } from './setup.js';

const secret = randomBytes(32).toString('hex');
const received: WebhookEvent[] = [];

// 1. Your webhook handler: the raw body, verified before anything else.
const handler = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const event = verifyWebhook(secret, Buffer.concat(chunks), request.headers);
      received.push(event);
      console.log(`handler: verified ${event.type} about ${event.data.object.resourceType} ${event.data.object.id}`);
      response.writeHead(200).end();
    } catch (error) {
      console.log(`handler: refused a delivery (${(error as Error).message})`);
      response.writeHead(400).end();
    }
  });
});
await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
const forwardTo = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/webhooks`;

// 2. tessera listen, with the same credentials (here from the environment) and the handler's secret.
const [command, ...args] = (process.env.TESSERA_CLI ?? 'npx --no-install tessera').split(' ');
const listen = spawn(
  command!,
  [...args, 'listen', '--forward-to', forwardTo, '--secret', secret, '--events', 'transaction.card.captured', '--json'],
  { env: { ...process.env, TESSERA_BASE_URL: baseUrl }, stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((resolve, reject) => {
  listen.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('"connected":true')) resolve();
  });
  listen.on('exit', (code) => reject(new Error(`tessera listen exited with ${code}`)));
});
console.log(`tessera listen is forwarding to ${forwardTo}`);

// 3. Something happens: a sale.
const sale = await ok(
  tessera.api.POST('/pay-api/v1/transactions/sale', {
    body: {
      amount: 5,
      accountNumber: '4111111111111111',
      expirationMonth: 12,
      expirationYear: 2035,
      cardDataSource: 1,
    },
  }),
);
console.log(`sale ${sale.transactionId}: ${sale.status}`);

const deadline = Date.now() + 30_000;
while (!received.some((e) => e.data.object.id === sale.transactionId) && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
listen.kill('SIGTERM');
handler.close();
if (!received.some((e) => e.data.object.id === sale.transactionId)) throw new Error('the event did not arrive');
console.log('The sale’s event arrived, signed like a production delivery.');
