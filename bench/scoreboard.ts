// The summary `npm run bench` ends with: one row per figure it measured in this run (with BENCH_ONLY, only the
// selected ones), each beside its target and a pass/miss mark. The same rows go to bench/results/latest.json.

export type Mark = 'pass' | 'miss' | 'info';

export interface Row {
  figure: string;
  measured: string;
  target: string;
  mark: Mark;
}

type Value = number | undefined | null;

const shown = (value: number, unit: string) =>
  `${Number.isInteger(value) ? value.toLocaleString('en-US') : String(value)}${unit}`;

export class Scoreboard {
  readonly rows: Row[] = [];

  /** A figure with a lower bound (a throughput or a ratio). Nothing is added when it was not measured. */
  atLeast(figure: string, value: Value, minimum: number, unit = '', detail = ''): void {
    if (value === undefined || value === null || Number.isNaN(value)) return;
    this.rows.push({
      figure,
      measured: `${shown(value, unit)}${detail ? ` (${detail})` : ''}`,
      target: `≥ ${shown(minimum, unit)}`,
      mark: value >= minimum ? 'pass' : 'miss',
    });
  }

  /** A figure with an upper bound (a latency, a size, a p99 ratio). */
  atMost(figure: string, value: Value, maximum: number, unit = '', detail = ''): void {
    if (value === undefined || value === null || Number.isNaN(value)) return;
    this.rows.push({
      figure,
      measured: `${shown(value, unit)}${detail ? ` (${detail})` : ''}`,
      target: `≤ ${shown(maximum, unit)}`,
      mark: value <= maximum ? 'pass' : 'miss',
    });
  }

  /** A yes/no check described in words (e.g. "memory flat"). */
  holds(figure: string, measured: string | undefined, target: string, ok: boolean): void {
    if (measured === undefined) return;
    this.rows.push({ figure, measured, target, mark: ok ? 'pass' : 'miss' });
  }

  /** A figure shown for context, without a target. */
  info(figure: string, measured: string | number | undefined): void {
    if (measured === undefined || (typeof measured === 'number' && Number.isNaN(measured))) return;
    this.rows.push({
      figure,
      measured: typeof measured === 'number' ? shown(measured, '') : measured,
      target: '—',
      mark: 'info',
    });
  }

  get misses(): Row[] {
    return this.rows.filter((row) => row.mark === 'miss');
  }

  print(): void {
    const widths = {
      figure: Math.max(6, ...this.rows.map((row) => row.figure.length)),
      measured: Math.max(8, ...this.rows.map((row) => row.measured.length)),
      target: Math.max(6, ...this.rows.map((row) => row.target.length)),
    };
    const line = (figure: string, measured: string, target: string, mark: string) =>
      `  ${figure.padEnd(widths.figure)}  ${measured.padStart(widths.measured)}  ${target.padEnd(widths.target)}  ${mark}`;
    const passed = this.rows.filter((row) => row.mark === 'pass').length;
    console.log('\nSummary');
    console.log(line('figure', 'measured', 'target', ''));
    console.log(`  ${'-'.repeat(widths.figure + widths.measured + widths.target + 10)}`);
    for (const row of this.rows)
      console.log(line(row.figure, row.measured, row.target, row.mark === 'info' ? '' : row.mark));
    console.log(
      `\n  ${passed} passed, ${this.misses.length} missed, ${this.rows.length - passed - this.misses.length} for context`,
    );
  }
}

/** A same-run ratio, two decimals. */
export function ratioOf(a: number | undefined, b: number | undefined): number | undefined {
  return a !== undefined && b !== undefined && b > 0 ? Math.round((a / b) * 100) / 100 : undefined;
}
