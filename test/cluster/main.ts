// `npm run test:cluster`: one seeded run of the cluster test (docs/reliability.md). Options: --seed N (default: a
// random one, printed), --seconds N (default 300), --clients N (default 6), --out DIR (default cluster-results),
// --pgbouncer (the nodes reach PostgreSQL through PgBouncer in transaction pooling mode), --standby (a synchronous
// streaming standby is promoted under load once the primary is killed), --sftp (the second merchant's ACH goes to a
// bank over SFTP: OpenSSH on loopback, installed by scripts/ensure-test-tools.sh), --upgrade-from REF (a rolling upgrade
// instead of faults: the nodes start from commit REF's build, e.g. HEAD~1, and are upgraded one at a time to this
// checkout under load; a request any client saw fail is a violation).
// Exit 1 when the checker found a violation; the history file replays what happened.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildCommit } from './old-build.js';
import { runCluster } from './run.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    seconds: { type: 'string', default: '300' },
    clients: { type: 'string', default: '6' },
    out: { type: 'string', default: 'cluster-results' },
    pgbouncer: { type: 'boolean', default: false },
    standby: { type: 'boolean', default: false },
    sftp: { type: 'boolean', default: false },
    'upgrade-from': { type: 'string' },
  },
});
if (values.sftp) execFileSync('bash', ['scripts/ensure-test-tools.sh'], { stdio: 'inherit' });
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
mkdirSync(values.out, { recursive: true });
const historyFile = path.join(values.out, `history-${seed}.jsonl`);
console.log(`cluster test: seed ${seed} (replay with --seed ${seed}), history ${historyFile}`);
const started = Date.now();
const old = values['upgrade-from'] ? buildCommit(values['upgrade-from']) : undefined;
const report = await runCluster({
  seed,
  seconds: Number(values.seconds),
  clients: Number(values.clients),
  historyFile,
  pgbouncer: values.pgbouncer,
  standby: values.standby,
  sftp: values.sftp,
  ...(old ? { upgradeFrom: { commit: old.commit, bin: old.bin } } : {}),
  log: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`),
}).finally(() => old?.remove());
writeFileSync(path.join(values.out, `report-${seed}.json`), `${JSON.stringify(report, null, 2)}\n`);
console.log(
  JSON.stringify(
    {
      ...report,
      violations: report.violations.length,
      adyen: { ...report.adyen, violations: report.adyen.violations.length },
      ...(report.sftp ? { sftp: { ...report.sftp, violations: report.sftp.violations.length } } : {}),
    },
    null,
    2,
  ),
);
for (const v of report.violations.slice(0, 50)) console.log(`VIOLATION ${v.invariant}: ${v.detail}`);
for (const v of report.adyen.violations.slice(0, 50)) console.log(`ADYEN CONTRACT: ${v}`);
for (const v of report.sftp?.violations ?? []) console.log(`SFTP BANK: ${v}`);
const exited = report.exited;
console.log(
  `cluster test: ${report.violations.length} violations, ${exited} processes exited by themselves, in ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`,
);
// A node that dies by itself under load is a failure too, though no invariant caught it.
// So is a request or a notification that breaks Adyen's published contract.
// And, with --sftp, a file left half-delivered or delivered twice on the bank's server.
const clean =
  report.violations.length === 0 &&
  exited === 0 &&
  report.adyen.violations.length === 0 &&
  (report.sftp?.violations.length ?? 0) === 0;
process.exit(clean ? 0 : 1);
