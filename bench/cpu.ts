// CPU time per process from /proc, to say where a measurement's time went (server, PostgreSQL, receiver, load
// generator). Linux only; elsewhere the snapshot is empty and the split is not printed.
import { readdirSync, readFileSync } from 'node:fs';
import { dictionary } from '../src/platform/dictionary.js';

const TICKS_PER_SECOND = 100;

export type CpuSnapshot = Map<number, { name: string; ticks: number }>;

export function cpuSnapshot(): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return snapshot;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime are fields 14 and 15 of stat; after the name, indexes 11 and 12.
      snapshot.set(Number(entry), { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  return snapshot;
}

/** CPU seconds between two snapshots per role: the named pids, every `postgres` process, and the rest. */
export function cpuSplit(
  before: CpuSnapshot,
  after: CpuSnapshot,
  roles: Record<string, number | undefined>,
): Record<string, number> {
  const split: Record<string, number> = dictionary();
  const roleOf = new Map(Object.entries(roles).map(([role, pid]) => [pid, role]));
  for (const [pid, now] of after) {
    const spent = (now.ticks - (before.get(pid)?.ticks ?? 0)) / TICKS_PER_SECOND;
    if (spent <= 0) continue;
    const role = roleOf.get(pid) ?? (now.name === 'postgres' ? 'postgres' : 'other');
    split[role] = Math.round(((split[role] ?? 0) + spent) * 100) / 100;
  }
  return split;
}

/** A split's CPU seconds as milliseconds per item (request, sale, delivery), three decimals. */
export function cpuMsPer(split: Record<string, number>, items: number): Record<string, number> {
  return dictionary(Object.entries(split).map(([role, seconds]) => [role, Math.round((seconds * 1e6) / items) / 1e3]));
}
