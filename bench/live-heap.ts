// Memory flat in the number of objects: the live heap (after a full collection) of a server process, sampled while
// it works, as growth over its level just before. Needs the server started with --expose-gc (its `memory` answer
// collects first).
import type { ChildProcess } from 'node:child_process';

const MIB = 1024 * 1024;

/** The server's live heap now (heap used plus external, after a full collection), in bytes. */
export function liveHeapOf(server: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const answer = (message: { memory?: NodeJS.MemoryUsage }) => {
      if (!message?.memory) return;
      server.off('message', answer);
      resolve(message.memory.heapUsed + message.memory.external);
    };
    server.on('message', answer);
    server.send('memory');
  });
}

/** Runs `work`, sampling the server's live heap one collection after another: the peak growth in MiB. */
export async function liveHeapGrowth<T>(
  server: ChildProcess,
  work: () => Promise<T>,
): Promise<{ result: T; mib: number }> {
  const before = await liveHeapOf(server);
  let peak = before;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, await liveHeapOf(server));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    const result = await work();
    return { result, mib: Math.round(((peak - before) / MIB) * 10) / 10 };
  } finally {
    done = true;
    await sampling;
  }
}

/** Reads a streamed export to its end, keeping nothing: how many bytes came. */
export async function drainExport(url: string, token: string): Promise<number> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new Error(`${url}: ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}
