// The NACHA figures of `npm run bench` (issue: a window of 100,000 entries). Every build runs in a child process of
// its own, so the peak memory reported is that build's:
// - file build alone, ours (streaming writer) vs the npm libraries given the same entries: @ach/ach (create API and
//   its formatter) and nach2 (whose every addEntry re-adds the whole batch, so it is timed at 10,000 entries only);
// - memory flat: ours at 10,000 and 100,000 entries, and ours at 900,000 entries vs @ach/ach at 100,000 in a
//   16 MiB old generation;
// - the production cutoff (AchPaymentsService.cutoff: claim, cursor, write, seal, store parts, events) of a window of
//   10,000 and 100,000 entries: seconds, and the live heap it holds (sampled after full collections).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseNacha } from '../src/connectors/ach/nacha.js';

const run = promisify(execFile);

interface Build {
  impl: string;
  entries: number;
  seconds: number;
  peakRssMiB: number;
  startRssMiB: number;
}

async function child(script: string, args: string[], options: { env?: NodeJS.ProcessEnv; node?: string[] } = {}) {
  const { stdout } = await run(
    process.execPath,
    [...(options.node ?? []), '--import', 'tsx', path.join(import.meta.dirname, script), ...args],
    { env: options.env ?? process.env, maxBuffer: 16 * 2 ** 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

export async function nachaBenchmark(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-nacha-'));
  try {
    const build = async (impl: string, entries: number, node: string[] = []) =>
      (await child('nacha-build.ts', [impl, String(entries), path.join(dir, `${impl}-${entries}.ach`)], {
        node,
      })) as Build;
    const ours10k = await build('ours', 10_000);
    const ours100k = await build('ours', 100_000);
    const library100k = await build('ach', 100_000);
    const nach2At10k = await build('nach2', 10_000);

    // Both 100,000-entry files say the same thing: same entries, same amounts. Ours passes every control check of
    // our parser; the library's entry hash is checked on its own (it is written wrong: see docs/performance.md).
    const ours = parseNacha(readFileSync(path.join(dir, 'ours-100000.ach'), 'utf8'));
    const libraryRecords = readFileSync(path.join(dir, 'ach-100000.ach'), 'utf8').split('\n');
    const libraryEntries = libraryRecords.filter((r) => r.startsWith('6'));
    const libraryCents = libraryEntries.reduce((sum, r) => sum + Number(r.slice(29, 39)), 0);
    if (
      ours.batches[0]!.entries.length !== libraryEntries.length ||
      ours.control.totalDebitCents !== BigInt(libraryCents)
    ) {
      throw new Error('the two 100,000-entry files disagree');
    }
    const libraryControl = libraryRecords.find((r) => r.startsWith('9') && !r.startsWith('99'))!;
    const libraryHashRight = libraryControl.slice(21, 31) === ours.control.entryHash.toString().padStart(10, '0');

    const bounded = ['--max-old-space-size=16'];
    const ours900kBounded = await build('ours', 900_000, bounded).then(
      (b) => ({ ok: true, seconds: b.seconds }),
      () => ({ ok: false, seconds: undefined }),
    );
    const library100kBounded = await build('ach', 100_000, bounded).then(
      () => true,
      () => false,
    );

    const cutoffEnv = { ...env, LOG_LEVEL: 'warn' };
    const cutoff = async (entries: number, gc: boolean) => {
      const window = await child('ach-cutoff.ts', ['setup', String(entries)], { env: cutoffEnv });
      return child('ach-cutoff.ts', ['run', window.processorId, window.window, window.merchantId], {
        env: cutoffEnv,
        node: gc ? ['--expose-gc'] : [],
      });
    };
    const cutoff100k = await cutoff(100_000, false);
    const cutoffLive10k = await cutoff(10_000, true);
    const cutoffLive100k = await cutoff(100_000, true);

    const growth = (b: Build) => round(b.peakRssMiB - b.startRssMiB, 1);
    const figures = {
      buildSeconds: { ours10k: round(ours10k.seconds, 3), ours100k: round(ours100k.seconds, 3) },
      library100k: {
        seconds: round(library100k.seconds, 3),
        peakRssGrowthMiB: growth(library100k),
        entryHashRight: libraryHashRight,
      },
      timeRatioLibraryOverOurs: round(library100k.seconds / ours100k.seconds, 1),
      peakRssGrowthMiB: { ours10k: growth(ours10k), ours100k: growth(ours100k), library100k: growth(library100k) },
      nach2At10k: { seconds: round(nach2At10k.seconds, 2), ratioOverOurs: round(nach2At10k.seconds / ours10k.seconds) },
      in16MiBOldSpace: { ours900k: ours900kBounded, library100k: library100kBounded },
      cutoff: {
        seconds100k: round(cutoff100k.seconds, 2),
        entriesPerSecond: Math.round(cutoff100k.entries / cutoff100k.seconds),
        liveHeapGrowthMiB: { at10k: cutoffLive10k.liveHeapGrowthMiB, at100k: cutoffLive100k.liveHeapGrowthMiB },
      },
      clearing: {
        seconds100k: round(cutoff100k.clearSeconds, 2),
        entriesPerSecond: Math.round(cutoff100k.entries / cutoff100k.clearSeconds),
        liveHeapGrowthMiB: {
          at10k: cutoffLive10k.clearLiveHeapGrowthMiB,
          at100k: cutoffLive100k.clearLiveHeapGrowthMiB,
        },
      },
    };
    const line = (label: string, value: string) => console.log(`  ${label.padEnd(60)} ${value}`);
    console.log('\n  NACHA file of one window');
    line(
      'build 100,000 entries: ours / @ach/ach',
      `${figures.buildSeconds.ours100k} s / ${figures.library100k.seconds} s (library ${figures.timeRatioLibraryOverOurs}x slower)`,
    );
    line(
      'peak RSS growth, ours 10k / ours 100k / @ach/ach 100k',
      `${growth(ours10k)} / ${growth(ours100k)} / ${growth(library100k)} MiB`,
    );
    line('build 10,000 entries: ours / nach2', `${figures.buildSeconds.ours10k} s / ${figures.nach2At10k.seconds} s`);
    line(
      'in a 16 MiB old generation: ours 900k / @ach/ach 100k',
      `${ours900kBounded.ok ? 'completes' : 'FAILS'} / ${library100kBounded ? 'completes' : 'runs out of memory'}`,
    );
    line('@ach/ach file entry hash correct', String(libraryHashRight));
    line(
      'cutoff of 100,000 entries (claim, write, seal, store, events)',
      `${figures.cutoff.seconds100k} s (${figures.cutoff.entriesPerSecond} entries/s)`,
    );
    line(
      'cutoff live heap growth, 10k / 100k entries',
      `${cutoffLive10k.liveHeapGrowthMiB} / ${cutoffLive100k.liveHeapGrowthMiB} MiB`,
    );
    line(
      'clearing of 100,000 entries (state, ledger, events, in slices)',
      `${figures.clearing.seconds100k} s (${figures.clearing.entriesPerSecond} entries/s)`,
    );
    line(
      'clearing live heap growth, 10k / 100k entries',
      `${cutoffLive10k.clearLiveHeapGrowthMiB} / ${cutoffLive100k.clearLiveHeapGrowthMiB} MiB`,
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
