// `npm start` as an operator runs it: several nodes started at once from one fresh checkout all build through the
// same `prestart`. Each must serve or fail loudly; none may load half a bundle and exit 0 without a word.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_TOKEN,
  createTestDatabase,
  ENCRYPTION_KEY,
  eventually,
  freePort,
  type TestDatabase,
} from '../harness.js';

const root = path.resolve('.');

/** A checkout as `git clone` leaves it (no dist/), sharing this one's installed node_modules. */
function freshCheckout(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-checkout-'));
  for (const entry of ['package.json', 'bin', 'scripts', 'src', 'packages']) {
    cpSync(path.join(root, entry), path.join(dir, entry), {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}node_modules`),
    });
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

interface Started {
  child: ChildProcess;
  port: number;
  output: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function npmStart(cwd: string, port: number, databaseUrl: string): Started {
  const child = spawn('npm', ['start', '--silent'], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(cwd, `data-${port}`),
      WORKERS: '0',
      SANDBOX_DEMO_DATA: 'false',
      ADMIN_TOKEN,
      ENCRYPTION_KEY,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so stopping it stops npm's child too
  });
  const output: string[] = [];
  const stderr: string[] = [];
  child.stdout!.on('data', (d) => output.push(d.toString()));
  child.stderr!.on('data', (d) => {
    output.push(d.toString());
    stderr.push(d.toString());
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output, stderr, exited };
}

function stopGroup(proc: Started) {
  if (proc.child.exitCode === null && proc.child.pid) {
    try {
      process.kill(-proc.child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

describe('npm start from one fresh checkout', () => {
  let db: TestDatabase;
  let checkout: string;
  const procs: Started[] = [];
  before(async () => {
    db = await createTestDatabase({ empty: true });
    checkout = freshCheckout();
  });
  after(async () => {
    for (const p of procs) stopGroup(p);
    await Promise.all(procs.map((p) => p.exited));
    await db?.drop();
    rmSync(checkout, { recursive: true, force: true });
  });

  it('five nodes started at once each serve (or fail loudly), and leave one whole bundle', async () => {
    const ports = await Promise.all([0, 1, 2, 3, 4].map(() => freePort()));
    for (const port of ports) procs.push(npmStart(checkout, port, db.url));
    await Promise.all(
      procs.map(async (proc) => {
        const outcome = await eventually(
          async () => {
            if (proc.child.exitCode !== null) return 'exited';
            return proc.output.join('').includes('tessera listening') ? 'listening' : undefined;
          },
          60_000,
          50,
        );
        if (outcome === 'exited') {
          // Failing is allowed only loudly: a non-zero status and a message.
          assert.notEqual(proc.child.exitCode, 0, `node on ${proc.port} exited 0:\n${proc.output.join('')}`);
          assert.ok(proc.stderr.join('').trim().length > 0, `node on ${proc.port} failed without a word`);
          return;
        }
        const res = await fetch(`http://127.0.0.1:${proc.port}/healthz`);
        assert.equal(res.status, 200, `node on ${proc.port}: ${await res.text()}`);
      }),
    );
    // With nothing in their way, every one of them serves.
    assert.deepEqual(
      procs.map((p) => p.child.exitCode),
      procs.map(() => null),
      procs.map((p) => p.output.join('')).join('\n---\n'),
    );
    const left = readdirSync(path.join(checkout, 'dist')).sort();
    assert.deepEqual(
      left,
      ['main.js', 'main.js.map', 'main.stamp.json', 'pdf-worker.js', 'pdf-worker.js.map'],
      'no temporary build file is left behind',
    );
  });

  it('skips the build when the bundle is current and rebuilds it when a source changed', () => {
    const bundle = path.join(checkout, 'dist', 'main.js');
    const build = () => spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: checkout, encoding: 'utf8' });
    const before = statSync(bundle).mtimeMs;
    assert.equal(build().status, 0);
    assert.equal(statSync(bundle).mtimeMs, before, 'a current bundle is not rewritten');

    const config = path.join(checkout, 'src', 'config.ts');
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n// changed\n`);
    assert.equal(build().status, 0);
    assert.notEqual(statSync(bundle).mtimeMs, before, 'a changed source rebuilds the bundle');
  });

  it('a cut-short or unloadable bundle fails loudly, never exit 0 in silence', () => {
    const bundle = path.join(checkout, 'dist', 'main.js');
    const whole = readFileSync(bundle, 'utf8');
    const run = () =>
      spawnSync(process.execPath, ['bin/tessera.js', 'migrate'], {
        cwd: checkout,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: db.url, ADMIN_TOKEN, ENCRYPTION_KEY },
        timeout: 30_000,
      });
    // Cut at a statement boundary: still valid JavaScript, but without the end of the module.
    const cuts = [whole.slice(0, whole.lastIndexOf('\nfunction ', whole.length / 2)), whole.slice(0, 1000), ''];
    for (const cut of cuts) {
      writeFileSync(bundle, cut);
      const result = run();
      assert.notEqual(result.status, 0, `exit ${result.status} with ${cut.length} characters of bundle`);
      assert.match(result.stderr, /tessera: .*dist\/main\.js/);
    }
    writeFileSync(bundle, whole);
    const result = run();
    assert.equal(result.status, 0, result.stderr);
  });
});
