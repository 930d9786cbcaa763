// Benchmark target, run as a child process by bench/run.ts: a Tessera node built exactly like `tessera serve`, and
// beside it a bare Fastify app (no hooks, no auth) whose one route runs `SELECT 1` through the *same* pg pool.
import Fastify from 'fastify';
import { loadConfig } from '../src/config.js';
import { createNode } from '../src/node.js';
import { createLogger } from '../src/platform/observability/logger.js';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);
const node = await createNode(config, { logger, databaseUrl });
await node.listen();
// Webhook delivery workers (the delivery benchmark); WORKERS=0 everywhere else.
if (config.workers > 0) await node.startWorkers();

const bare = Fastify();
bare.get('/select1', async () => {
  const { rows } = await node.ctx.pool.query('SELECT 1 AS one');
  return rows[0];
});
// The payment baseline: one transaction of two INSERTs, the least a durable payment record could cost.
await node.ctx.pool.query(
  'CREATE TABLE IF NOT EXISTS bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
);
bare.post('/two-inserts', async (request) => {
  const client = await node.ctx.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('INSERT INTO bench_baseline (payload) VALUES ($1)', [request.body ?? {}]);
    await client.query('INSERT INTO bench_baseline (payload) VALUES ($1)', [{ second: true }]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  return { ok: true };
});
await bare.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_BASELINE_PORT) });
process.send?.({ ready: true });
// The POS benchmark asks for this process's memory (after a full collection when --expose-gc is on) and how many
// long-polls it holds.
process.on('message', (message) => {
  // The dashboard benchmark asks for a signed-in owner of its merchant (made as the sandbox's demo owner is).
  const wanted = (message as { dashboardUser?: string } | undefined)?.dashboardUser;
  if (wanted) {
    const password = 'bench dashboard passphrase';
    void node.ctx.services.dashboard.accounts
      .create({
        email: `owner-${wanted}@bench.example`,
        name: 'Bench owner',
        role: 'owner',
        password,
        ownerKind: 'merchant',
        merchantId: wanted,
      })
      .then(({ user, totpSecret }) => process.send?.({ dashboardUser: { email: user.email, password, totpSecret } }));
    return;
  }
  // The event-stream benchmark asks for this process's CPU time.
  if (message === 'cpu') return process.send?.({ cpu: process.cpuUsage() });
  if (message !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ memory: process.memoryUsage(), waiting: node.ctx.services.pos.waiting });
});

process.on('SIGTERM', async () => {
  await bare.close();
  await node.stop();
  process.exit(0);
});
