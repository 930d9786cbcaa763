// Every guide's script under examples/ runs to its end against a running sandbox with workers, as a developer runs
// it (a process of its own, configured by the environment), and prints what the guide says it shows.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, type MerchantTenant, startNode, type TestNode } from '../harness.js';

describe('guide examples', () => {
  let t: TestNode & { baseUrl: string };
  let m: MerchantTenant;
  before(async () => {
    t = await startNode({ listen: true, workers: true });
    m = await t.merchant();
  });
  after(() => t.stop());

  function example(name: string): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('examples', `${name}.ts`)], {
        env: {
          ...process.env,
          TESSERA_BASE_URL: t.baseUrl,
          TESSERA_CLIENT_ID: m.clientId,
          TESSERA_CLIENT_SECRET: m.clientSecret,
          TESSERA_ADMIN_TOKEN: ADMIN_TOKEN,
          TESSERA_CONFIG_DIR: path.join(t.config.dataDir, 'cli'),
          PAY_AS_TEST_PAYER: '1',
          TESSERA_CLI: `${process.execPath} --import tsx ${path.resolve('src/main.ts')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
  }

  const guides: Array<[name: string, shows: RegExp[]]> = [
    [
      'hosted-checkout',
      [/Send the payer to: http:\/\/127\.0\.0\.1:\d+\/checkout\//, /completed/, /Session .* completed/],
    ],
    [
      'save-card-charge-later',
      [/Saved card for customer/, /Charged the saved card: transaction .* Captured/, /Refunded 10\.00/],
    ],
    ['ach-returns', [/Debit .*: Scheduled/, /: Cleared/, /: ChargedBack/, /Returned: R01/]],
    [
      'subscription-dunning',
      [/First payment: Failed, next attempt/, /First payment: Successful after 2 attempts; subscription Active/],
    ],
    ['webhooks-listen', [/handler: verified transaction\.card\.captured about transaction/, /arrived, signed/]],
  ];
  for (const [name, shows] of guides) {
    it(`examples/${name}.ts`, async () => {
      const { code, out } = await example(name);
      assert.equal(code, 0, out);
      for (const line of shows) assert.match(out, line);
    });
  }
});
