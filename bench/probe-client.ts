// Another tenant's reads, from a process of their own: a benchmark that measures how one tenant's burst affects
// another must not time the other tenant's requests on the event loop that also receives the burst's answers.
// Forked with the URL and token; 8 clients each send GETs one after the other until told to stop ('stop'), then it
// sends back every latency (ms) and exits.
import { Agent, request } from 'undici';

const [url, token] = process.argv.slice(2) as [string, string];
const agent = new Agent({ connections: 8, pipelining: 1 });
let stopping = false;
const latencies: number[] = [];
process.on('message', (message) => {
  if (message === 'stop') stopping = true;
});
const client = async () => {
  while (!stopping) {
    const started = performance.now();
    const response = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${token}` } });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`probe: ${response.statusCode}`);
    latencies.push(performance.now() - started);
  }
};
process.send?.('ready');
await Promise.all([...Array(8)].map(client));
await agent.close();
// Then it leaves: an open IPC channel would keep this process (and the benchmark waiting on it) alive.
process.send?.(latencies, () => process.disconnect());
