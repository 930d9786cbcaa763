// The subscription figures of `npm run bench` (issue: a billing run of 100,000 due installments). Each run is a
// child process of its own (bench/subscriptions.ts), so the memory reported is the run's: installments per second
// at 100,000, the live heap it holds at 10,000 and at 100,000 (memory flat in the number of installments), and the
// checks after it (each installment paid once, the ledger clean).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface BillingRun {
  installments: number;
  claimed: number;
  paid: number;
  sales: number;
  amountsMatch: boolean;
  ledgerProblems: number;
  seconds: number;
  perSecond: number;
  peakRssMiB: number;
  startRssMiB: number;
  liveHeapGrowthMiB?: number;
}

async function child(args: string[], env: NodeJS.ProcessEnv, node: string[] = []) {
  const { stdout } = await run(
    process.execPath,
    [...node, '--import', 'tsx', path.join(import.meta.dirname, 'subscriptions.ts'), ...args],
    { env, maxBuffer: 16 * 2 ** 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

export async function billingBenchmark(env: NodeJS.ProcessEnv) {
  const billing = async (installments: number, gc: boolean): Promise<BillingRun> => {
    const { merchantId } = await child(['setup', String(installments)], env);
    const result = (await child(['run', merchantId], env, gc ? ['--expose-gc'] : [])) as BillingRun;
    const problems = [
      result.paid !== installments && `${result.paid} of ${installments} installments paid`,
      result.sales !== installments && `${result.sales} sales for ${installments} installments`,
      !result.amountsMatch && 'a sale differs from its installment amount',
      result.ledgerProblems > 0 && `ledger verify found ${result.ledgerProblems} problems`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`billing run of ${installments}: ${problems.join('; ')}`);
    return result;
  };
  const full = await billing(100_000, false);
  console.log(
    `  billing run, 100,000 due installments                        ${full.seconds.toFixed(1)} s (${full.perSecond} installments/s), peak RSS ${full.peakRssMiB} MiB`,
  );
  const live10k = await billing(10_000, true);
  const live100k = await billing(100_000, true);
  console.log(
    `  billing run live heap growth, 10k / 100k installments        ${live10k.liveHeapGrowthMiB} / ${live100k.liveHeapGrowthMiB} MiB`,
  );
  return {
    installments: full.installments,
    seconds: Math.round(full.seconds * 100) / 100,
    perSecond: full.perSecond,
    peakRssMiB: full.peakRssMiB,
    liveHeapGrowthMiB: { at10k: live10k.liveHeapGrowthMiB!, at100k: live100k.liveHeapGrowthMiB! },
    perSecondWithGcSampling: { at10k: live10k.perSecond, at100k: live100k.perSecond },
    checks: 'every installment paid by exactly one approved sale of its amount; ledger verify clean',
  };
}
