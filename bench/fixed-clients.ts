// A measurement with a fixed number of clients (1 for one-request-at-a-time latency), after a one-second warm-up;
// any non-2xx answer fails the run. Shared by the list benchmarks (invoices, the partner merchants list).
import autocannon from 'autocannon';

export interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export async function runWithClients(
  name: string,
  options: autocannon.Options,
  connections: number,
  duration: number,
): Promise<Figure> {
  await autocannon({ ...options, connections, duration: 1 });
  const result = await autocannon({ ...options, connections, duration });
  if (result.non2xx + result.errors > 0) throw new Error(`${name}: ${result.non2xx + result.errors} failures`);
  const figure = {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
  console.log(
    `  ${name.padEnd(52)} ${String(figure.requestsPerSecond).padStart(7)} req/s  p50 ${figure.p50Ms} ms  p99 ${figure.p99Ms} ms`,
  );
  return figure;
}
