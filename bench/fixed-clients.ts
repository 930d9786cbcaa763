// One measurement with a fixed number of clients (1 for one-request-at-a-time latency), after a warm-up (JIT, pool,
// caches); any non-2xx answer or error fails the run, naming the status codes. Every autocannon figure of
// `npm run bench` is taken here.
import autocannon from 'autocannon';
import { cpuMsPer, cpuSnapshot, cpuSplit } from './cpu.js';

export interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU milliseconds per request by process (server, postgres, load generator, other), when asked for. */
  cpuMsPerRequest?: Record<string, number>;
}

export async function runWithClients(
  name: string,
  options: autocannon.Options,
  connections: number,
  duration: number,
  warmupSeconds = 1,
  /** Processes whose CPU time to split out by name (e.g. the server's pid); every `postgres` process is summed. */
  cpuRoles?: Record<string, number | undefined>,
): Promise<Figure> {
  await autocannon({ ...options, connections, duration: warmupSeconds });
  const cpuBefore = cpuRoles ? cpuSnapshot() : undefined;
  const result = await autocannon({ ...options, connections, duration });
  const cpu = cpuBefore && cpuSplit(cpuBefore, cpuSnapshot(), { ...cpuRoles, 'load generator': process.pid });
  const failed = result.non2xx + result.errors;
  if (failed > 0) {
    const { statusCodeStats, timeouts } = result as unknown as { statusCodeStats: unknown; timeouts: number };
    const detail = JSON.stringify({ statusCodes: statusCodeStats, errors: result.errors, timeouts });
    throw new Error(`${name}: ${failed} non-2xx responses or errors ${detail}`);
  }
  const figure: Figure = {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
  if (cpu && result.requests.total > 0) {
    figure.cpuMsPerRequest = cpuMsPer(cpu, result.requests.total);
  }
  const cpuText = figure.cpuMsPerRequest
    ? `  CPU ms/req ${Object.entries(figure.cpuMsPerRequest)
        .filter(([role]) => role !== 'other')
        .map(([role, ms]) => `${role} ${ms}`)
        .join(', ')}`
    : '';
  console.log(
    `  ${name.padEnd(52)} ${String(figure.requestsPerSecond).padStart(7)} req/s  p50 ${figure.p50Ms} ms  p99 ${figure.p99Ms} ms${cpuText}`,
  );
  return figure;
}
