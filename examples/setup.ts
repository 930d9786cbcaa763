// What every example script starts from: the typed client (packages/client) for a merchant's API key, from the
// environment, and two sandbox helpers. Run an example with
//   TESSERA_BASE_URL=http://127.0.0.1:8080 TESSERA_CLIENT_ID=... TESSERA_CLIENT_SECRET=... \
//   [TESSERA_ADMIN_TOKEN=...] node --import tsx examples/<name>.ts
import { createTesseraClient } from '@tessera/client';

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is not set (see docs/guides/README.md)`);
    process.exit(64);
  }
  return value;
}

export const baseUrl = (process.env.TESSERA_BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');

export const tessera = createTesseraClient({
  baseUrl,
  clientId: required('TESSERA_CLIENT_ID'),
  clientSecret: required('TESSERA_CLIENT_SECRET'),
});

/** The data of a typed call, or exit with what the API said. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined || !response.ok) {
    console.error(`${response.url}: ${response.status} ${JSON.stringify(error)}`);
    process.exit(1);
  }
  return data;
}

/** Sandbox only: moves the business clock on (the operator's token), so what takes days happens now. */
export async function advanceClock(seconds: number): Promise<string> {
  const res = await fetch(`${baseUrl}/admin/v1/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${required('TESSERA_ADMIN_TOKEN')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
  if (!res.ok) throw new Error(`clock advance: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { now: string }).now;
}

/** Polls `check` until it answers something (the server's workers run the work in the background). */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; Date.now() < deadline; delay = Math.min(delay * 2, 1_000)) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}
